/**
 * Roles: `/iam/v2beta1/roles`, the built-in roles every caller may read and the custom
 * roles of a group. A built-in role has a flat uid (40 hex characters); a custom role is
 * a child of its group, `<group uid>/<16 hex>`, and its group is read from its uid.
 */
import { type Access, isSameOrBelow } from "../access";
import { ApiError, invalidArgument, notFound } from "../errors";
import { capabilityFor } from "../kinds";
import { BUILT_IN_ROLES, isCapability, type RoleRecord, sortCapabilities } from "../model";
import { type JsonObject, optionalString } from "../requests";
import type { State } from "../state";
import * as kit from "./kit";
import { refuseRoleDelete } from "./references";
import { type CreateWrite, type WriteSteps, writableCollection } from "./writable";

export function roleOut(role: RoleRecord): JsonObject {
  return {
    uid: role.uid,
    name: role.name,
    description: role.description,
    capabilities: [...role.capabilities],
    createTime: role.createTime,
    updateTime: role.updateTime,
  };
}

/** The group of a custom role (the parent part of its uid); "" for a built-in role. */
export function roleGroupOf(role: { uid: string }): string {
  return kit.parentOf(role.uid) ?? "";
}

/**
 * Built-in roles are readable by every caller; a custom role by `CAP_IAM_ROLES_LIST` on
 * its group (there is no GET capability).
 */
export function roleReadable(access: Access, role: RoleRecord): boolean {
  const group = roleGroupOf(role);
  return group === "" || access.can(capabilityFor("roles", "list"), group);
}

/**
 * The role `uid` names, if the caller may read it. Reading roles is unscoped: a custom
 * role the caller cannot read answers exactly as a missing one, `NOT_FOUND`.
 */
export function readableRole(state: State, access: Access, uid: string): RoleRecord {
  const role = state.roles.get(uid);
  if (!role || !roleReadable(access, role)) throw notFound(uid);
  return role;
}

/**
 * Step 5 for anything that promises a role in `groupUid` (a binding, an invite, an
 * identity provider's default role): a custom role must belong to the group or one of
 * its ancestors. `field` names the body field that carries the role uid.
 */
export function requireRoleUsableIn(role: RoleRecord, groupUid: string, field: string): void {
  const roleGroup = roleGroupOf(role);
  if (roleGroup !== "" && !isSameOrBelow(groupUid, roleGroup)) {
    throw invalidArgument(
      field,
      "the role belongs to a group that is not this group or an ancestor",
    );
  }
}

/**
 * Step 6 for anything that promises a role in `groupUid`: the caller holds every
 * capability of the role there (no one grants more than they hold). Capabilities are
 * stored in the enum's order, so the refusal names the first missing one in that order.
 */
export function requireRoleGrantable(access: Access, role: RoleRecord, groupUid: string): void {
  for (const capability of role.capabilities) access.require(capability, groupUid);
}

/** A role a write promises to bind in a group: a binding, an invite, a default role. */
export interface PromisedRole {
  ctx: kit.EmulatorContext;
  access: Access;
  groupUid: string;
  roleUid: string;
  /** The body field that carries the role uid (`roleUid`, `defaultRole`). */
  field: string;
}

/**
 * Steps 4 to 6 of a write that promises a role: the role is readable by the caller and
 * exists (`NOT_FOUND` alike), may be used in the group, and the
 * caller holds every capability of it there. `promise` answers undefined when the write
 * promises no role (an update that leaves the role alone).
 */
export function promisedRoleSteps<W>(
  promise: (write: W) => PromisedRole | undefined,
): Required<Pick<WriteSteps<W>, "references" | "roleUsable" | "grants">> {
  const role = (p: PromisedRole) => kit.existing(p.ctx.state.roles, p.roleUid);
  return {
    references: (write) => {
      const p = promise(write);
      if (p) readableRole(p.ctx.state, p.access, p.roleUid);
    },
    roleUsable: (write) => {
      const p = promise(write);
      if (p) requireRoleUsableIn(role(p), p.groupUid, p.field);
    },
    grants: (write) => {
      const p = promise(write);
      if (p) requireRoleGrantable(p.access, role(p), p.groupUid);
    },
  };
}

