/**
 * Role bindings: `/iam/v2beta1/roleBindings`, an identity bound to a role in a group.
 * A binding's uid is a child of its group's uid.
 */
import type { Access } from "../access";
import { alreadyExists, invalidArgument, notFound } from "../errors";
import { bindingIssuerSubject } from "../identity-kinds/answers";
import { capabilityFor } from "../kinds";
import type { IdentityRecord, RoleBindingRecord, RoleRecord } from "../model";
import {
  type ApiRequest,
  bodyObject,
  type JsonObject,
  ok,
  optionalObject,
  optionalString,
} from "../requests";
import type { State } from "../state";
import * as kit from "./kit";
import { readableRole, requireRoleGrantable, requireRoleUsableIn, roleReadable } from "./roles";
import { writableCollection } from "./writable";

/** The binding's identity when `reader` may read it; undefined otherwise (answered blank). */
function readableIdentity(
  state: State,
  binding: RoleBindingRecord,
  reader: Access,
): IdentityRecord | undefined {
  return reader.can(capabilityFor("identities", "get"), binding.identityUid)
    ? state.identities.get(binding.identityUid)
    : undefined;
}

/**
 * A role binding with its hydrated identity, group and role, as `reader` may see them:
 * the name, description, issuer and subject of an object the reader cannot read
 * (`identities.get`, `groups.get`, `roles.get` on a custom role's group) stay empty,
 * only its uid shows. A binding never discloses more than a Get of each object would.
 */
export function bindingOut(state: State, binding: RoleBindingRecord, reader: Access): JsonObject {
  const groupUid = kit.parentOf(binding.uid) ?? "";
  const identity = readableIdentity(state, binding, reader);
  const group = reader.can(capabilityFor("groups", "get"), groupUid)
    ? state.groups.get(groupUid)
    : undefined;
  const stored = state.roles.get(binding.roleUid);
  const role = stored && roleReadable(reader, stored) ? stored : undefined;
  return {
    uid: binding.uid,
    identity: {
      uid: binding.identityUid,
      name: identity?.name ?? "",
      description: identity?.description ?? "",
      // Exact claimMatch or staticKeys values; "" for patterns and other kinds (addendum 6.7).
      ...(identity ? bindingIssuerSubject(identity) : { issuer: "", subject: "" }),
    },
    group: { uid: groupUid, name: group?.name ?? "", description: group?.description ?? "" },
    role: { uid: binding.roleUid, name: role?.name ?? "", description: role?.description ?? "" },
    createTime: binding.createTime,
    updateTime: binding.updateTime,
  };
}

function requireIdentityUid(value: string, field = "identityUid"): string {
  if (!kit.GROUP_UID_PATTERN.test(value)) {
    throw invalidArgument(field, "must be an identity uid (hex segments separated by /)");
  }
  return value;
}

/** The binding a write would make: its group, identity and role. */
interface Target {
  ctx: kit.EmulatorContext;
  access: Access;
  groupUid: string;
  identityUid: string;
  roleUid: string;
  /** The binding being updated: values it already holds are not read again. */
  current?: RoleBindingRecord;
  /** Checked: uniqueness leaves this binding out. */
  except?: string;
}

/**
 * Step 4: the caller must be able to read each object the write newly names (a binding
 * answers with the identity's name, issuer and subject, and the role's name), checked
 * before existence so that an identity the caller cannot read answers
 * `PERMISSION_DENIED` whether it exists or not, and a custom role it cannot read answers
 * `NOT_FOUND` exactly as a missing one (role uids are flat).
 */
function targetReferences(target: Target): void {
  const { ctx, access, identityUid, roleUid, current } = target;
  if (identityUid !== current?.identityUid) {
    access.require(capabilityFor("identities", "get"), identityUid);
    if (!ctx.state.identities.has(identityUid)) throw notFound(identityUid);
  }
  if (roleUid !== current?.roleUid) readableRole(ctx.state, access, roleUid);
  else if (!ctx.state.roles.has(roleUid)) throw notFound(roleUid);
}

function targetRole(target: Target): RoleRecord {
  const role = target.ctx.state.roles.get(target.roleUid);
  if (!role) throw notFound(target.roleUid);
  return role;
}

