/**
 * The capabilities of this API, `<collection>.<verb>`: the one list of the collections
 * and verbs they are named after. The SDK sends capabilities as given (the service
 * judges them); the provider's `check` refuses any other name before a request.
 */

/** The collections capabilities are named after. */
export const CAPABILITY_COLLECTIONS = [
  "groups",
  "identities",
  "roles",
  "roleBindings",
  "identityProviders",
  "accountAssociations",
  "groupInvites",
  "repos",
  "tags",
  "advisories",
] as const;

/** The verbs of every collection. */
export const CAPABILITY_VERBS = ["list", "get", "create", "update", "delete"] as const;

/** The 49 capabilities: every collection and verb, less `groupInvites.update` (invites never change). */
export type Capability = Exclude<
  `${(typeof CAPABILITY_COLLECTIONS)[number]}.${(typeof CAPABILITY_VERBS)[number]}`,
  "groupInvites.update"
>;

/** The 49 capabilities, in collection then verb order. */
export const CAPABILITIES: readonly Capability[] = CAPABILITY_COLLECTIONS.flatMap((collection) =>
  CAPABILITY_VERBS.map((verb) => `${collection}.${verb}` as const),
).filter((capability): capability is Capability => capability !== "groupInvites.update");
