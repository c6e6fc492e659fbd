/**
 * Every layer names the same declared kinds (the IAM kinds, and the registry's repos):
 * the emulator's collections, the SDK's client,
 * the provider's resources, the policy pack's types and the exporter's declarers each
 * read one list of their own, and a kind added to one list and not another fails here.
 * Collections are named as the API's paths name them (`roleBindings`), resources by
 * their type (`RoleBinding`); one rule maps the first to the second.
 */
import { describe, expect, it } from "vitest";
import { KIND_NAMES as EMULATOR_KINDS, IAM_KINDS } from "../../emulator/kinds";
import { KIND_NAMES as EXPORTER_KINDS } from "../../exporter/kinds";
import { POLICY_RESOURCE_TYPES } from "../../policy/resource-types";
import { PROVIDER_RESOURCE_TYPES } from "../../provider/kinds";
import { COLLECTIONS, IAM_COLLECTIONS } from "../../sdk/collections";

/** `roleBindings` → `RoleBinding`, `identities` → `Identity`. */
function typeOfCollection(collection: string): string {
  const singular = collection.endsWith("ies")
    ? `${collection.slice(0, -3)}y`
    : collection.replace(/s$/, "");
  return singular[0].toUpperCase() + singular.slice(1);
}

const sorted = (names: readonly string[]) => [...names].sort();

/**
 * The collections beyond IAM a program declares: the registry's repos (tags are the
 * images' business) and the event subscriptions.
 */
const DECLARED_REGISTRY = ["repos", "subscriptions"] as const;

describe("the declared kinds of every layer", () => {
  it("maps collection names to type names", () => {
    expect(
      ["groups", "identities", "roleBindings", "identityProviders"].map(typeOfCollection),
    ).toEqual(["Group", "Identity", "RoleBinding", "IdentityProvider"]);
  });

  it("finds the declared collections beyond IAM in the emulator and the SDK", () => {
    for (const name of DECLARED_REGISTRY) expect(EMULATOR_KINDS).toContain(name);
    expect(Object.keys(COLLECTIONS.registry)).toContain("repos");
    expect(Object.keys(COLLECTIONS.events)).toContain("subscriptions");
  });

  it("has as many kinds in every list, each once", () => {
    const lists = {
      emulator: [...IAM_KINDS, ...DECLARED_REGISTRY],
      sdk: [...IAM_COLLECTIONS, ...DECLARED_REGISTRY],
      provider: PROVIDER_RESOURCE_TYPES,
      policy: POLICY_RESOURCE_TYPES,
      exporter: EXPORTER_KINDS,
    };
    for (const [layer, names] of Object.entries(lists)) {
      expect(new Set(names).size, `${layer} names a kind twice`).toBe(names.length);
      expect(names.length, layer).toBeGreaterThanOrEqual(7);
    }
  });

  it("names the same kinds in the emulator, the SDK, the provider, the pack and the exporter", () => {
    const emulator = sorted([...IAM_KINDS, ...DECLARED_REGISTRY].map(typeOfCollection));
    expect(
      sorted([...IAM_COLLECTIONS, ...DECLARED_REGISTRY].map(typeOfCollection)),
      "SDK client",
    ).toEqual(emulator);
    expect(sorted(PROVIDER_RESOURCE_TYPES), "provider resources").toEqual(emulator);
    expect(sorted(POLICY_RESOURCE_TYPES), "policy pack types").toEqual(emulator);
    // Every kind is exported, the registry's repos (each README one GET) and subscriptions too.
    expect(sorted(EXPORTER_KINDS), "exporter declarers").toEqual(emulator);
  });
});
