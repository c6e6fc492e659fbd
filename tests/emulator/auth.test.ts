/** Tokens, the token exchange with the OIDC test issuer, and capability-based access control. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importJWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc, reasonOf } from "../support/emulator-http";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let owner: Caller;
let dataDir: string;
let platformUserUid: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "irm-emu-auth-"));
  emu = await startTestEmulator({ dataFile: join(dataDir, "state.json") });
  owner = caller(emu.url, emu.token);
  const found = await owner<{ identities: Json[] }>(
    "GET",
    "/iam/v2beta1/identities?name=platform-user",
  );
  platformUserUid = found.body.identities[0].uid as string;
});
afterAll(async () => {
  await emu.close();
  await rm(dataDir, { recursive: true, force: true });
});

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

async function expectUnauthenticated(token: string | null, pattern?: RegExp): Promise<void> {
  const reply = await caller(emu.url, token)<Json>("GET", "/iam/v2beta1/groups");
  expect(reply.status).toBe(401);
  expect(reply.body.code).toBe(16);
  expect(reasonOf(reply.body)).toBe("UNAUTHENTICATED");
  expect(String(reply.body.message)).toMatch(/^Unauthenticated: /);
  if (pattern) expect(String(reply.body.message)).toMatch(pattern);
  if (token) expect(reply.text).not.toContain(token);
}

describe("API tokens", () => {
  it("the bootstrap token is accepted", async () => {
    expect((await owner("GET", "/iam/v2beta1/groups")).status).toBe(200);
  });

  it("no token, a non-Bearer header, and garbage are UNAUTHENTICATED", async () => {
    await expectUnauthenticated(null, /bearer token is required/);
    const basic = await caller(emu.url, null)<Json>("GET", "/iam/v2beta1/groups", {
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    });
    expect(basic.status).toBe(401);
    await expectUnauthenticated("not.a.jwt");
  });

  it("a token with alg none is rejected", async () => {
    const [, payload] = emu.token.split(".");
    await expectUnauthenticated(`${b64url({ alg: "none", typ: "JWT" })}.${payload}.`);
  });

  it("a tampered token (claims changed, signature kept) is rejected", async () => {
    const [header, payload, signature] = emu.token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Json;
    const forged = b64url({ ...claims, sub: platformUserUid });
    await expectUnauthenticated(`${header}.${forged}.${signature}`, /signature/);
  });

  it("a token expires on the emulator clock", async () => {
    const token = await emu.mintToken(platformUserUid, 60);
    expect((await caller(emu.url, token)("GET", "/iam/v2beta1/groups")).status).toBe(200);
    await emu.advanceClock(120);
    await expectUnauthenticated(token, /expired/);
  });

  it("a token signed with the right key but for another audience is rejected", async () => {
    const saved = JSON.parse(await readFile(join(dataDir, "state.json"), "utf8")) as {
      keys: { api: Json };
    };
    const key = await importJWK(saved.keys.api as Parameters<typeof importJWK>[0], "ES256");
    const now = Math.floor(Date.now() / 1000);
    const sign = (audience: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "ES256", kid: saved.keys.api.kid as string })
        .setIssuer(emu.url)
        .setAudience(audience)
        .setSubject(platformUserUid)
        .setIssuedAt(now)
        .setExpirationTime(now + 3 * 24 * 3600)
        .sign(key);
    // Same key and claims with the right audience pass: the audience alone decides.
    expect((await caller(emu.url, await sign(emu.url))("GET", "/iam/v2beta1/groups")).status).toBe(
      200,
    );
    await expectUnauthenticated(await sign("https://api.elsewhere.example"), /aud/);
  });

  it("a token without exp is rejected", async () => {
    const saved = JSON.parse(await readFile(join(dataDir, "state.json"), "utf8")) as {
      keys: { api: Json };
    };
    const key = await importJWK(saved.keys.api as Parameters<typeof importJWK>[0], "ES256");
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: saved.keys.api.kid as string })
      .setIssuer(emu.url)
      .setAudience(emu.url)
      .setSubject(platformUserUid)
      .sign(key);
    await expectUnauthenticated(token, /exp/);
  });

  it("the signing keys are published without their private part", async () => {
    const reply = await caller(emu.url, null)<{ keys: Json[] }>("GET", "/.well-known/jwks.json");
    expect(reply.status).toBe(200);
    expect(reply.body.keys.length).toBeGreaterThan(0);
    for (const key of reply.body.keys) {
      expect(key.kid).toBeTruthy();
      expect(key.d).toBeUndefined();
    }
  });
});

describe("token exchange", () => {
  const exchange = (oidc: string | null, identity: string, aud = emu.url) =>
    caller(emu.url, oidc)<Json>("GET", `/sts/exchange?aud=${enc(aud)}&identity=${enc(identity)}`);

  it("round trip: an OIDC token of the test issuer becomes an API token of platform-user", async () => {
    const discovery = await caller(emu.url, null)<Json>(
      "GET",
      "/oidc/.well-known/openid-configuration",
    );
    expect(discovery.body).toMatchObject({
      issuer: emu.issuer,
      jwks_uri: `${emu.issuer}/jwks.json`,
    });
    const oidc = await emu.oidcToken("alice");
    const reply = await exchange(oidc, platformUserUid);
    expect(reply.status).toBe(200);
    const token = reply.body.token as string;
    const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as Json;
    expect(claims).toMatchObject({ sub: platformUserUid, aud: emu.url, iss: emu.url });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);
    const api = caller(emu.url, token);
    expect((await api("GET", `/iam/v2beta1/groups/${emu.rootGroupUid}`)).status).toBe(200);
    const seen = await owner<Json>("GET", `/iam/v2beta1/identities/${platformUserUid}`);
    expect(seen.body.lastSeenTime).toMatch(/Z$/);
    // One hour later the exchanged token is no longer valid.
    await emu.advanceClock(3601);
    await expectUnauthenticated(token, /expired/);
  });

  it("the OIDC subject must match the identity's claimMatch (PERMISSION_DENIED otherwise)", async () => {
    const bob = await owner<Json>("POST", `/iam/v2beta1/identities/${emu.rootGroupUid}`, {
      body: { name: "bob", claimMatch: { issuer: emu.issuer, subject: "bob" } },
    });
    const denied = await exchange(await emu.oidcToken("alice"), bob.body.uid as string);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(7);
    expect((await exchange(await emu.oidcToken("bob"), bob.body.uid as string)).status).toBe(200);
  });

  it("a missing, expired or forged OIDC token is UNAUTHENTICATED; a wrong aud is INVALID_ARGUMENT", async () => {
    expect((await exchange(null, platformUserUid)).status).toBe(401);
    const shortLived = await emu.oidcToken("carol", { ttlSeconds: 30 });
    await emu.advanceClock(60);
    const expired = await exchange(shortLived, platformUserUid);
    expect(expired.status).toBe(401);
    expect(String(expired.body.message)).toMatch(/expired/);
    const [header, payload, signature] = (await emu.oidcToken("carol")).split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Json;
    expect(
      (
        await exchange(
          `${header}.${b64url({ ...claims, sub: "dave" })}.${signature}`,
          platformUserUid,
        )
      ).status,
    ).toBe(401);
    const wrongAud = await exchange(
      await emu.oidcToken("carol"),
      platformUserUid,
      "https://other.example",
    );
    expect(wrongAud.status).toBe(400);
    expect(String(wrongAud.body.message)).toMatch(/^Invalid argument: aud: /);
    const unknown = await exchange(
      await emu.oidcToken("carol"),
      `${emu.rootGroupUid}/0000000000000000`,
    );
    expect(unknown.status).toBe(404);
  });

  it("an API token cannot be used as an OIDC token, nor the other way round", async () => {
    // An API token's issuer is the API, not the identity's OIDC issuer (addendum 6.10).
    const asOidc = await exchange(emu.token, platformUserUid);
    expect(asOidc.status).toBe(403);
    expect(asOidc.body.message).toBe(
      `Permission denied: the OIDC token does not match identity ${platformUserUid} (issuer)`,
    );
    await expectUnauthenticated(await emu.oidcToken("alice"));
  });
});

describe("access control", () => {
  let teamA: string;
  let teamB: string;
  let teamAChild: string;
  let scoped: string;
  let scopedToken: string;

  beforeAll(async () => {
    [teamA, teamB] = (
      await emu.seed({
        groups: [
          { parentUid: emu.rootGroupUid, name: "acl-a" },
          { parentUid: emu.rootGroupUid, name: "acl-b" },
        ],
      })
    ).groups;
    [teamAChild] = (await emu.seed({ groups: [{ parentUid: teamA, name: "acl-a-child" }] })).groups;
    scoped = (
      await owner<Json>("POST", `/iam/v2beta1/identities/${teamA}`, {
        body: { name: "team-a-admin", claimMatch: { issuer: emu.issuer, subject: "team-a-admin" } },
      })
    ).body.uid as string;
    // Owner of team A only (the editor creates no groups).
    const roles = await owner<{ roles: Json[] }>("GET", "/iam/v2beta1/roles?name=owner");
    await owner("POST", `/iam/v2beta1/roleBindings/${teamA}`, {
      body: { identityUid: scoped, roleUid: roles.body.roles[0].uid },
    });
    scopedToken = await emu.mintToken(scoped);
  });

  it("a viewer is denied a create with PERMISSION_DENIED naming the capability", async () => {
    const viewer = caller(emu.url, await emu.mintToken(platformUserUid));
    const reply = await viewer<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
      body: { name: "nope" },
    });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({
      code: 7,
      message: `Permission denied: CAP_IAM_GROUPS_CREATE on ${emu.rootGroupUid}`,
    });
    expect(reasonOf(reply.body)).toBe("PERMISSION_DENIED");
  });

  it("built-in roles are visible to every authenticated caller, custom ones only where listable", async () => {
    const hidden = await owner<Json>("POST", `/iam/v2beta1/roles/${teamB}`, {
      body: { name: "b-only", capabilities: ["CAP_IAM_GROUPS_LIST"] },
    });
    const api = caller(emu.url, scopedToken);
    const roles = await api<{ roles: Json[] }>("GET", "/iam/v2beta1/roles?page_size=200");
    const names = roles.body.roles.map((role) => role.name);
    expect(names).toEqual(expect.arrayContaining(["owner", "editor", "viewer", "registry.pull"]));
    expect(names).not.toContain("b-only");
    // Reading roles is unscoped: a custom role the caller cannot read answers as a missing one.
    const unreadable = await api<Json>("GET", `/iam/v2beta1/roles/${hidden.body.uid}`);
    const missing = await api<Json>("GET", `/iam/v2beta1/roles/${"0".repeat(40)}`);
    expect(unreadable.status).toBe(404);
    expect(unreadable.body.message).toBe(`Not found: ${hidden.body.uid}`);
    expect(missing.status).toBe(404);
  });

  it("a binding on a group grants on it and its descendants, not elsewhere", async () => {
    const api = caller(emu.url, scopedToken);
    expect(
      (await api("POST", `/iam/v2beta1/groups/${teamAChild}`, { body: { name: "deep" } })).status,
    ).toBe(200);
    expect(
      (await api("POST", `/iam/v2beta1/groups/${teamB}`, { body: { name: "nope" } })).status,
    ).toBe(403);
    expect((await api("GET", `/iam/v2beta1/groups/${emu.rootGroupUid}`)).status).toBe(403);
  });

  it("lists show only what the caller may list", async () => {
    const api = caller(emu.url, scopedToken);
    const reply = await api<{ groups: Json[]; totalCount: string }>(
      "GET",
      `/iam/v2beta1/groups?uidp.descendants_of=${emu.rootGroupUid}&page_size=200`,
    );
    expect(reply.status).toBe(200);
    const uids = reply.body.groups.map((g) => g.uid as string);
    expect(uids).toContain(teamA);
    expect(uids).toContain(teamAChild);
    expect(uids).not.toContain(teamB);
    expect(uids.every((uid) => uid === teamA || uid.startsWith(`${teamA}/`))).toBe(true);
    expect(reply.body.totalCount).toBe(String(uids.length));
    const v1 = await api<{ items: Json[] }>("GET", "/iam/v1/groups");
    expect(v1.body.items.map((g) => g.id).sort()).toEqual([...uids].sort());
  });

  it("PERMISSION_DENIED comes before NOT_FOUND", async () => {
    const api = caller(emu.url, scopedToken);
    const hidden = await api<Json>("GET", `/iam/v2beta1/groups/${teamB}/0000000000000000`);
    expect(hidden.status).toBe(403);
    const visibleButMissing = await api<Json>(
      "GET",
      `/iam/v2beta1/groups/${teamA}/0000000000000000`,
    );
    expect(visibleButMissing.status).toBe(404);
    const deleteHidden = await api("DELETE", `/iam/v2beta1/groups/${teamB}`);
    expect(deleteHidden.status).toBe(403);
  });

  it("no one grants a role with capabilities they do not hold on the group", async () => {
    // A custom role that may manage bindings in team A but holds nothing else there
    // beyond reading what it binds (identities.get, roles.get).
    const binder = (
      await owner<Json>("POST", `/iam/v2beta1/roles/${teamA}`, {
        body: {
          name: "binder",
          capabilities: [
            "CAP_IAM_ROLE_BINDINGS_CREATE",
            "CAP_IAM_GROUPS_LIST",
            "CAP_IAM_IDENTITY_LIST",
            "CAP_IAM_ROLES_LIST",
          ],
        },
      })
    ).body;
    const helper = (
      await owner<Json>("POST", `/iam/v2beta1/identities/${teamA}`, {
        body: { name: "helper", claimMatch: { issuer: emu.issuer, subject: "helper" } },
      })
    ).body.uid as string;
    await owner("POST", `/iam/v2beta1/roleBindings/${teamA}`, {
      body: { identityUid: helper, roleUid: binder.uid },
    });
    const api = caller(emu.url, await emu.mintToken(helper));
    const ownerRole = (await owner<{ roles: Json[] }>("GET", "/iam/v2beta1/roles?name=owner")).body
      .roles[0].uid;
    const escalation = await api<Json>("POST", `/iam/v2beta1/roleBindings/${teamA}`, {
      body: { identityUid: helper, roleUid: ownerRole },
    });
    expect(escalation.status).toBe(403);
    expect(String(escalation.body.message)).toMatch(/^Permission denied: /);
    const subset = (
      await owner<Json>("POST", `/iam/v2beta1/roles/${teamA}`, {
        body: { name: "getter", capabilities: ["CAP_IAM_GROUPS_LIST"] },
      })
    ).body;
    const allowed = await api<Json>("POST", `/iam/v2beta1/roleBindings/${teamA}`, {
      body: { identityUid: helper, roleUid: subset.uid },
    });
    expect(allowed.status).toBe(200);
  });

  it("a token of a deleted identity stops working", async () => {
    const temp = (
      await owner<Json>("POST", `/iam/v2beta1/identities/${teamB}`, {
        body: { name: "temp", claimMatch: { issuer: emu.issuer, subject: "temp" } },
      })
    ).body.uid as string;
    const token = await emu.mintToken(temp);
    await owner("DELETE", `/iam/v2beta1/identities/${temp}`);
    await expectUnauthenticated(token, /no longer exists/);
  });
});
