import { describe, expect, it } from "vitest";
import { UNKNOWN_VALUE } from "../../provider/checks";
import * as runtime from "../../provider/runtime";
import type { GroupOutputs, IdentityOutputs, RoleBindingOutputs } from "../../provider/types";

const ROOT = "a".repeat(40);
const GROUP = `${ROOT}/${"1".repeat(16)}`;
const OTHER_GROUP = `${ROOT}/${"4".repeat(16)}`;
const IDENTITY = `${GROUP}/${"2".repeat(16)}`;
const ROLE = "b".repeat(40);
const OTHER_ROLE = "c".repeat(40);
const SERIALIZED_PROVIDER = "exports.handler = __f0; /* some version */";

const groupState: GroupOutputs = {
  uid: GROUP,
  parentUid: ROOT,
  name: "platform",
  description: "",
  verified: false,
  resourceLimits: {},
  createTime: "2026-11-21T10:00:00.000Z",
  updateTime: "2026-11-21T10:00:00.000Z",
};

describe("diff: Group", () => {
  const news = { parentUid: ROOT, name: "platform", description: "" };

  it("reports no changes for identical inputs, whatever the serialized provider", async () => {
    const olds = { ...groupState, __provider: "old text" } as GroupOutputs;
    const withNewProvider = { ...news, __provider: SERIALIZED_PROVIDER };
    expect(await runtime.group.diff(GROUP, olds, withNewProvider)).toEqual({ changes: false });
  });

  it("treats an absent description in old state as empty", async () => {
    const { description: _dropped, ...withoutDescription } = groupState;
    const olds = withoutDescription as GroupOutputs;
    expect(await runtime.group.diff(GROUP, olds, news)).toEqual({ changes: false });
  });

  it("updates in place on name or description and replaces on parentUid", async () => {
    expect(await runtime.group.diff(GROUP, groupState, { ...news, description: "x" })).toEqual({
      changes: true,
    });
    expect(await runtime.group.diff(GROUP, groupState, { ...news, name: "p2" })).toEqual({
      changes: true,
    });
    expect(await runtime.group.diff(GROUP, groupState, { ...news, parentUid: GROUP })).toEqual({
      changes: true,
      replaces: ["parentUid"],
    });
  });

  it("ignores adoptUid once the group exists", async () => {
    expect(await runtime.group.diff(GROUP, groupState, { ...news, adoptUid: GROUP })).toEqual({
      changes: false,
    });
  });

  it("treats an unknown parent in preview as a replacement", async () => {
    const result = await runtime.group.diff(GROUP, groupState, {
      ...news,
      parentUid: UNKNOWN_VALUE,
    });
    expect(result).toEqual({ changes: true, replaces: ["parentUid"] });
  });
});

describe("diff: Identity", () => {
  const state: IdentityOutputs = {
    uid: IDENTITY,
    parentUid: GROUP,
    name: "deployer",
    description: "ci",
    claimMatch: { issuer: "https://issuer.example", subject: "main" },
    createTime: "2026-11-21T10:00:00.000Z",
    updateTime: "2026-11-21T10:00:00.000Z",
  };
  const news = {
    parentUid: GROUP,
    name: "deployer",
    description: "ci",
    claimMatch: { issuer: "https://issuer.example", subject: "main" },
  };

  it("updates in place on claimMatch and replaces on parentUid", async () => {
    expect(await runtime.identity.diff(IDENTITY, state, news)).toEqual({ changes: false });
    const subject = { ...news, claimMatch: { ...news.claimMatch, subject: "release" } };
    expect(await runtime.identity.diff(IDENTITY, state, subject)).toEqual({ changes: true });
    const moved = { ...news, parentUid: OTHER_GROUP };
    expect(await runtime.identity.diff(IDENTITY, state, moved)).toEqual({
      changes: true,
      replaces: ["parentUid"],
    });
  });
});

describe("diff: RoleBinding", () => {
  const state = {
    uid: `${GROUP}/${"5".repeat(16)}`,
    groupUid: GROUP,
    identityUid: IDENTITY,
    roleUid: ROLE,
  } as RoleBindingOutputs;

  it("updates in place on identity or role and replaces on group", async () => {
    const news = { groupUid: GROUP, identityUid: IDENTITY, roleUid: ROLE };
    expect(await runtime.binding.diff(state.uid, state, news)).toEqual({ changes: false });
    expect(await runtime.binding.diff(state.uid, state, { ...news, roleUid: OTHER_ROLE })).toEqual({
      changes: true,
    });
    expect(
      await runtime.binding.diff(state.uid, state, { ...news, groupUid: OTHER_GROUP }),
    ).toEqual({ changes: true, replaces: ["groupUid"] });
  });
});
