/**
 * An identity provider's SCIM actions (HEAD): generate, regenerate (make before break,
 * with the etag), revoke, and the enabled switch (gated on two owners), the `scim`
 * status a Get and a List answer, the capabilities each needs, and the token never
 * kept, logged or answered twice.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { secretMatches } from "../../emulator/collections/secrets";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { failure, type Json, type Org, org, useTestOrg } from "../support/emulator-org";

let emu: TestEmulator;
let o: Org;
let viewer: string;

useTestOrg((started) => {
  ({ emu, o } = started);
});
beforeAll(async () => {
  viewer = await o.builtIn("viewer");
});

const TOKEN = /^cgscim_[0-9a-f]{64}$/;
const idpPath = (uid: string, action = "") =>
  `/iam/v2beta1/identityProviders/${uid}${action ? `:${action}` : ""}`;

async function provider(): Promise<string> {
  return o.identityProvider(await o.group(emu.rootGroupUid), viewer);
}

async function act(uid: string, action: string, body: Json = {}) {
  return o.call<Json>("POST", idpPath(uid, action), { body });
}

async function scimOf(uid: string): Promise<Json | undefined> {
  return (await o.call<Json>("GET", idpPath(uid))).body.scim as Json | undefined;
}

describe("generateScimToken", () => {
  it("answers the token once; the provider's status shows a live, disabled credential", async () => {
    const uid = await provider();
    expect(await scimOf(uid)).toBeUndefined();
    const reply = await act(uid, "generateScimToken");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({
      token: expect.stringMatching(TOKEN),
      endpointUrl: `${emu.url}/scim/v2/${uid}`,
      expireTime: expect.stringMatching(/Z$/),
      identityProviderUid: uid,
      etag: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const expiresInDays = (Date.parse(reply.body.expireTime as string) - Date.now()) / 86_400_000;
    expect(Math.round(expiresInDays)).toBe(365);
    const got = await o.call<Json>("GET", idpPath(uid));
    expect(got.body.scim).toEqual({
      enabled: false,
      endpointUrl: `${emu.url}/scim/v2/${uid}`,
      tokenExpireTime: reply.body.expireTime,
      credentialState: "CREDENTIAL_STATE_LIVE",
      etag: reply.body.etag,
    });
    expect(got.text).not.toContain(reply.body.token as string);
    // A List leaves out the credential's state and expiry.
    const listed = await o.call<Json>("GET", `/iam/v2beta1/identityProviders?uidp.ids=${uid}`);
    expect((listed.body.identityProviders as Json[])[0].scim).toEqual({
      enabled: false,
      endpointUrl: `${emu.url}/scim/v2/${uid}`,
      etag: reply.body.etag,
    });
    const again = await act(uid, "generateScimToken");
    expect(failure(again)).toEqual([
      400,
      `Precondition failed: identity provider ${uid} already has a SCIM token: regenerate it instead`,
    ]);
  });

  it.each([
    [
      { neverExpires: true, expireTime: "2027-01-01T00:00:00Z" },
      "expireTime: cannot be set together with neverExpires",
    ],
    [
      { expireTime: "2099-01-01T00:00:00Z" },
      "expireTime: must be in the future and at most two years from now",
    ],
    [{ expireTime: "tomorrow" }, "expireTime: must be an RFC 3339 timestamp"],
  ])("refuses %j", async (body, message) => {
    const uid = await provider();
    expect(failure(await act(uid, "generateScimToken", body))).toEqual([
      400,
      `Invalid argument: ${message}`,
    ]);
    expect(await scimOf(uid)).toBeUndefined();
  });

  it("a token that never expires has no expireTime", async () => {
    const uid = await provider();
    const reply = await act(uid, "generateScimToken", { neverExpires: true });
    expect(reply.body).not.toHaveProperty("expireTime");
    expect(await scimOf(uid)).not.toHaveProperty("tokenExpireTime");
  });
});

describe("regenerateScimToken and revokeScimToken", () => {
  it("regenerates make-before-break with the etag; a stale etag is ABORTED", async () => {
    const uid = await provider();
    expect(failure(await act(uid, "regenerateScimToken", { etag: "x" }))).toEqual([
      404,
      `Not found: a SCIM token of identity provider ${uid}`,
    ]);
    const first = await act(uid, "generateScimToken");
    expect(failure(await act(uid, "regenerateScimToken", {}))[1]).toBe(
      "Invalid argument: etag: is required: read it from the identity provider",
    );
    const stale = await act(uid, "regenerateScimToken", { etag: "0000000000000000" });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe(10);
    const second = await act(uid, "regenerateScimToken", {
      etag: first.body.etag,
      overlap: "600s",
    });
    expect(second.status, second.text).toBe(200);
    expect(second.body.token).toMatch(TOKEN);
    expect(second.body.token).not.toBe(first.body.token);
    expect(second.body.requestedOverlap).toBe("600s");
    const overlapMs = Date.parse(second.body.previousTokenExpireTime as string) - Date.now();
    expect(Math.round(overlapMs / 60_000)).toBe(10);
    expect(await scimOf(uid)).toMatchObject({
      credentialState: "CREDENTIAL_STATE_ROTATING",
      previousTokenExpireTime: second.body.previousTokenExpireTime,
      etag: second.body.etag,
    });
    // The overlap is capped at 24 hours.
    const third = await act(uid, "regenerateScimToken", {
      etag: second.body.etag,
      overlap: "999999s",
    });
    expect(third.body.requestedOverlap).toBe("86400s");
  });

  it("revokes at once, keeping the switch; a later regeneration is live again with no overlap", async () => {
    const uid = await provider();
    await act(uid, "generateScimToken");
    const revoked = await act(uid, "revokeScimToken");
    expect(revoked.body).toEqual({
      identityProviderUid: uid,
      etag: expect.stringMatching(/^[0-9a-f]{16}$/),
      enabled: false,
      revokeTime: expect.stringMatching(/Z$/),
    });
    expect(await scimOf(uid)).toMatchObject({
      credentialState: "CREDENTIAL_STATE_REVOKED",
      tokenExpireTime: revoked.body.revokeTime,
    });
    const renewed = await act(uid, "regenerateScimToken", { etag: revoked.body.etag });
    expect(renewed.body).not.toHaveProperty("previousTokenExpireTime");
    expect((await scimOf(uid))?.credentialState).toBe("CREDENTIAL_STATE_LIVE");
  });

  it("a token past its expiry is EXPIRED", async () => {
    const uid = await provider();
    const soon = new Date(Date.now() + 60_000).toISOString();
    await act(uid, "generateScimToken", { expireTime: soon });
    await emu.advanceClock(120);
    expect((await scimOf(uid))?.credentialState).toBe("CREDENTIAL_STATE_EXPIRED");
  });
});

describe("setScimEnabled", () => {
  it("needs a SCIM configuration, the etag and two owners on the organisation", async () => {
    const uid = await provider();
    expect(failure(await act(uid, "setScimEnabled", { enabled: true, etag: "x" }))[1]).toBe(
      `Precondition failed: identity provider ${uid} has no SCIM configuration: generate a SCIM token first`,
    );
    const made = await act(uid, "generateScimToken");
    const one = await act(uid, "setScimEnabled", { enabled: true, etag: made.body.etag });
    expect(failure(one)).toEqual([
      400,
      "Precondition failed: the organisation needs at least 2 owner role bindings on its root group before SCIM is enabled",
    ]);
    const second = await o.identity(emu.rootGroupUid);
    await o.bind(emu.rootGroupUid, second, await o.builtIn("owner"));
    const on = await act(uid, "setScimEnabled", { enabled: true, etag: made.body.etag });
    expect(on.body).toEqual({
      identityProviderUid: uid,
      enabled: true,
      etag: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(on.body.etag).not.toBe(made.body.etag);
    expect(await scimOf(uid)).toMatchObject({ enabled: true, etag: on.body.etag });
    // Revocation never changes the switch.
    const revoked = await act(uid, "revokeScimToken");
    expect(revoked.body.enabled).toBe(true);
    const off = await act(uid, "setScimEnabled", { enabled: false, etag: revoked.body.etag });
    expect(off.body.enabled).toBe(false);
  });

  it("takes a missing `enabled` as false, as a proto3 message carries it (the gRPC face)", async () => {
    const uid = await provider();
    const made = await act(uid, "generateScimToken");
    await o.bind(emu.rootGroupUid, await o.identity(emu.rootGroupUid), await o.builtIn("owner"));
    const on = await act(uid, "setScimEnabled", { enabled: true, etag: made.body.etag });
    expect(on.body.enabled).toBe(true);
    const off = await act(uid, "setScimEnabled", { etag: on.body.etag });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({
      identityProviderUid: uid,
      enabled: false,
      etag: expect.any(String),
    });
    expect(await scimOf(uid)).toMatchObject({ enabled: false, etag: off.body.etag });
    expect(
      failure(await act(uid, "setScimEnabled", { enabled: "no", etag: off.body.etag })),
    ).toEqual([400, expect.stringContaining("enabled")]);
  });
});

describe("capabilities and secrecy", () => {
  it("needs CAP_IAM_SCIM_MANAGE and the providers' LIST capability on the provider", async () => {
    const uid = await provider();
    const lister = await o.actorWith(emu.rootGroupUid, ["CAP_IAM_IDENTITY_PROVIDERS_LIST"]);
    const refused = await lister.call("POST", idpPath(uid, "generateScimToken"), { body: {} });
    expect(failure(refused)[0]).toBe(403);
    expect(failure(refused)[1]).toContain("CAP_IAM_SCIM_MANAGE");
    const manager = await o.actorWith(emu.rootGroupUid, ["CAP_IAM_SCIM_MANAGE"]);
    const blind = await manager.call("POST", idpPath(uid, "generateScimToken"), { body: {} });
    expect(failure(blind)[1]).toContain("CAP_IAM_IDENTITY_PROVIDERS_LIST");
    const both = await o.actorWith(emu.rootGroupUid, [
      "CAP_IAM_SCIM_MANAGE",
      "CAP_IAM_IDENTITY_PROVIDERS_LIST",
    ]);
    expect((await both.call("POST", idpPath(uid, "generateScimToken"), { body: {} })).status).toBe(
      200,
    );
  });

  it("keeps only the token's salted digest: not in the data file, the journal or the request log", async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "irm-scim-"));
    const dataFile = path.join(directory, "state.json");
    const own = await startTestEmulator({ dataFile });
    try {
      const oo = org(own);
      const uid = await oo.identityProvider(
        await oo.group(own.rootGroupUid),
        await oo.builtIn("viewer"),
      );
      const made = await oo.call<Json>("POST", idpPath(uid, "generateScimToken"), { body: {} });
      const renewed = await oo.call<Json>("POST", idpPath(uid, "regenerateScimToken"), {
        body: { etag: made.body.etag },
      });
      const tokens = [made.body.token as string, renewed.body.token as string];
      const written = [dataFile, `${dataFile}.journal`]
        .filter((f) => fs.existsSync(f))
        .map((f) => fs.readFileSync(f, "utf8"))
        .join("\n");
      const log = JSON.stringify(await own.requests());
      for (const token of tokens) {
        expect(written).not.toContain(token);
        expect(log).not.toContain(token);
        expect(written).not.toContain(token.slice(7));
      }
      const digests = [...written.matchAll(/sha256-salted:[A-Za-z0-9_-]{22}:[0-9a-f]{64}/g)].map(
        (m) => m[0],
      );
      expect(digests.some((d) => secretMatches(d, tokens[1]))).toBe(true);
    } finally {
      await own.close();
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
