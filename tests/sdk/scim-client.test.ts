/**
 * `client.iam.identityProviders`' SCIM calls against the emulator and a stand-in: the
 * token answered once and never printed, the etag carried, bad input refused before
 * any request, a malformed answer an unknown outcome.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type IrmClient, OutcomeUnknownError } from "../../sdk";
import { clientFor, closeClients, failure } from "../support/sdk-helpers";
import { json, StandIn } from "../support/sdk-stand-in";

describe("against the emulator", () => {
  let emu: TestEmulator;
  let client: IrmClient;
  let idp: string;
  beforeAll(async () => {
    emu = await startTestEmulator();
    client = clientFor(emu).client;
    const viewer = (await client.iam.roles.list({ name: "viewer" })).items[0].uid;
    const team = await client.iam.groups.create(emu.rootGroupUid, { name: "scim team" });
    idp = (
      await client.iam.identityProviders.create(team.uid, {
        name: "sso",
        defaultRole: viewer,
        oidc: { issuer: "https://idp.example", clientId: "c", pkceEnabled: true },
      })
    ).uid;
  });
  afterAll(async () => {
    await closeClients();
    await emu.close();
  });

  it("generates, reads the status, regenerates with the etag, switches and revokes", async () => {
    const providers = client.iam.identityProviders;
    const issued = await providers.generateScimToken(idp);
    expect(issued.token).toMatch(/^cgscim_[0-9a-f]{64}$/);
    const printed = `${JSON.stringify(issued)} ${inspect(issued)} ${JSON.stringify({ ...issued })}`;
    expect(printed).not.toContain(issued.token);
    const status = (await providers.get(idp)).scim;
    expect(status).toMatchObject({ enabled: false, credentialState: "CREDENTIAL_STATE_LIVE" });
    const renewed = await providers.regenerateScimToken(idp, {
      etag: status!.etag,
      overlapSeconds: 60,
    });
    expect(renewed.token).not.toBe(issued.token);
    expect(renewed.previousTokenExpireTime).toBeDefined();
    const stale = await failure(providers.setScimEnabled(idp, false, issued.etag));
    expect((stale as { codeName?: string }).codeName).toBe("ABORTED");
    const off = await providers.setScimEnabled(idp, false, renewed.etag);
    expect(off).toEqual({ identityProviderUid: idp, enabled: false, etag: expect.any(String) });
    const revoked = await providers.revokeScimToken(idp);
    expect(revoked.enabled).toBe(false);
    expect((await providers.get(idp)).scim?.credentialState).toBe("CREDENTIAL_STATE_REVOKED");
    const requests = JSON.stringify(await emu.requests());
    expect(requests).not.toContain(issued.token);
  });

  it("refuses bad input before any request", async () => {
    const providers = client.iam.identityProviders;
    await emu.clearRequests();
    const cases: Array<[() => Promise<unknown>, string]> = [
      [
        () =>
          providers.generateScimToken(idp, {
            neverExpires: true,
            expireTime: "2027-01-01T00:00:00Z",
          }),
        "expireTime cannot be set together with neverExpires",
      ],
      [() => providers.regenerateScimToken(idp, { etag: "" }), "etag is required"],
      [
        () => providers.regenerateScimToken(idp, { etag: "e", overlapSeconds: 90_000 }),
        "overlapSeconds must be an integer from 0 to 86400, got 90000",
      ],
      [() => providers.setScimEnabled(idp, true, ""), "etag is required"],
    ];
    for (const [call, message] of cases) {
      let error: unknown;
      try {
        await call();
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe(message);
    }
    expect(await emu.requests()).toEqual([]);
  });
});

describe("answers are checked", () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await new StandIn().start();
  });
  afterAll(() => standIn.close());
  const IDP = `${"a".repeat(40)}/0123456789abcdef`;

  it("a token answer of the wrong form is an unknown outcome, its value never quoted", async () => {
    const leaked = "not-a-scim-token-but-secret-7d1e";
    standIn.answer(
      json({ token: leaked, endpointUrl: "https://x", identityProviderUid: IDP, etag: "e" }),
    );
    const error = await failure(standIn.client().iam.identityProviders.generateScimToken(IDP));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(`${(error as Error).message} ${(error as Error).stack}`).not.toContain(leaked);
  });
});