/**
 * The steps of a create that promises a role in its parent group: the draft's member
 * `field` holds the role's uid, and errors name that field.
 */
export function promisedRoleOfCreate<D>(
  field: { [K in keyof D]: D[K] extends string ? K : never }[keyof D] & string,
): ReturnType<typeof promisedRoleSteps<CreateWrite<D>>> {
  return promisedRoleSteps<CreateWrite<D>>((write) => ({
    ctx: write.ctx,
    access: write.access,
    groupUid: write.parentUid,
    roleUid: write.draft[field] as string,
    field,
  }));
}

const BUILT_IN_ROLE_NAMES = new Set(BUILT_IN_ROLES.map((role) => role.name));

/** A custom role's name: the common pattern, and never a built-in role's name (addendum, 7). */
function requireCustomRoleName(value: unknown): string {
  const name = kit.requireName(value);
  if (BUILT_IN_ROLE_NAMES.has(name))
    throw invalidArgument("name", "is the name of a built-in role");
  return name;
}

/**
 * The capabilities of a custom role: value names of the platform's `Capability` enum
 * (`CAP_IAM_GROUPS_CREATE`), at least one, stored in the enum's order without repeats.
 */
function requireCapabilities(value: unknown): string[] {
  if (value === undefined || value === null) throw noCapability();
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw invalidArgument("capabilities", "must be an array of strings");
  }
  for (const capability of value as string[]) {
    if (!isCapability(capability)) {
      throw invalidArgument(
        "capabilities",
        `unknown capability "${capability}" (expected a Capability enum name such as CAP_IAM_GROUPS_LIST)`,
      );
    }
  }
  if (value.length === 0) throw noCapability();
  return sortCapabilities(value as string[]);
}

/** A role without capabilities grants nothing: refused at create and after every update. */
function noCapability() {
  return invalidArgument("capabilities", "at least one capability is required");
}

interface RoleDraft {
  name: string;
  description: string;
  capabilities: string[];
}

export const roles = writableCollection<RoleRecord, RoleDraft>({
  name: "roles",
  out: (_ctx, role) => roleOut(role),
  authorize: (ctx, access, uid, verb) => {
    kit.requireRoleUid(uid);
    const role = readableRole(ctx.state, access, uid);
    if (verb === "get") return role;
    const group = roleGroupOf(role);
    if (group === "") {
      throw new ApiError(
        "PERMISSION_DENIED",
        `Permission denied: ${capabilityFor("roles", verb)} on ${uid} (built-in roles cannot be changed)`,
      );
    }
    access.require(capabilityFor("roles", verb), uid);
    return role;
  },
  list: {
    sortName: (_ctx, role) => role.name,
    visible: (_ctx, access, role) => roleReadable(access, role),
  },
  create: {
    parentHint: "the owning group uid belongs in the path",
    body: (_ctx, body) => ({
      name: requireCustomRoleName(body.name),
      description: optionalString(body, "description") ?? "",
      capabilities: requireCapabilities(body.capabilities),
    }),
    build: (ctx, draft, parentUid, now) => ({
      uid: kit.newChildUid(
        parentUid,
        (candidate) => ctx.state.roles.has(candidate) || ctx.state.groups.has(candidate),
      ),
      ...draft,
      createTime: now,
      updateTime: now,
    }),
  },
  update: {
    writable: ["name", "description", "capabilities"],
    fields: ["name", "description", "capabilities"],
    apply: (_ctx, current, body, paths) => {
      const next: RoleRecord = { ...current };
      for (const path of paths) {
        if (path === "name") next.name = requireCustomRoleName(body.name);
        if (path === "description") next.description = optionalString(body, "description") ?? "";
        if (path === "capabilities") next.capabilities = requireCapabilities(body.capabilities);
      }
      return next;
    },
    // Widening a role widens every binding of it: like granting a binding, only
    // capabilities the caller holds may be added (else roles.update escalates).
    grants: ({ access, current, next }) => {
      for (const capability of next.capabilities) {
        if (!current.capabilities.includes(capability)) {
          access.require(capability, roleGroupOf(current));
        }
      }
    },
  },
  delete: {
    refuse: (ctx, role) => refuseRoleDelete(ctx.state, role.uid),
  },
});
