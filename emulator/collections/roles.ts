/**
 * Roles: `/iam/v2beta1/roles`, the built-in roles every caller may read and the custom
 * roles of a group. Role uids are flat (40 hex characters); `parentUid` records a custom
 * role's group, "" a built-in role.
 */
import { type Access, isSameOrBelow } from "../access";
import { ApiError, invalidArgument, notFound } from "../errors";
import { ALL_CAPABILITIES, BUILT_IN_ROLES, type RoleRecord } from "../model";
import { type JsonObject, optionalString } from "../requests";
import { flatUid, type State } from "../state";
import { type EmulatorContext, existing, requireName, requireRoleUid } from "./kit";
import { refuseRoleDelete } from "./references";
import { type WriteSteps, writableCollection } from "./writable";

export function roleOut(role: RoleRecord): JsonObject {
  return {
    uid: role.uid,
    name: role.name,
    description: role.description,
    capabilities: [...role.capabilities],
    parentUid: role.parentUid,
    createTime: role.createTime,
    updateTime: role.updateTime,
  };
}

/** Built-in roles are readable by every caller; a custom role by `roles.get` on its group. */
export function roleReadable(
  access: Access,
  role: RoleRecord,
  verb: "list" | "get" = "get",
): boolean {
  return role.parentUid === "" || access.can(`roles.${verb}`, role.parentUid);
}

/**
 * The role `uid` names, if the caller may read it. Role uids are flat: a missing role
 * has no group to check a capability on, so a custom role the caller cannot read
 * answers exactly as a missing one, `NOT_FOUND`, and never names its group.
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
  if (role.parentUid !== "" && !isSameOrBelow(groupUid, role.parentUid)) {
    throw invalidArgument(
      field,
      "the role belongs to a group that is not this group or an ancestor",
    );
  }
}

/**
 * Step 6 for anything that promises a role in `groupUid`: the caller holds every
 * capability of the role there (no one grants more than they hold). Capabilities are
 * stored sorted, so the refusal names the first missing one in sorted order.
 */
export function requireRoleGrantable(access: Access, role: RoleRecord, groupUid: string): void {
  for (const capability of role.capabilities) access.require(capability, groupUid);
}

/** A role a write promises to bind in a group: a binding, an invite, a default role. */
export interface PromisedRole {
  ctx: EmulatorContext;
  access: Access;
  groupUid: string;
  roleUid: string;
  /** The body field that carries the role uid (`roleUid`, `defaultRole`). */
  field: string;
}

/**
 * Steps 4 to 6 of a write that promises a role: the role is readable by the caller and
 * exists (`NOT_FOUND` alike, role uids being flat), may be used in the group, and the
 * caller holds every capability of it there. `promise` answers undefined when the write
 * promises no role (an update that leaves the role alone).
 */
export function promisedRoleSteps<W>(
  promise: (write: W) => PromisedRole | undefined,
): Required<Pick<WriteSteps<W>, "references" | "roleUsable" | "grants">> {
  const role = (p: PromisedRole) => existing(p.ctx.state.roles, p.roleUid);
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

const BUILT_IN_ROLE_NAMES = new Set(BUILT_IN_ROLES.map((role) => role.name));

/** A custom role's name: the common pattern, and never a built-in role's name (addendum, 7). */
function requireCustomRoleName(value: unknown): string {
  const name = requireName(value);
  if (BUILT_IN_ROLE_NAMES.has(name))
    throw invalidArgument("name", "is the name of a built-in role");
  return name;
}

/** The capabilities of a custom role: known names, at least one, stored sorted without duplicates. */
function requireCapabilities(value: unknown): string[] {
  if (value === undefined || value === null) throw noCapability();
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw invalidArgument("capabilities", "must be an array of strings");
  }
  for (const capability of value as string[]) {
    if (!ALL_CAPABILITIES.includes(capability)) {
      throw invalidArgument(
        "capabilities",
        `unknown capability "${capability}" (expected <collection>.<verb>)`,
      );
    }
  }
  if (value.length === 0) throw noCapability();
  return [...new Set(value as string[])].sort();
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
  store: (state) => state.roles,
  out: (_ctx, role) => roleOut(role),
  authorize: (ctx, access, uid, verb) => {
    requireRoleUid(uid);
    const role = readableRole(ctx.state, access, uid);
    if (verb === "get") return role;
    if (role.parentUid === "") {
      throw new ApiError(
        "PERMISSION_DENIED",
        `Permission denied: roles.${verb} on ${uid} (built-in roles cannot be changed)`,
      );
    }
    access.require(`roles.${verb}`, role.parentUid);
    return role;
  },
  list: {
    sortName: (_ctx, role) => role.name,
    visible: (_ctx, access, role) => roleReadable(access, role, "list"),
    scopeParentOf: (role) => role.parentUid,
  },
  create: {
    parentHint: "the owning group uid belongs in the path",
    body: (_ctx, body) => ({
      name: requireCustomRoleName(body.name),
      description: optionalString(body, "description") ?? "",
      capabilities: requireCapabilities(body.capabilities),
    }),
    build: (ctx, draft, parentUid, now) => {
      let uid = flatUid();
      while (ctx.state.roles.has(uid)) uid = flatUid();
      return { uid, ...draft, parentUid, createTime: now, updateTime: now };
    },
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
          access.require(capability, current.parentUid);
        }
      }
    },
  },
  delete: {
    refuse: (ctx, role) => refuseRoleDelete(ctx.state, role.uid),
  },
});
