/**
 * `/iam/v2beta1/roleBindings`: an identity holds a role in a group. Its types and the
 * one reader of its shape.
 */
import { unknownOutcome, WritableCollection } from "../core/collection";
import type { PageParams, RequestOptions, Timestamp, UidpFilter } from "../core/common-types";
import { resourcePath } from "../core/path";
import { type ApiRequester, listQuery, type QueryValue } from "../core/resource";
import { ShapeError, ShapeReader } from "../core/shape";
import { parentOf } from "../uids";

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
  if (parentOf(binding.uid) !== binding.group.uid) {
    throw new ShapeError(
      `${at}.group.uid`,
      `${binding.group.uid} is not the group of ${binding.uid}`,
    );
  }
  r.copyTimestamps(binding, "updateTime");
  return binding;
}

/** The most bindings one `batchCreate` makes (the definitions: a maximum of 25). */
export const BATCH_CREATE_MAX_BINDINGS = 25;

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

  /**
   * Creates up to 25 bindings in `groupUid` in one request, all or none: the service
   * makes every one or, on the first refusal, none. Answers them in the order given; an
   * answer that is not exactly those bindings in that group is an `OutcomeUnknownError`
   * (they may have been made: list the group's bindings before trying again).
   */
  async batchCreate(
    groupUid: string,
    bindings: readonly RoleBindingCreate[],
    options?: RequestOptions,
  ): Promise<RoleBinding[]> {
    resourcePath(this.spec.path, groupUid, "groupUid");
    if (
      !Array.isArray(bindings) ||
      bindings.length === 0 ||
      bindings.length > BATCH_CREATE_MAX_BINDINGS
    ) {
      throw new TypeError(`bindings must hold 1 to ${BATCH_CREATE_MAX_BINDINGS} role bindings`);
    }
    bindings.forEach((binding, index) => {
      for (const field of ["identityUid", "roleUid"] as const) {
        if (typeof binding?.[field] !== "string" || binding[field] === "") {
          throw new TypeError(`bindings[${index}].${field} must be a non-empty string`);
        }
      }
    });
    const path = `${this.spec.path}:batchCreate`;
    const body = await this.client.call({
      method: "POST",
      path,
      body: {
        parent: groupUid,
        requests: bindings.map((b) => ({
          roleBinding: { identityUid: b.identityUid, roleUid: b.roleUid },
        })),
      },
      options,
    });
    try {
      const r = ShapeReader.of(body, "batchCreate");
      const raw = r.raw.roleBindings;
      if (!Array.isArray(raw) || raw.length !== bindings.length) {
        throw new ShapeError(
          "batchCreate.roleBindings",
          `expected ${bindings.length} bindings, one per binding asked for`,
        );
      }
      return raw.map((item: unknown, index: number) => {
        const at = `batchCreate.roleBindings[${index}]`;
        const made = decodeRoleBinding(item, at);
        const asked = bindings[index];
        if (
          made.group.uid !== groupUid ||
          made.identity.uid !== asked.identityUid ||
          made.role.uid !== asked.roleUid
        ) {
          throw new ShapeError(at, "is not the binding asked for at this place");
        }
        return made;
      });
    } catch (error) {
      throw unknownOutcome(
        error,
        { method: "POST", path },
        "the bindings may or may not have been made. Not retried: list the group's bindings before trying again.",
      );
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
