/**
 * An organisation of 100,000 groups: scoped lists still answer exactly (speed is
 * measured by benchmarks, not asserted here).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc } from "../support/emulator-http";

interface GroupList {
  groups: Array<{ uid: string; name: string }>;
  nextPageToken?: string;
  totalCount: string;
}

let emu: TestEmulator;
let owner: Caller;
let org: string;
let small: string;
let smallChildren: string[];

beforeAll(async () => {
  emu = await startTestEmulator();
  owner = caller(emu.url, emu.token);
  [org] = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "big-org" }] })).groups;
  const generated = await emu.seed({
    generate: { kind: "groups", count: 100_000, parentUid: org },
  });
  expect(generated.groups).toHaveLength(100_000);
  [small] = (await emu.seed({ groups: [{ parentUid: org, name: "small" }] })).groups;
  smallChildren = (
    await emu.seed({
      groups: [
        { parentUid: small, name: "leaf-b" },
        { parentUid: small, name: "leaf-a" },
      ],
    })
  ).groups;
});
afterAll(() => emu.close());

describe("100,000 groups", () => {
  it("children_of, descendants_of and name answer exactly", async () => {
    const children = await owner<GroupList>(
      "GET",
      `/iam/v2beta1/groups?uidp.children_of=${enc(small)}&order_by=name`,
    );
    expect(children.body.groups.map((g) => g.name)).toEqual(["leaf-a", "leaf-b"]);
    expect(children.body.totalCount).toBe("2");
    const all = await owner<GroupList>(
      "GET",
      `/iam/v2beta1/groups?uidp.descendants_of=${enc(org)}&page_size=5`,
    );
    expect(all.body.totalCount).toBe("100003");
    expect(all.body.groups).toHaveLength(5);
    const named = await owner<GroupList>(
      "GET",
      `/iam/v2beta1/groups?name=group-050000&uidp.children_of=${enc(org)}`,
    );
    expect(named.body.groups.map((g) => g.name)).toEqual(["group-050000"]);
  });

  it("name order holds across pages of the whole organisation", async () => {
    const first = await owner<GroupList>(
      "GET",
      `/iam/v2beta1/groups?uidp.children_of=${enc(org)}&order_by=${enc("name desc")}&page_size=3`,
    );
    expect(first.body.groups.map((g) => g.name)).toEqual(["small", "group-099999", "group-099998"]);
    const second = await owner<GroupList>(
      "GET",
      `/iam/v2beta1/groups?uidp.children_of=${enc(org)}&order_by=${enc("name desc")}&page_size=3&page_token=${enc(first.body.nextPageToken ?? "")}`,
    );
    expect(second.body.groups.map((g) => g.name)).toEqual([
      "group-099997",
      "group-099996",
      "group-099995",
    ]);
    const deep = await owner<GroupList>(
      "GET",
      `/iam/v2beta1/groups?uidp.children_of=${enc(org)}&order_by=name&skip=99995&page_size=10`,
    );
    expect(deep.body.groups.map((g) => g.name)).toEqual([
      "group-099995",
      "group-099996",
      "group-099997",
      "group-099998",
      "group-099999",
      "small",
    ]);
  });

  it("a caller bound deep in the tree sees only its part of the organisation", async () => {
    const identity = (
      await owner<{ uid: string }>("POST", `/iam/v2beta1/identities/${small}`, {
        body: { name: "leaf-viewer", claimMatch: { issuer: emu.issuer, subject: "leaf-viewer" } },
      })
    ).body.uid;
    const viewer = (
      await owner<{ roles: Array<{ uid: string }> }>("GET", "/iam/v2beta1/roles?name=viewer")
    ).body.roles[0].uid;
    await owner("POST", `/iam/v2beta1/roleBindings/${small}`, {
      body: { identityUid: identity, roleUid: viewer },
    });
    const api = caller(emu.url, await emu.mintToken(identity));
    const visible = await api<GroupList>(
      "GET",
      `/iam/v2beta1/groups?uidp.descendants_of=${enc(org)}`,
    );
    expect(visible.body.totalCount).toBe("3");
    expect(visible.body.groups.map((g) => g.uid).sort()).toEqual([small, ...smallChildren].sort());
  });
});
