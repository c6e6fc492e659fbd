/**
 * A PATCH without `updateMask` whose body sends a block as `{}` or `null`: the gateway
 * builds the mask from the body (grpc-gateway's `FieldMaskFromRequestBody`), and a
 * block with no leaves (an empty object, or null) is a path of its own, naming the block
 * whole. So such a body answers exactly as the same body with that mask: an identity's
 * relationship object or an identity provider's `oidc` named whole, and judged. Before,
 * the emulator read no path from it and answered 200 with nothing changed.
 */
import { describe, expect, it } from "vitest";
import type { TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
useTestOrg((started) => {
  ({ emu, o } = started);
});

/** PATCHes `body` without a mask and with `mask`: the answers must be the same refusal. */
async function sameAsImpliedMask(path: string, body: Json, mask: string, want: [number, string]) {
  const before = await o.call<Json>("GET", path);
  const bare = await o.call<Json>("PATCH", path, { body });
  const masked = await o.call<Json>("PATCH", `${path}?updateMask=${mask}`, { body });
  expect(failure(masked), `${JSON.stringify(body)} with updateMask=${mask}`).toEqual(want);
  expect(failure(bare), `${JSON.stringify(body)} without a mask`).toEqual(want);
  expect((await o.call<Json>("GET", path)).body, "nothing changed").toEqual(before.body);
}

describe("identities: a relationship block sent as {} or null without a mask", () => {
  it("{} names the kind's object whole, judged as empty", async () => {
    const uid = await o.identity(await o.group(emu.rootGroupUid));
    await sameAsImpliedMask(`/iam/v2beta1/identities/${uid}`, { claimMatch: {} }, "claim_match", [
      400,
      "Invalid argument: claimMatch.issuer: is required",
    ]);
  });

  it("null names the kind's object whole: an identity cannot lose its relationship", async () => {
    const uid = await o.identity(await o.group(emu.rootGroupUid));
    const path = `/iam/v2beta1/identities/${uid}`;
    const bare = await o.call<Json>("PATCH", path, { body: { claimMatch: null } });
    const masked = await o.call<Json>("PATCH", `${path}?updateMask=claim_match`, { body: {} });
    expect(bare.status, bare.text).toBe(400);
    expect(failure(bare)).toEqual(failure(masked));
  });

  it("another kind's block, {} or null, is a change of kind and refused naming it", async () => {
    const uid = await o.identity(await o.group(emu.rootGroupUid));
    for (const value of [{}, null]) {
      await sameAsImpliedMask(
        `/iam/v2beta1/identities/${uid}`,
        { staticKeys: value },
        "static_keys",
        [
          400,
          "Invalid argument: staticKeys: the relationship kind cannot change; create a new identity",
        ],
      );
    }
  });
});

describe("identity providers: oidc sent as {} or null without a mask", () => {
  it("{} names oidc whole, judged as empty", async () => {
    const group = await o.group(emu.rootGroupUid);
    const uid = await o.identityProvider(group, await o.builtIn("viewer"));
    await sameAsImpliedMask(`/iam/v2beta1/identityProviders/${uid}`, { oidc: {} }, "oidc", [
      400,
      "Invalid argument: oidc.issuer: is required",
    ]);
  });

  it("null names oidc whole: a provider cannot lose it", async () => {
    const group = await o.group(emu.rootGroupUid);
    const uid = await o.identityProvider(group, await o.builtIn("viewer"));
    const path = `/iam/v2beta1/identityProviders/${uid}`;
    const bare = await o.call<Json>("PATCH", path, { body: { oidc: null } });
    const masked = await o.call<Json>("PATCH", `${path}?updateMask=oidc`, { body: {} });
    expect(bare.status, bare.text).toBe(400);
    expect(failure(bare)).toEqual(failure(masked));
    expect(failure(bare)).toEqual([400, "Invalid argument: oidc: is required"]);
  });
});
