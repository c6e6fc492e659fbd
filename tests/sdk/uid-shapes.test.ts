/**
 * `sdk/uids.ts`: the one home of the uid patterns, the shape texts of failures and
 * `parentOf`, and the places that read them (the provider's checks, the lookups, the
 * emulator's store, the SDK's decoders) giving one answer for a flat uid.
 */
import { describe, expect, it } from "vitest";
import { IndexedCollection } from "../../emulator/indexed-collection";
import * as checks from "../../provider/checks";
import { parentOf as publicParentOf, roleGroupUid } from "../../sdk/index";
import { decodeExternalGroupRoleMapping } from "../../sdk/resources/external-group-role-mappings";
import {
  CHILD_UID_PATTERN,
  FLAT_UID_PATTERN,
  GROUP_UID_PATTERN,
  isBuiltInRoleUid,
  parentOf,
  ROLE_UID_PATTERN,
  ROLE_UID_SHAPE,
} from "../../sdk/uids";

const ROOT = "0123456789abcdef0123456789abcdef01234567";
const GROUP = `${ROOT}/0123456789abcdef`;
const IDENTITY = `${GROUP}/fedcba9876543210`;

describe("parentOf", () => {
  it("answers everything before the last '/'", () => {
    expect(parentOf(GROUP)).toBe(ROOT);
    expect(parentOf(IDENTITY)).toBe(GROUP);
  });

  it("answers undefined for a flat uid: no empty text, no uid cut short", () => {
    expect(parentOf(ROOT)).toBeUndefined();
    expect(parentOf("")).toBeUndefined();
  });

  it("is the one function the SDK, the provider's checks and the role helpers export", () => {
    expect(publicParentOf).toBe(parentOf);
    expect(roleGroupUid).toBe(parentOf);
    expect(checks.parentOf).toBe(parentOf);
  });
});

describe("the uid patterns", () => {
  it("tell flat, group, child and role uids apart", () => {
    expect(FLAT_UID_PATTERN.test(ROOT)).toBe(true);
    expect(FLAT_UID_PATTERN.test(GROUP)).toBe(false);
    for (const pattern of [GROUP_UID_PATTERN, ROLE_UID_PATTERN]) {
      expect([ROOT, GROUP, IDENTITY].every((uid) => pattern.test(uid))).toBe(true);
      expect(pattern.test(ROOT.toUpperCase())).toBe(false);
      expect(pattern.test(`${ROOT}/0123`)).toBe(false);
    }
    expect(CHILD_UID_PATTERN.test(ROOT)).toBe(false);
    expect(CHILD_UID_PATTERN.test(IDENTITY)).toBe(true);
    expect(isBuiltInRoleUid(ROOT)).toBe(true);
    expect(isBuiltInRoleUid(GROUP)).toBe(false);
  });

  it("are the provider's checks' patterns and shape text", () => {
    expect(checks.GROUP_UID_PATTERN).toBe(GROUP_UID_PATTERN);
    expect(checks.CHILD_UID_PATTERN).toBe(CHILD_UID_PATTERN);
    expect(checks.ROLE_UID_PATTERN).toBe(ROLE_UID_PATTERN);
    expect(checks.ROLE_SHAPE).toBe(ROLE_UID_SHAPE);
  });
});

describe("the emulator's store", () => {
  it("indexes records without a parent under the empty key, children under their parent", () => {
    const store = new IndexedCollection<{ uid: string; name: string }>((r) => r.name);
    store.insert({ uid: ROOT, name: "root" });
    store.insert({ uid: GROUP, name: "group" });
    expect(store.scopeParentOf({ uid: ROOT, name: "root" })).toBe("");
    expect(
      store.childrenOf("").uids.slice(store.childrenOf("").start, store.childrenOf("").end),
    ).toEqual([ROOT]);
    expect(store.countChildren(ROOT)).toBe(1);
  });
});

describe("the SDK's reading of an external group role mapping", () => {
  const mapping = {
    uid: IDENTITY,
    identityProviderUid: GROUP,
    externalGroupId: "engineering",
    roleUid: ROOT,
    scope: ROOT,
    createTime: "2026-11-29T10:00:00.000Z",
  };

  it("reads a mapping under its identity provider", () => {
    expect(decodeExternalGroupRoleMapping(mapping).identityProviderUid).toBe(GROUP);
  });

  it("blames the uid, not the identity provider, when a mapping's uid is flat (it has no parent)", () => {
    expect(() => decodeExternalGroupRoleMapping({ ...mapping, uid: ROOT })).toThrow(
      "externalGroupRoleMapping.uid: not a mapping uid",
    );
  });
});