function targetUnique(target: Target): void {
  const { ctx, groupUid, identityUid, roleUid, except } = target;
  const duplicate = ctx.state
    .bindingsOfIdentity(identityUid)
    .some(
      (binding) =>
        binding.uid !== except &&
        binding.roleUid === roleUid &&
        kit.parentOf(binding.uid) === groupUid,
    );
  if (duplicate) {
    throw alreadyExists(`a binding of ${identityUid} to ${roleUid} in ${groupUid}`);
  }
}

const steps = <W>(toTarget: (write: W) => Target) => ({
  references: (write: W) => targetReferences(toTarget(write)),
  roleUsable: (write: W) => {
    const target = toTarget(write);
    requireRoleUsableIn(targetRole(target), target.groupUid, "roleUid");
  },
  grants: (write: W) => {
    const target = toTarget(write);
    requireRoleGrantable(target.access, targetRole(target), target.groupUid);
  },
  unique: (write: W) => targetUnique(toTarget(write)),
});

export const roleBindings = writableCollection<
  RoleBindingRecord,
  { identityUid: string; roleUid: string }
>({
  name: "roleBindings",
  out: (ctx, binding, access) => bindingOut(ctx.state, binding, access),
  list: {
    // `ListRoleBindingsRequest`'s filters: the binding's identity, group and role, each
    // an exact uid (a group's descendants are not matched: the definitions do not say so).
    filters: ["identity", "group", "role"],
    // By the identity's name as the reader sees it: blank where the answer blanks it.
    sortName: (ctx, binding, reader) => readableIdentity(ctx.state, binding, reader)?.name ?? "",
    sortNameByReader: true,
    match: (_ctx, params) => {
      const { identity, group, role } = params.filters;
      if (!identity && !group && !role) return undefined;
      return (binding) =>
        (!identity || binding.identityUid === identity) &&
        (!group || kit.parentOf(binding.uid) === group) &&
        (!role || binding.roleUid === role);
    },
  },
  create: {
    parentHint: "the group uid belongs in the path",
    capabilities: [capabilityFor("roleBindings", "create")],
    body: (_ctx, body) => {
      const identityUid = optionalString(body, "identityUid");
      if (!identityUid) throw invalidArgument("identityUid", "is required");
      const roleUid = optionalString(body, "roleUid");
      if (!roleUid) throw invalidArgument("roleUid", "is required");
      return {
        identityUid: requireIdentityUid(identityUid),
        roleUid: kit.requireRoleUid(roleUid, "roleUid"),
      };
    },
    ...steps(({ ctx, access, parentUid, draft }) => ({
      ctx,
      access,
      groupUid: parentUid,
      ...draft,
    })),
    references: (write) => {
      targetReferences({
        ctx: write.ctx,
        access: write.access,
        groupUid: write.parentUid,
        ...write.draft,
      });
    },
    build: (ctx, draft, parentUid, now) => ({
      uid: kit.newChildUid(
        parentUid,
        (candidate) => ctx.state.roleBindings.has(candidate) || ctx.state.groups.has(candidate),
      ),
      identityUid: draft.identityUid,
      roleUid: draft.roleUid,
      createTime: now,
      updateTime: now,
    }),
    insert: (ctx, binding) => ctx.state.addBinding(binding),
  },
  update: {
    writable: ["identityUid", "roleUid"],
    fields: ["identityUid", "roleUid"],
    apply: (_ctx, current, body, paths) => {
      const next: RoleBindingRecord = { ...current };
      for (const path of paths) {
        const value = optionalString(body, path);
        if (!value) throw invalidArgument(path, "is required");
        if (path === "identityUid") next.identityUid = value;
        if (path === "roleUid") next.roleUid = value;
      }
      requireIdentityUid(next.identityUid);
      kit.requireRoleUid(next.roleUid, "roleUid");
      return next;
    },
    ...steps(({ ctx, access, current, next }) => ({
      ctx,
      access,
      groupUid: kit.parentOf(current.uid) ?? "",
      identityUid: next.identityUid,
      roleUid: next.roleUid,
      current,
      except: current.uid,
    })),
    store: (ctx, binding) => ctx.state.replaceBinding(binding),
  },
  delete: {
    // Deleting a missing binding succeeds (the platform declares the delete idempotent).
    load: (ctx, uid) => ctx.state.roleBindings.get(uid),
    remove: (ctx, binding) => ctx.state.deleteBinding(binding.uid),
  },
});

