/**
 * Type tokens of the provider's dynamic resources, made from the provider's one list
 * of resource types (`provider/kinds.ts`), so the pack can never drift from what the
 * provider registers. Reading the list loads the handlers' modules and
 * `@pulumi/pulumi`, not the provider's runtime: the pack still needs no IRM
 * credentials and makes no request.
 */
import { PROVIDER_KINDS, type ProviderKind } from "../provider/kinds";
import { typeToken } from "../provider/resource-class";

/** The resource type names the pack judges (`Group`, `Identity`, ...): the provider's. */
export const POLICY_RESOURCE_TYPES: readonly ProviderKind["type"][] = PROVIDER_KINDS.map(
  (kind) => kind.type,
);

/** `RoleBinding` -> `roleBinding`. */
const keyOf = (type: string) => `${type[0].toLowerCase()}${type.slice(1)}`;

/**
 * Type tokens of the provider's dynamic resources (`pulumi-nodejs:dynamic/irm:<Type>`),
 * each under its type's name with a lowercase first letter (`IRM_TYPES.roleBinding`).
 */
export const IRM_TYPES = Object.freeze(
  Object.fromEntries(PROVIDER_KINDS.map((kind) => [keyOf(kind.type), typeToken(kind.type)])),
) as { readonly [K in ProviderKind["type"] as Uncapitalize<K>]: string };

const ALL_TYPES: ReadonlySet<string> = new Set(Object.values(IRM_TYPES));

/** True for a resource of this package; every other resource of a stack is ignored. */
export function isIrmType(type: string): boolean {
  return ALL_TYPES.has(type);
}
