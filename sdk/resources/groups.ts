/**
 * `/iam/v2beta1/groups`: the organisation hierarchy, its types and the one reader of
 * its shape (required fields and their types; see `core/shape.ts`).
 */
import { WritableCollection } from "../core/collection";
import type { RequestOptions, Timestamp } from "../core/common-types";
import type { ApiRequester } from "../core/resource";
import { int64Field, ShapeReader } from "../core/shape";
import { FLAT_UID_PATTERN } from "../uids";

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
  /** Must match `^[a-z0-9 ._-]{1,}$`, 3 to 63 characters. */
  name: string;
  description?: string;
}

export type GroupUpdate = Partial<Pick<Group, "name" | "description">>;

/** Update-mask paths of a group (proto field names). */
export type GroupMaskPath = "name" | "description" | "*";

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

  /**
   * Creates a root organisation (`CreateGroup` with an empty parent); the service makes
   * the caller its owner, and a token exchanged next works there. An answer that is not
   * a root group is an `OutcomeUnknownError`: the create may have happened.
   */
  async createOrganization(fields: GroupCreate, options?: RequestOptions): Promise<Group> {
    return this.createAt("/iam/v2beta1/groups", fields, options, (item) =>
      FLAT_UID_PATTERN.test(item.uid) ? undefined : `${item.uid} is not a root organisation's uid`,
    );
  }
}
