/**
 * `sdk/capabilities.ts` names each collection's capabilities and the project's former
 * names once; the emulator's checks of who may do what and its migration of old `--data`
 * files read the same table.
 */
import { describe, expect, it } from "vitest";
import { KIND_NAMES } from "../../emulator/kinds";
import { migrateSavedState } from "../../emulator/migrate";
import type { SavedState } from "../../emulator/state";
import {
  CAPABILITY_PREFIXES,
  capabilityFor,
  isCapability,
  legacyCapability,
} from "../../sdk/capabilities";

/** A saved state of one custom role holding `capabilities`, nothing else. */
function savedWith(capabilities: string[]): SavedState {
  return {
    roles: [{ uid: "f".repeat(40), name: "old", description: "", capabilities }],
    roleBindings: [],
    repos: [],
    advisories: [],
  } as unknown as SavedState;
}

describe("each collection's capabilities", () => {
  it("every collection of the emulator has its line, and its LIST value is a capability", () => {
    expect([...KIND_NAMES].sort()).toEqual(Object.keys(CAPABILITY_PREFIXES).sort());
    for (const name of KIND_NAMES)
      expect(isCapability(capabilityFor(name, "list")), name).toBe(true);
  });

  it("a verb the API checks with another capability says so", () => {
    expect(capabilityFor("roleBindings", "get")).toBe("CAP_IAM_ROLE_BINDINGS_LIST");
    expect(capabilityFor("externalGroupRoleMappings", "create")).toBe(
      "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
    );
  });
});

describe("the former <collection>.<verb> names", () => {
  it("are known for the collections that had them", () => {
    expect(legacyCapability("roleBindings.delete")).toEqual({
      kind: "renamed",
      replacement: "CAP_IAM_ROLE_BINDINGS_DELETE",
    });
    expect(legacyCapability("repos.get")).toEqual({ kind: "get", list: "CAP_REPO_LIST" });
    expect(legacyCapability("groupInvites.update")).toBeUndefined();
  });

  it("never existed for the collections added after the enum names", () => {
    expect(legacyCapability("subscriptions.create")).toBeUndefined();
    expect(legacyCapability("externalGroupRoleMappings.delete")).toBeUndefined();
  });

  it("are what the emulator migrates in an old --data file, and nothing else", () => {
    const migrated = migrateSavedState(
      "old.json",
      savedWith(["groups.get", "roleBindings.create"]),
    );
    expect(migrated.roles[0]?.capabilities).toEqual([
      "CAP_IAM_GROUPS_LIST",
      "CAP_IAM_ROLE_BINDINGS_CREATE",
    ]);
    expect(() => migrateSavedState("old.json", savedWith(["subscriptions.create"]))).toThrow(
      'holds the unknown capability "subscriptions.create"',
    );
  });
});
