/**
 * The SDK's capability names and role uids: `CAPABILITIES` is the platform enum's
 * value names (the contract suite compares it with the definitions), the former
 * project names map to them, and the two forms of role uid are told apart.
 */
import { describe, expect, it } from "vitest";
import {
  CAPABILITIES,
  capabilitiesInEnumNames,
  isBuiltInRoleUid,
  isCapability,
  legacyCapability,
  ROLE_UID_PATTERN,
  roleGroupUid,
} from "../../sdk";

const ROOT = "a".repeat(40);

describe("CAPABILITIES", () => {
  it("is the enum's value names, each once, with no GET value", () => {
    expect(CAPABILITIES).toHaveLength(216);
    expect(new Set(CAPABILITIES).size).toBe(CAPABILITIES.length);
    for (const name of CAPABILITIES) expect(name).toMatch(/^CAP_[A-Z0-9_]+$/);
    expect(CAPABILITIES).toContain("CAP_IAM_GROUPS_CREATE");
    expect(CAPABILITIES).toContain("CAP_IAM_SCIM_MANAGE");
    expect(CAPABILITIES).not.toContain("CAP_IAM_GROUPS_GET");
    expect(CAPABILITIES).not.toContain("CAP_IAM_GROUP_INVITES_UPDATE");
    expect(isCapability("CAP_REPO_LIST")).toBe(true);
    expect(isCapability("repos.list")).toBe(false);
  });
});

describe("former capability names", () => {
  const collections = {
    groups: "CAP_IAM_GROUPS",
    identities: "CAP_IAM_IDENTITY",
    roles: "CAP_IAM_ROLES",
    roleBindings: "CAP_IAM_ROLE_BINDINGS",
    identityProviders: "CAP_IAM_IDENTITY_PROVIDERS",
    accountAssociations: "CAP_IAM_ACCOUNT_ASSOCIATIONS",
    groupInvites: "CAP_IAM_GROUP_INVITES",
    repos: "CAP_REPO",
    tags: "CAP_TAG",
    advisories: "CAP_ADVISORIES",
  };

  it("each of the 49 maps to its enum value; a *.get to the LIST it needs", () => {
    let mapped = 0;
    for (const [collection, prefix] of Object.entries(collections)) {
      for (const verb of ["create", "update", "list", "delete"]) {
        if (collection === "groupInvites" && verb === "update") continue;
        expect(legacyCapability(`${collection}.${verb}`)).toEqual({
          kind: "renamed",
          replacement: `${prefix}_${verb.toUpperCase()}`,
        });
        expect(CAPABILITIES).toContain(`${prefix}_${verb.toUpperCase()}`);
        mapped++;
      }
      expect(legacyCapability(`${collection}.get`)).toEqual({
        kind: "get",
        list: `${prefix}_LIST`,
      });
      mapped++;
    }
    expect(mapped).toBe(49);
    expect(legacyCapability("groupInvites.update")).toBeUndefined();
    // Display names of the enum are not former names of this project.
    expect(legacyCapability("role_bindings.create")).toBeUndefined();
    expect(legacyCapability("CAP_REPO_LIST")).toBeUndefined();
    expect(legacyCapability("toString.list")).toBeUndefined();
  });

  it("a set in former names reads as the same set in enum names", () => {
    expect(
      capabilitiesInEnumNames(["repos.list", "repos.get", "groups.create", "CAP_REPO_LIST"]),
    ).toEqual(["CAP_IAM_GROUPS_CREATE", "CAP_REPO_LIST"]);
    expect(capabilitiesInEnumNames(["not.a.name"])).toEqual(["not.a.name"]);
  });
});

describe("role uids", () => {
  it("a built-in role is flat; a custom role is a child of its group", () => {
    const builtIn = "b".repeat(40);
    const custom = `${ROOT}/0123456789abcdef/fedcba9876543210`;
    expect(isBuiltInRoleUid(builtIn)).toBe(true);
    expect(roleGroupUid(builtIn)).toBeUndefined();
    expect(isBuiltInRoleUid(custom)).toBe(false);
    expect(roleGroupUid(custom)).toBe(`${ROOT}/0123456789abcdef`);
    expect(ROLE_UID_PATTERN.test(builtIn)).toBe(true);
    expect(ROLE_UID_PATTERN.test(custom)).toBe(true);
    expect(ROLE_UID_PATTERN.test("viewer")).toBe(false);
    expect(ROLE_UID_PATTERN.test(`${ROOT}/0123`)).toBe(false);
  });
});
