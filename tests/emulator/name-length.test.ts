/**
 * Names of groups, identities and identity providers are 3 to 63 characters (the
 * definitions at HEAD, corrections 17): refused at create and at a rename, naming
 * `name`; a stored name outside the rule (a data file of an earlier version) may be
 * restated unchanged.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let viewer: string;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  viewer = await o.builtIn("viewer");
});

const BODIES: Record<string, (name: string) => Json> = {
  groups: (name) => ({ name }),
  identities: (name) => ({
    name,
    claimMatch: { issuer: "https://issuer.example", subject: "repo:acme/app" },
  }),
  identityProviders: (name) => ({
    name,
    defaultRole: viewer,
    oidc: { issuer: "https://idp.example", clientId: "c", pkceEnabled: true },
  }),
};

describe.each(Object.keys(BODIES))("%s: name length", (collection) => {
  const make = (parent: string, name: string) =>
    o.call<Json>("POST", `/iam/v2beta1/${collection}/${parent}`, {
      body: BODIES[collection](name),
    });

  it.each([
    ["2 characters", "ab"],
    ["64 characters", "a".repeat(64)],
  ])("refuses a name of %s at create, naming the field and the rule", async (_, name) => {
    const parent = await o.group(emu.rootGroupUid);
    expect(failure(await make(parent, name))).toEqual([
      400,
      "Invalid argument: name: must be 3 to 63 characters",
    ]);
    const children = await o.call<Json>(
      "GET",
      `/iam/v2beta1/${collection}?uidp.children_of=${parent}`,
    );
    expect(children.body[collection]).toEqual([]);
  });

  it("accepts 3 and 63 characters, and refuses a rename to 2", async () => {
    const parent = await o.group(emu.rootGroupUid);
    const short = await make(parent, "abc");
    expect(short.status).toBe(200);
    expect((await make(parent, "a".repeat(63))).status).toBe(200);
    const uid = short.body.uid as string;
    const renamed = await o.call<Json>(
      "PATCH",
      `/iam/v2beta1/${collection}/${uid}?updateMask=name`,
      {
        body: { name: "ab" },
      },
    );
    expect(failure(renamed)).toEqual([400, "Invalid argument: name: must be 3 to 63 characters"]);
  });
});

describe("a stored name outside the rule", () => {
  it("may be restated unchanged; a rename is judged", async () => {
    const seeded = await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "ab" }] });
    const uid = seeded.groups[0];
    const restated = await o.call<Json>("PATCH", `/iam/v2beta1/groups/${uid}`, {
      body: { name: "ab", description: "kept" },
    });
    expect(restated.status).toBe(200);
    expect(restated.body).toMatchObject({ name: "ab", description: "kept" });
    const renamed = await o.call<Json>("PATCH", `/iam/v2beta1/groups/${uid}`, {
      body: { name: "cd" },
    });
    expect(failure(renamed)).toEqual([400, "Invalid argument: name: must be 3 to 63 characters"]);
  });
});
