/** IAM collections: groups, identities, roles, role bindings. */
import { WritableCollection } from "../core/collection";
import type { ApiRequester } from "../core/resource";
import { int64 } from "../core/resource";
import type {
  Group,
  GroupCreate,
  GroupMaskPath,
  GroupUpdate,
  Identity,
  IdentityCreate,
  IdentityMaskPath,
  IdentityUpdate,
  Role,
  RoleBinding,
  RoleBindingCreate,
  RoleBindingMaskPath,
  RoleBindingUpdate,
  RoleCreate,
  RoleMaskPath,
  RoleUpdate,
} from "../types";

/** Resource limits are counters: int64 strings on the wire, numbers here. */
export function decodeGroup(raw: Record<string, unknown>): Group {
  const resourceLimits: Record<string, number> = {};
  const limits = raw.resourceLimits;
  if (typeof limits === "object" && limits !== null) {
    for (const [key, value] of Object.entries(limits)) resourceLimits[key] = int64(value);
  }
  return { ...(raw as unknown as Group), resourceLimits };
}

function passThrough<T>(raw: Record<string, unknown>): T {
  return raw as unknown as T;
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

/** `/iam/v2beta1/identities`: principals assumed by matching OIDC claims. */
export class Identities extends WritableCollection<
  Identity,
  IdentityCreate,
  IdentityUpdate,
  IdentityMaskPath
> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/iam/v2beta1/identities",
      listKey: "identities",
      noun: "identity",
      decode: passThrough<Identity>,
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
      decode: passThrough<Role>,
    });
  }
}

/** `/iam/v2beta1/roleBindings`: an identity holds a role in a group. */
export class RoleBindings extends WritableCollection<
  RoleBinding,
  RoleBindingCreate,
  RoleBindingUpdate,
  RoleBindingMaskPath
> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/iam/v2beta1/roleBindings",
      listKey: "roleBindings",
      noun: "role binding",
      decode: passThrough<RoleBinding>,
    });
  }
}