/** The most bindings one `:batchCreate` makes (the definitions: "a maximum of 25"). */
export const BATCH_CREATE_MAX = 25;

/**
 * `POST /iam/v2beta1/roleBindings:batchCreate`: bindings in one group, all or none (the
 * definitions: "Either all bindings are created or none are"). Every binding passes the
 * checks of a single create, in their order, before any is stored; the first failure
 * answers and nothing is made. A sub-request's `parent`, when set, must be the batch's,
 * and its `roleUid` the batch's `roleUid` when both are set (AIP-233).
 */
export const batchCreateRoleBindings: kit.CollectionHandler = async (
  ctx,
  request: ApiRequest,
  uid,
) => {
  if (request.method !== "POST" || uid !== undefined) throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  const body = bodyObject(request);
  const parent = optionalString(body, "parent");
  if (!parent) throw invalidArgument("parent", "is required: the group the bindings are made in");
  const groupUid = kit.requirePathUid(parent, "parent");
  access.require(capabilityFor("roleBindings", "create"), groupUid);
  const sharedRole = optionalString(body, "roleUid") ?? "";
  const requests = body.requests;
  if (!Array.isArray(requests) || requests.length === 0 || requests.length > BATCH_CREATE_MAX) {
    throw invalidArgument("requests", `must hold 1 to ${BATCH_CREATE_MAX} bindings`);
  }
  const drafts = requests.map((raw, index) => {
    const at = `requests[${index}]`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw invalidArgument(at, "must be an object");
    }
    const sub = raw as JsonObject;
    const subParent = optionalString(sub, "parent", `${at}.parent`);
    if (subParent && subParent !== groupUid) {
      throw invalidArgument(`${at}.parent`, "must be empty or the batch's parent");
    }
    const binding = optionalObject(sub, "roleBinding", `${at}.roleBinding`) ?? {};
    const identityUid = optionalString(binding, "identityUid", `${at}.roleBinding.identityUid`);
    if (!identityUid) throw invalidArgument(`${at}.roleBinding.identityUid`, "is required");
    const ownRole = optionalString(binding, "roleUid", `${at}.roleBinding.roleUid`) ?? "";
    if (ownRole !== "" && sharedRole !== "" && ownRole !== sharedRole) {
      throw invalidArgument(`${at}.roleBinding.roleUid`, "differs from the batch's roleUid");
    }
    const roleUid = ownRole || sharedRole;
    if (!roleUid) throw invalidArgument(`${at}.roleBinding.roleUid`, "is required");
    return {
      identityUid: requireIdentityUid(identityUid, `${at}.roleBinding.identityUid`),
      roleUid: kit.requireRoleUid(roleUid, `${at}.roleBinding.roleUid`),
    };
  });
  kit.existing(ctx.state.groups, groupUid);
  const seen = new Map<string, number>();
  drafts.forEach((draft, index) => {
    const target: Target = { ctx, access, groupUid, ...draft };
    targetReferences(target);
    requireRoleUsableIn(targetRole(target), groupUid, `requests[${index}].roleBinding.roleUid`);
    requireRoleGrantable(access, targetRole(target), groupUid);
    targetUnique(target);
    const key = `${draft.identityUid} ${draft.roleUid}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw invalidArgument(
        `requests[${index}]`,
        `binds the same identity and role as requests[${first}]`,
      );
    }
    seen.set(key, index);
  });
  const now = ctx.clock.isoNow();
  const made = drafts.map((draft) => {
    const binding: RoleBindingRecord = {
      uid: kit.newChildUid(
        groupUid,
        (candidate) => ctx.state.roleBindings.has(candidate) || ctx.state.groups.has(candidate),
      ),
      ...draft,
      createTime: now,
      updateTime: now,
    };
    ctx.state.addBinding(binding);
    return binding;
  });
  ctx.state.touch();
  return ok({ roleBindings: made.map((binding) => bindingOut(ctx.state, binding, access)) });
};
