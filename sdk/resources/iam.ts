/**
 * IAM collections: groups, roles, role bindings, each with its types and the one
 * reader of its shape (required fields and their types; see `core/shape.ts`). Identities,
 * identity providers, group invites and account associations have files of
 * their own.
 */

import type { CapabilityName } from "../capabilities";
import { uidParent, WritableCollection } from "../core/collection";
import type { PageParams, RequestOptions, Timestamp, UidpFilter } from "../core/common-types";
import { type ApiRequester, listQuery, type QueryValue } from "../core/resource";
import { int64Field, ShapeError, ShapeReader } from "../core/shape";
import { capabilityNames, ROLE_UID } from "./decode";

export interface Group {
  uid: string;
  name: string;
  description: string;
  /** May be empty; v1 output holds integer members `clusters`, `idps`, `repositories`. */
  resourceLimits: Record<string, number>;
  /** False on newly created groups. */
  verified: boolean;
  createTime: Timestamp;
  updateTime: Timestamp;
}

export interface GroupCreate {
  /** Must match `^[a-z0-9 ._-]{1,}$`. */
  name: string;
  description?: string;
}

export type GroupUpdate = Partial<Pick<Group, "name" | "description">>;

/** Update-mask paths of a group (proto field names). */
export type GroupMaskPath = "name" | "description" | "*";

/**
 * A role: built-in (`owner`, `editor`, `viewer`, `registry.pull`; a flat uid of 40 hex)
 * or a custom role of a group (uid `<group uid>/<16 hex>`). `isBuiltInRoleUid` and
 * `roleGroupUid` tell them apart.
 */
export interface Role {
  uid: string;
  name: string;
  description: string;
  /** Enum value names, e.g. `CAP_IAM_GROUPS_CREATE`; a set (the order is not stated). */
  capabilities: CapabilityName[];
  createTime: Timestamp;
  updateTime: Timestamp;
}

/**
 * A custom role of a group, usable in that group and the groups below it. The
 * name may not be a built-in role's (`owner`, `editor`, `viewer`,
 * `registry.pull`); at least one capability is required, and only capabilities
 * the caller holds on the group may be given.
 */
export interface RoleCreate {
  name: string;
  description?: string;
  /** At least one; a set (repeats are dropped). */
  capabilities: readonly CapabilityName[];
}

/** An update may not leave `capabilities` empty. */
export interface RoleUpdate {
  name?: string;
  description?: string;
  capabilities?: readonly CapabilityName[];
}

/** Update-mask paths of a role (proto field names). */
export type RoleMaskPath = "name" | "description" | "capabilities" | "*";

/** The identity as hydrated inside a role binding. */
export interface RoleBindingIdentity {
  uid: string;
  name: string;
  description: string;
  /** The exact `claimMatch.subject` or `staticKeys.subject`; `""` for a pattern and the other kinds. */
  subject: string;
  /** The exact `claimMatch.issuer` or `staticKeys.issuer`; `""` for a pattern and the other kinds. */
  issuer: string;
}

/** A group or role as hydrated inside a role binding. */
export interface RoleBindingRef {
  uid: string;
  name: string;
  description: string;
}

export interface RoleBinding {
  uid: string;
  identity: RoleBindingIdentity;
  group: RoleBindingRef;
  role: RoleBindingRef;
  createTime: Timestamp;
  updateTime?: Timestamp;
}

export interface RoleBindingCreate {
  identityUid: string;
  roleUid: string;
}

export type RoleBindingUpdate = Partial<RoleBindingCreate>;

/** Update-mask paths of a role binding (proto field names). */
export type RoleBindingMaskPath = "identity_uid" | "role_uid" | "*";

/** `ListRoleBindingsRequest`'s filters: the `uidp` filter and these (no `name`). */
export interface RoleBindingListParams extends UidpFilter, PageParams {
  /** `identity`: only bindings of this identity (by uid). */
  identity?: string;
  /** `group`: only bindings in this group (by uid). */
  group?: string;
  /** `role`: only bindings of this role (by uid). */
  role?: string;
}

/** Resource limits are counters: int64 strings on the wire, numbers here. */
export function decodeGroup(raw: unknown, at = "group"): Group {
  const r = ShapeReader.of(raw, at);
  const limits = r.optionalObject("resourceLimits");
  // Own members, whatever the key: `limits["__proto__"] = ...` would set a prototype.
  const resourceLimits: Record<string, number> = Object.fromEntries(
    Object.entries(limits.raw).map(([key, value]) => [
      key,
      int64Field(value, `${limits.at}.${key}`),
    ]),
  );
  return {
    uid: r.string("uid"),
    name: r.string("name"),
    description: r.optionalString("description", ""),
    resourceLimits,
    verified: r.optionalBoolean("verified", false),
    createTime: r.timestamp("createTime"),
    updateTime: r.timestamp("updateTime"),
  };
}

