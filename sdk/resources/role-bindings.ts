/**
 * `/iam/v2beta1/roleBindings`: an identity holds a role in a group. Its types and the
 * one reader of its shape.
 */
import { uidParent, WritableCollection } from "../core/collection";
import type { PageParams, RequestOptions, Timestamp, UidpFilter } from "../core/common-types";
import { type ApiRequester, listQuery, type QueryValue } from "../core/resource";
import { ShapeError, ShapeReader } from "../core/shape";

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
  r.copyTimestamps(binding, "updateTime");
  return binding;
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
