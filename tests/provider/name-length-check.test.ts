/**
 * `check` refuses a group's, an identity's or an identity provider's name outside 3 to
 * 63 characters in preview, naming `name` and the rule (the definitions at HEAD), and
 * spares a name already live: the one the stack holds, or an adopted object's.
 */
import { describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { useProviderFixture } from "../support/provider-fixture";

const ROLE = "b".repeat(40);
let ROOT = "";

useProviderFixture({
  groupPrefix: "names",
  onStart(fixture) {
    ROOT = fixture.rootGroupUid;
  },
});

const KINDS = {
  group: { handler: runtime.group, inputs: {} },
  identity: {
    handler: runtime.identity,
    inputs: {
      claimMatch: { issuer: "https://issuer.example", subject: "repo:acme/app" },
    },
  },
  idp: {
    handler: runtime.idp,
    inputs: {
      defaultRole: ROLE,
      oidc: { issuer: "https://idp.example", clientId: "c", pkceEnabled: true },
    },
  },
};

describe.each(Object.keys(KINDS) as Array<keyof typeof KINDS>)("%s", (kind) => {
  const { handler, inputs } = KINDS[kind];
  const check = (news: Record<string, unknown>, olds: Record<string, unknown> = {}) =>
    handler.check(olds, { parentUid: ROOT, ...inputs, ...news });

  it.each([
    ["ab", 2],
    ["a".repeat(64), 64],
  ])("refuses %s in preview, naming the field and the rule", async (name, length) => {
    const result = await check({ name });
    expect(result.failures).toEqual([
      { property: "name", reason: `must be 3 to 63 characters, got ${length}` },
    ]);
  });

  it("accepts 3 and 63 characters", async () => {
    expect((await check({ name: "abc" })).failures ?? []).toEqual([]);
    expect((await check({ name: "a".repeat(63) })).failures ?? []).toEqual([]);
  });

  it("spares the name the stack holds, and judges a rename", async () => {
    const olds = { parentUid: ROOT, ...inputs, name: "ab" };
    expect((await check({ name: "ab" }, olds)).failures ?? []).toEqual([]);
    expect((await check({ name: "cd" }, olds)).failures).toEqual([
      { property: "name", reason: "must be 3 to 63 characters, got 2" },
    ]);
  });

  it("spares an adopted object's name, and judges a rename once the stack holds it", async () => {
    const adoptUid = `${ROOT}/${"3".repeat(16)}`;
    expect((await check({ name: "ab", adoptUid })).failures ?? []).toEqual([]);
    const olds = { parentUid: ROOT, ...inputs, name: "ab", adoptUid };
    expect((await check({ name: "ab", adoptUid }, olds)).failures ?? []).toEqual([]);
    expect((await check({ name: "cd", adoptUid }, olds)).failures).toEqual([
      { property: "name", reason: "must be 3 to 63 characters, got 2" },
    ]);
  });
});

it("keeps the rule of the pattern on a name the stack holds", async () => {
  const result = await runtime.group.check(
    { parentUid: ROOT, name: "AB" },
    { parentUid: ROOT, name: "AB" },
  );
  expect(result.failures?.map((f) => f.property)).toEqual(["name"]);
});
