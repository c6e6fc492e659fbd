/**
 * The collections `IrmClient` offers, one line each, grouped by API: the client
 * makes `client.<api>.<name>` an instance of the class named here. A new collection
 * is its module under `resources/` plus one line below.
 */
import type { ApiRequester } from "./core/resource";
import { AccountAssociations } from "./resources/account-associations";
import { ExternalGroupRoleMappings } from "./resources/external-group-role-mappings";
import { GroupInvites } from "./resources/group-invites";
import { Groups } from "./resources/groups";
import { Identities } from "./resources/identities";
import { IdentityProviders } from "./resources/identity-providers";
import { Advisories, Repos, Tags } from "./resources/registry";
import { RoleBindings } from "./resources/role-bindings";
import { Roles } from "./resources/roles";
import { Subscriptions } from "./resources/subscriptions";
import { V1Groups, V1Repos, V1Tags } from "./resources/v1";

/** A collection's class: made with the requester its calls go through. */
type CollectionClass = new (client: ApiRequester) => object;

export const COLLECTIONS = {
  iam: {
    groups: Groups,
    identities: Identities,
    roles: Roles,
    roleBindings: RoleBindings,
    identityProviders: IdentityProviders,
    groupInvites: GroupInvites,
    accountAssociations: AccountAssociations,
    externalGroupRoleMappings: ExternalGroupRoleMappings,
  },
  registry: {
    repos: Repos,
    tags: Tags,
  },
  vulnerabilities: {
    advisories: Advisories,
  },
  events: {
    subscriptions: Subscriptions,
  },
  v1: {
    groups: V1Groups,
    repos: V1Repos,
    tags: V1Tags,
  },
} as const satisfies Record<string, Record<string, CollectionClass>>;

/** The APIs of the client (`iam`, `registry`, ...). */
export type Api = keyof typeof COLLECTIONS;

/** The collection objects of one API, by name: `ApiCollections<"iam">["groups"]` is `Groups`. */
export type ApiCollections<A extends Api> = {
  -readonly [Name in keyof (typeof COLLECTIONS)[A]]: InstanceOf<(typeof COLLECTIONS)[A][Name]>;
};

type InstanceOf<C> = C extends new (client: ApiRequester) => infer Collection ? Collection : never;

/** A collection of the IAM v2beta1 API, by the name the client gives it (`roleBindings`). */
export type IamCollection = keyof typeof COLLECTIONS.iam;

/** The IAM v2beta1 collections, in the order of `COLLECTIONS.iam`. */
export const IAM_COLLECTIONS: readonly IamCollection[] = Object.freeze(
  Object.keys(COLLECTIONS.iam) as IamCollection[],
);

/** One object per collection of `api`, each sending its calls through `client`. */
export function collectionsOf<A extends Api>(api: A, client: ApiRequester): ApiCollections<A> {
  const classes: Record<string, CollectionClass> = COLLECTIONS[api];
  return Object.fromEntries(
    Object.entries(classes).map(([name, Collection]) => [name, new Collection(client)]),
  ) as ApiCollections<A>;
}
