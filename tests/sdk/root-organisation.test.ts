/**
 * `iam.groups.createOrganization`: a root organisation (`CreateGroup` with an empty
 * parent), whose creator becomes its owner; the owner's workload then exchanges its OIDC
 * token (identity + OIDC token, as the SDK does) and works in the new organisation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { OutcomeUnknownError } from "../../sdk";
import { fakeApi } from "../support/fake-api";
import { clientFor, closeClients, failure, requestLines } from "../support/sdk-helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterEach(() => closeClients());
afterAll(() => emu?.close());

describe("createOrganization", () => {
  it("POSTs to the collection; the creator owns the organisation, and exchanges for it", async () => {
    const { client: owner } = clientFor(emu);
    const person = await owner.iam.identities.create(emu.rootGroupUid, {
      name: "carol",
      claimMatch: { issuer: emu.issuer, subject: "carol" },
    });
    const { client: carol } = clientFor(emu, {
      identity: person.uid,
      oidcToken: () => emu.oidcToken("carol", { audience: emu.url }),
    });
    await emu.clearRequests();
    const org = await carol.iam.groups.createOrganization({ name: "carol-org" });
    expect(org.uid).toMatch(/^[0-9a-f]{40}$/);
    expect(org).toMatchObject({ name: "carol-org", description: "", verified: false });
    const team = await carol.iam.groups.create(org.uid, { name: "team" });
    expect(team.uid.startsWith(`${org.uid}/`)).toBe(true);
    const lines = await requestLines(emu);
    expect(lines).toContain("POST /sts/exchange -> 200");
    const api = lines.filter((l) => l.includes("/iam/"));
    expect(api).toEqual([
      "POST /iam/v2beta1/groups -> 200",
      `POST /iam/v2beta1/groups/${org.uid} -> 200`,
    ]);
  });

  it("an answer that is no root organisation is an OutcomeUnknownError", async () => {
    const api = await fakeApi((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          uid: `${"a".repeat(40)}/0123456789abcdef`,
          name: "x-org",
          createTime: "2026-11-29T00:00:00Z",
          updateTime: "2026-11-29T00:00:00Z",
        }),
      );
    });
    try {
      const { client } = clientFor(emu, { baseUrl: api.url, token: "t" });
      const error = await failure(client.iam.groups.createOrganization({ name: "x-org" }));
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      expect(String((error as Error).message)).toMatch(/is not a root organisation's uid/);
      expect(api.requests).toEqual(["POST /iam/v2beta1/groups"]);
    } finally {
      await api.close();
    }
  });
});
