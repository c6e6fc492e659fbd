/**
 * `/iam/v2beta1/roles`: built-in and custom roles, their types and the one reader of
 * their shape.
 */
import type { CapabilityName } from "../capabilities";
import { WritableCollection } from "../core/collection";
import type { Timestamp } from "../core/common-types";
import type { ApiRequester } from "../core/resource";
import { ShapeError, ShapeReader } from "../core/shape";
import { ROLE_UID_PATTERN, ROLE_UID_SHAPE } from "../uids";
import { capabilityNames } from "./decode";

/**
 * A role: built-in (`owner`, `editor`, `viewer`, `registry.pull`; a flat uid of 40 hex)
 * or a custom role of a group (uid `<group uid>/<16 hex>`). `isBuiltInRoleUid` and
 * `parentOf` (`sdk/uids.ts`) tell them apart.
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

export function decodeRole(raw: unknown, at = "role"): Role {
  const r = ShapeReader.of(raw, at);
  const uid = r.string("uid");
  if (!ROLE_UID_PATTERN.test(uid)) {
    throw new ShapeError(`${at}.uid`, `not ${ROLE_UID_SHAPE}`);
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