export function decodeRole(raw: unknown, at = "role"): Role {
  const r = ShapeReader.of(raw, at);
  const uid = r.string("uid");
  if (!ROLE_UID.test(uid)) {
    throw new ShapeError(`${at}.uid`, "not a role uid (40 hex, or <group uid>/<16 hex>)");
  }
  return {
    uid,
    name: r.string("name"),
    description: r.optionalString("description", ""),
    capabilities: capabilityNames(r, "capabilities"),
    createTime: r.timestamp("createTime"),
    updateTime: r.timestamp("updateTime"),
  };
}

function decodeRef(r: ShapeReader): RoleBindingRef {
  return {
    uid: r.string("uid"),
    name: r.optionalString("name", ""),
    description: r.optionalString("description", ""),
  };
}

export function decodeRoleBinding(raw: unknown, at = "roleBinding"): RoleBinding {
  const r = ShapeReader.of(raw, at);
  const identity = r.object("identity");
  const binding: RoleBinding = {
    uid: r.string("uid"),
    identity: {
      ...decodeRef(identity),
      subject: identity.optionalString("subject", ""),
      issuer: identity.optionalString("issuer", ""),
    } satisfies RoleBindingIdentity,
    group: decodeRef(r.object("group")),
    role: decodeRef(r.object("role")),
    createTime: r.timestamp("createTime"),
  };
  if (uidParent(binding.uid) !== binding.group.uid) {
    throw new ShapeError(
      `${at}.group.uid`,
      `${binding.group.uid} is not the group of ${binding.uid}`,
    );
  }
  const updateTime = r.optionalTimestamp("updateTime");
  if (updateTime !== undefined) binding.updateTime = updateTime;
  return binding;
}

/** `/iam/v2beta1/groups`: the organisation hierarchy. Delete fails with `ResourceNotEmptyError` while children exist. */
export class Groups extends WritableCollection<Group, GroupCreate, GroupUpdate, GroupMaskPath> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/iam/v2beta1/groups",
      listKey: "groups",
      noun: "group",
      decode: decodeGroup,
    });
  }
}

/** `/iam/v2beta1/roles`: built-in roles (flat uids) and custom roles of a group. */
export class Roles extends WritableCollection<Role, RoleCreate, RoleUpdate, RoleMaskPath> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/iam/v2beta1/roles",
      listKey: "roles",
      noun: "role",
      // A custom role is a child of its group; a built-in role is root-level.
      decode: decodeRole,
    });
  }
}

/** `/iam/v2beta1/roleBindings`: an identity holds a role in a group. */
export class RoleBindings extends WritableCollection<
  RoleBinding,
  RoleBindingCreate,
  RoleBindingUpdate,
  RoleBindingMaskPath,
  RoleBindingListParams
> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/iam/v2beta1/roleBindings",
      listKey: "roleBindings",
      noun: "roleBinding",
      decode: decodeRoleBinding,
    });
  }

  /**
   * Deletes the binding; deleting one that does not exist (or no longer does) also
   * resolves, as the API declares this delete idempotent. A NOT_FOUND answering this
   * very uid (from a service that still sends one) counts as done.
   */
  override async delete(uid: string, options?: RequestOptions): Promise<void> {
    try {
      await super.delete(uid, options);
    } catch (error) {
      if (!this.isGone(error, uid)) throw error;
    }
  }

  protected override listQueryOf(params: RoleBindingListParams): Record<string, QueryValue> {
    return {
      ...listQuery(params),
      // The request has no `name`: never sent, even from untyped code.
      name: undefined,
      identity: params.identity,
      group: params.group,
      role: params.role,
    };
  }

  /** `identity` and `role` match exactly; `group` may also match bindings of groups below it (not stated). */
  protected override filterMismatch(item: RoleBinding, params: RoleBindingListParams) {
    if (params.identity && item.identity.uid !== params.identity) {
      return {
        field: "identity.uid",
        problem: `is not ${params.identity}, the identity filtered on`,
      };
    }
    if (params.role && item.role.uid !== params.role) {
      return { field: "role.uid", problem: `is not ${params.role}, the role filtered on` };
    }
    const group = params.group;
    if (group && item.group.uid !== group && !item.group.uid.startsWith(`${group}/`)) {
      return { field: "group.uid", problem: `is not ${group} or below it, the group filtered on` };
    }
    return undefined;
  }
}
