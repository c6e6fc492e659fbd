/**
 * The kinds of object an export reads, in the order the generated program declares
 * them: the one list the exporter's reading, request floor, counts, plan, checks,
 * rendering and `irm-pending` follow. A new kind is one line here and its declarer
 * (its module in declarers/ and its line in declarers/index.ts); the compiler then
 * asks for its rendering, check and pending lookup.
 */
import type { ExportedProgram } from "./declarations";
import type { LiveOrganisation } from "./live";

/** What the exporter knows of one kind. */
export interface KindFacts {
  /** The resource type (`irm.<type>`), as every layer of the package names it. */
  readonly type: string;
  /** The API's collection: the listing an export sends and the key of its request count. */
  readonly collection: string;
  /** The member of `LiveOrganisation` holding what was read. */
  readonly live: keyof LiveOrganisation;
  /**
   * The member of `ExportedProgram` holding the declarations and the key of
   * `ExportResult.counts`; none for a kind read only to be counted and skipped.
   */
  readonly declared?: { readonly program: keyof ExportedProgram; readonly count: string };
  /** Words of a count: `1 group`, `2 groups`. */
  readonly one: string;
  readonly many: string;
}

export const KINDS = [
  {
    type: "Group",
    collection: "groups",
    live: "groups",
    declared: { program: "groups", count: "groups" },
    one: "group",
    many: "groups",
  },
  {
    type: "Role",
    collection: "roles",
    live: "roles",
    declared: { program: "roles", count: "customRoles" },
    one: "custom role",
    many: "custom roles",
  },
  {
    type: "Identity",
    collection: "identities",
    live: "identities",
    declared: { program: "identities", count: "identities" },
    one: "identity",
    many: "identities",
  },
  {
    type: "IdentityProvider",
    collection: "identityProviders",
    live: "identityProviders",
    declared: { program: "identityProviders", count: "identityProviders" },
    one: "identity provider",
    many: "identity providers",
  },
  {
    type: "ExternalGroupRoleMapping",
    collection: "externalGroupRoleMappings",
    live: "externalGroupRoleMappings",
    declared: { program: "externalGroupRoleMappings", count: "externalGroupRoleMappings" },
    one: "external group role mapping",
    many: "external group role mappings",
  },
  {
    type: "AccountAssociation",
    collection: "accountAssociations",
    live: "accountAssociations",
    declared: { program: "accountAssociations", count: "accountAssociations" },
    one: "account association",
    many: "account associations",
  },
  {
    type: "RoleBinding",
    collection: "roleBindings",
    live: "bindings",
    declared: { program: "bindings", count: "roleBindings" },
    one: "role binding",
    many: "role bindings",
  },
  {
    type: "Repo",
    collection: "repos",
    live: "repos",
    declared: { program: "repos", count: "repos" },
    one: "repo",
    many: "repos",
  },
  {
    type: "Subscription",
    collection: "subscriptions",
    live: "subscriptions",
    declared: { program: "subscriptions", count: "subscriptions" },
    one: "event subscription",
    many: "event subscriptions",
  },
  // Read and counted, never declared: an invite's code cannot be read back.
  {
    type: "GroupInvite",
    collection: "groupInvites",
    live: "groupInvites",
    one: "group invite",
    many: "group invites",
  },
] as const satisfies readonly KindFacts[];

export type Kind = (typeof KINDS)[number];
/** A resource type name: `Group`, `Identity`, ... */
export type KindName = Kind["type"];
/** The kinds the program declares. */
export type DeclaredKind = Extract<Kind, { declared: object }>;
export type DeclaredKindName = DeclaredKind["type"];
/** A collection an export lists. */
export type Collection = Kind["collection"];

/** The resource type names, in declaration order (for comparing with the other layers'). */
export const KIND_NAMES: readonly KindName[] = KINDS.map((kind) => kind.type);

/** The kinds the program declares, in declaration order. */
export const DECLARED_KINDS: readonly DeclaredKind[] = KINDS.filter(
  (kind): kind is DeclaredKind => "declared" in kind,
);

/** A declaration of one declared kind (`GroupDeclaration`, ...). */
export type Declaration<K extends DeclaredKind> = ExportedProgram[K["declared"]["program"]][number];

/** How many objects of each declared kind a program declares (`ExportResult.counts`). */
export type DeclaredCounts = { [K in DeclaredKind as K["declared"]["count"]]: number };

/** `1 group`, `2 groups`. */
export function countOf(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function declaredCounts(program: ExportedProgram): DeclaredCounts {
  return Object.fromEntries(
    DECLARED_KINDS.map((kind) => [kind.declared.count, program[kind.declared.program].length]),
  ) as DeclaredCounts;
}

/** `4 groups, 1 custom role, ...`, in declaration order: the README's and the plan's words. */
export function describeCounts(counts: DeclaredCounts): string {
  return DECLARED_KINDS.map((kind) =>
    countOf(counts[kind.declared.count], kind.one, kind.many),
  ).join(", ");
}
