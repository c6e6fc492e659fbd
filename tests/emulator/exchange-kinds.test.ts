/**
 * The token exchange per identity kind (addendum 6.10 and 6.11), with real signed
 * tokens: from the emulator's OIDC test issuer (with extra claims), from a small OIDC
 * issuer this file serves on loopback (for audience arrays and tokens the test issuer
 * cannot mint), and from a key pair made here for staticKeys. The loopback issuer
 * counts its requests, which shows what the exchange fetches and what it never does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutTrailingSlashes } from "../../emulator/identity-kinds/exchange-match";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc, type Reply } from "../support/emulator-http";

type Json = Record<string, unknown>;

const DAY_MS = 24 * 3600 * 1000;

let emu: TestEmulator;
let owner: Caller;
let group: string;

/** The loopback OIDC issuer: discovery and JWKS of `outsideKey`, every request counted. */
let outside: Server;
let outsideIssuer: string;
let outsideRequests = 0;
let outsideKey: CryptoKey;
/** A key pair whose public half is registered as staticKeys, never published anywhere. */
let staticKey: CryptoKey;
let staticJwks: string;

async function keyPair(kid: string): Promise<{ privateKey: CryptoKey; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256" } };
}

beforeAll(async () => {
  emu = await startTestEmulator();
  owner = caller(emu.url, emu.token);
  [group] = (
    await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "exchange" }] })
  ).groups;
  const published = await keyPair("outside-1");
  outsideKey = published.privateKey;
  outside = createServer((request, response) => {
    outsideRequests++;
    response.setHeader("content-type", "application/json");
    if (request.url === "/fake/.well-known/openid-configuration") {
      response.end(JSON.stringify({ issuer: outsideIssuer, jwks_uri: `${outsideIssuer}/jwks` }));
    } else if (request.url === "/no-url/.well-known/openid-configuration") {
      // A discovery document whose jwks_uri is no URL at all.
      response.end(
        JSON.stringify({ issuer: `${outsideIssuer}`.replace(/fake$/, "no-url"), jwks_uri: "::" }),
      );
    } else if (request.url === "/file-keys/.well-known/openid-configuration") {
      // One whose jwks_uri is a URL the exchange must not fetch keys from.
      const issuer = `${outsideIssuer}`.replace(/fake$/, "file-keys");
      response.end(JSON.stringify({ issuer, jwks_uri: "file:///etc/passwd" }));
    } else if (request.url === "/fake/jwks") {
      response.end(JSON.stringify({ keys: [published.publicJwk] }));
    } else {
      response.statusCode = 404;
      response.end("{}");
    }
  });
  await new Promise<void>((resolve) => outside.listen(0, "127.0.0.1", resolve));
  outsideIssuer = `http://127.0.0.1:${(outside.address() as AddressInfo).port}/fake`;
  const registered = await keyPair("static-1");
  staticKey = registered.privateKey;
  staticJwks = JSON.stringify({ keys: [registered.publicJwk] });
});
afterAll(async () => {
  await emu.close();
  await new Promise((resolve) => outside.close(resolve));
});

async function emulatorNowSeconds(): Promise<number> {
  return Math.floor(Date.parse(await emu.advanceClock(0)) / 1000);
}

/** An id token of the emulator's test issuer, with extra claims if given. */
async function testIssuerToken(subject: string, extra: Json = {}): Promise<string> {
  const reply = await caller(emu.issuer, null)<Json>("POST", "/token", {
    body: { subject, ...extra },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.token as string;
}

interface Signed {
  iss: string;
  sub?: string;
  aud?: string | string[];
  claims?: Json;
  kid?: string;
}

/** A token signed here, valid on the emulator clock for ten minutes. */
async function signed(key: CryptoKey, options: Signed): Promise<string> {
  const now = await emulatorNowSeconds();
  const jwt = new SignJWT(options.claims ?? {})
    .setProtectedHeader({ alg: "ES256", kid: options.kid ?? "outside-1" })
    .setIssuer(options.iss)
    .setIssuedAt(now)
    .setExpirationTime(now + 600);
  if (options.sub !== undefined) jwt.setSubject(options.sub);
  if (options.aud !== undefined) jwt.setAudience(options.aud);
  return jwt.sign(key);
}

function exchange(token: string, identityUid: string): Promise<Reply<Json>> {
  return caller(emu.url, token)<Json>(
    "GET",
    `/sts/exchange?aud=${enc(emu.url)}&identity=${enc(identityUid)}`,
  );
}

async function identity(body: Json): Promise<string> {
  const reply = await owner<Json>("POST", `/iam/v2beta1/identities/${group}`, {
    body: { name: "exchanger", ...body },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.uid as string;
}

async function expectAccepted(token: string, uid: string): Promise<void> {
  const reply = await exchange(token, uid);
  expect(reply.status, reply.text).toBe(200);
  const claims = JSON.parse(
    Buffer.from(String(reply.body.token).split(".")[1], "base64url").toString(),
  ) as Json;
  expect(claims.sub).toBe(uid);
}

/** PERMISSION_DENIED naming the check; the answer never quotes the presented token or `secrets`. */
async function expectDenied(
  token: string,
  uid: string,
  check: string,
  secrets: string[] = [],
): Promise<void> {
  const reply = await exchange(token, uid);
  expect(reply.status, reply.text).toBe(403);
  expect(reply.body.code).toBe(7);
  expect(reply.body.message).toBe(
    `Permission denied: the OIDC token does not match identity ${uid} (${check})`,
  );
  for (const secret of [token, ...secrets]) expect(reply.text).not.toContain(secret);
}

describe("order: the identity first, then only an issuer it accepts (6.10 steps 1 and 2)", () => {
  it("an unknown identity is NOT_FOUND before the token is read or anything fetched", async () => {
    const before = outsideRequests;
    const token = await signed(outsideKey, { iss: outsideIssuer, sub: "x", aud: emu.url });
    for (const presented of [token, "not.a.jwt"]) {
      const reply = await exchange(presented, `${group}/0000000000000000`);
      expect(reply.status).toBe(404);
    }
    expect(outsideRequests).toBe(before);
  });

  it("an issuer the identity does not name is PERMISSION_DENIED (issuer) without fetching it", async () => {
    const exact = await identity({ claimMatch: { issuer: emu.issuer, subject: "x" } });
    const patterned = await identity({
      claimMatch: { issuerPattern: "https://token\\.example/.*", subject: "x" },
    });
    const before = outsideRequests;
    const token = await signed(outsideKey, { iss: outsideIssuer, sub: "x", aud: emu.url });
    await expectDenied(token, exact, "issuer");
    await expectDenied(token, patterned, "issuer");
    expect(outsideRequests).toBe(before);
  });

  it("an issuer a pattern admits is verified against the keys that issuer publishes", async () => {
    const uid = await identity({
      claimMatch: { issuerPattern: "http://127\\.0\\.0\\.1:[0-9]+/fake", subject: "svc" },
    });
    const before = outsideRequests;
    await expectAccepted(
      await signed(outsideKey, { iss: outsideIssuer, sub: "svc", aud: emu.url }),
      uid,
    );
    expect(outsideRequests).toBeGreaterThan(before);
    // Signed by a key the issuer does not publish: UNAUTHENTICATED.
    const forged = await signed(staticKey, { iss: outsideIssuer, sub: "svc", aud: emu.url });
    expect((await exchange(forged, uid)).status).toBe(401);
  });

  it("aud: trailing slashes are ignored, in linear time on a long run of them", async () => {
    const uid = await identity({ claimMatch: { issuer: emu.issuer, subject: "slash" } });
    const token = await testIssuerToken("slash");
    const trailing = await caller(emu.url, token)<Json>(
      "GET",
      `/sts/exchange?aud=${enc(`${emu.url}///`)}&identity=${enc(uid)}`,
    );
    expect(trailing.status, trailing.text).toBe(200);
    const inner = await caller(emu.url, token)<Json>(
      "GET",
      `/sts/exchange?aud=${enc(`${emu.url}${"/".repeat(2000)}x`)}&identity=${enc(uid)}`,
    );
    expect(inner.status, inner.text).toBe(400);
    // The regex /\/+$/ is quadratic here (minutes for this value); the trim is not.
    const long = `${"/".repeat(300_000)}x`;
    expect(withoutTrailingSlashes(long)).toBe(long);
    expect(withoutTrailingSlashes(`a${"/".repeat(300_000)}`)).toBe("a");
  }, 5000);

  it("a discovery document whose jwks_uri is no http(s) URL is UNAUTHENTICATED, not an internal failure", async () => {
    for (const path of ["no-url", "file-keys"]) {
      const issuer = outsideIssuer.replace(/fake$/, path);
      const uid = await identity({ claimMatch: { issuer, subject: "svc" } });
      const token = await signed(outsideKey, { iss: issuer, sub: "svc", aud: emu.url });
      const reply = await exchange(token, uid);
      expect(reply.status, reply.text).toBe(401);
      expect(reply.body.message).toContain("cannot be reached to check its signature");
      expect(reply.text).not.toContain(token);
    }
  });

  it("a pattern admits the whole issuer only: a partial match is PERMISSION_DENIED (issuer)", async () => {
    const uid = await identity({
      claimMatch: { issuerPattern: "127\\.0\\.0\\.1", subject: "svc" },
    });
    const before = outsideRequests;
    await expectDenied(
      await signed(outsideKey, { iss: outsideIssuer, sub: "svc", aud: emu.url }),
      uid,
      "issuer",
    );
    expect(outsideRequests).toBe(before);
  });

  it("a service principal is never exchangeable", async () => {
    const uid = await identity({ servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    await expectDenied(await testIssuerToken("anyone"), uid, "service principal");
    await expectDenied("not.a.jwt", uid, "service principal");
  });
});

describe("the exchange's request and answer (ExchangeRequest, RawToken)", () => {
  const form = (token: string, body: string, query = "") =>
    fetch(`${emu.url}/sts/exchange${query}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body,
    });

  it("POST with a form body, as the platform's SDK sends it; repeated keys; the query too", async () => {
    const uid = await identity({ claimMatch: { issuer: outsideIssuer, subject: "f" } });
    const token = await signed(outsideKey, { iss: outsideIssuer, sub: "f", aud: emu.url });
    for (const [body, query] of [
      [`aud=${enc(emu.url)}&identity=${enc(uid)}`, ""],
      [
        `aud=${enc(emu.url)}&aud=${enc(`${emu.url}/`)}&identity=${enc(uid)}&scopes=a&scopes=b&cap=CAP_IAM_GROUPS_LIST&identity_provider=`,
        "",
      ],
      [`identity=${enc(uid)}`, `?aud=${enc(emu.url)}`],
    ]) {
      const reply = await form(token, body, query);
      const answer = (await reply.json()) as Json;
      expect(reply.status, JSON.stringify(answer)).toBe(200);
      expect(Object.keys(answer).sort()).toEqual(["expiry", "token"]);
      const claims = JSON.parse(
        Buffer.from(String(answer.token).split(".")[1], "base64url").toString(),
      ) as Json;
      expect(claims.sub).toBe(uid);
      // RFC 3339, the token's own exp.
      expect(answer.expiry).toBe(new Date((claims.exp as number) * 1000).toISOString());
    }
  });

  it("a form without aud, or with another audience among them, is INVALID_ARGUMENT on aud", async () => {
    const uid = await identity({ claimMatch: { issuer: outsideIssuer, subject: "f" } });
    const token = await signed(outsideKey, { iss: outsideIssuer, sub: "f", aud: emu.url });
    for (const body of [
      `identity=${enc(uid)}`,
      `aud=${enc(emu.url)}&aud=https%3A%2F%2Fother.example&identity=${enc(uid)}`,
    ]) {
      const reply = await form(token, body);
      expect(reply.status).toBe(400);
      expect(((await reply.json()) as Json).message).toMatch(/^Invalid argument: aud: /);
    }
  });

  it("a JSON body is not read: INVALID_ARGUMENT on body", async () => {
    const uid = await identity({ claimMatch: { issuer: outsideIssuer, subject: "f" } });
    const token = await signed(outsideKey, { iss: outsideIssuer, sub: "f", aud: emu.url });
    const reply = await caller(emu.url, token)<Json>("POST", "/sts/exchange", {
      body: { aud: [emu.url], identity: uid },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/^Invalid argument: body: /);
  });

  it("another API route refuses a form body", async () => {
    const reply = await fetch(`${emu.url}/iam/v2beta1/groups/${group}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${emu.token}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "name=formed",
    });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as Json).message).toBe(
      "Invalid argument: body: Content-Type must be application/json, not application/x-www-form-urlencoded",
    );
  });
});

describe("claimMatch (6.10)", () => {
  it("subjectPattern admits whole subjects only", async () => {
    const uid = await identity({
      claimMatch: {
        issuer: emu.issuer,
        subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      },
    });
    await expectAccepted(await testIssuerToken("repo:acme/infra:ref:refs/heads/main"), uid);
    await expectAccepted(await testIssuerToken("repo:acme/infra:ref:refs/heads/release-2.1"), uid);
    for (const subject of [
      "repo:acme/infra:ref:refs/heads/feature-x",
      "repo:acme/infra:ref:refs/heads/main-evil",
      "xrepo:acme/infra:ref:refs/heads/main",
    ]) {
      await expectDenied(await testIssuerToken(subject), uid, "subject", [subject]);
    }
  });

  it("RE2-only syntax works at the exchange: (?i) and [[:digit:]]", async () => {
    const uid = await identity({
      claimMatch: { issuer: emu.issuer, subjectPattern: "(?i)BUILD-[[:digit:]]+" },
    });
    await expectAccepted(await testIssuerToken("build-42"), uid);
    await expectDenied(await testIssuerToken("build-x"), uid, "subject");
  });

  it("an exact subject must be equal", async () => {
    const uid = await identity({ claimMatch: { issuer: emu.issuer, subject: "alice" } });
    await expectAccepted(await testIssuerToken("alice"), uid);
    await expectDenied(await testIssuerToken("alice2"), uid, "subject", ["alice2"]);
  });

  it("audience: an element of aud must equal it; {base_url} alone is then not enough", async () => {
    const uid = await identity({
      claimMatch: { issuer: emu.issuer, subject: "a", audience: "https://api.example" },
    });
    await expectAccepted(await testIssuerToken("a", { audience: "https://api.example" }), uid);
    await expectDenied(await testIssuerToken("a"), uid, "audience");
    await expectDenied(
      await testIssuerToken("a", { audience: "https://api.example/" }),
      uid,
      "audience",
    );
  });

  it("audiencePattern: an element of aud must match it whole", async () => {
    const uid = await identity({
      claimMatch: {
        issuer: outsideIssuer,
        subject: "a",
        audiencePattern: "https://api\\.example/.*",
      },
    });
    const token = (aud: string | string[]) =>
      signed(outsideKey, { iss: outsideIssuer, sub: "a", aud });
    await expectAccepted(await token("https://api.example/v1"), uid);
    await expectAccepted(await token(["https://other.example", "https://api.example/"]), uid);
    await expectDenied(await token("https://api.example"), uid, "audience");
    await expectDenied(await token("xhttps://api.example/v1"), uid, "audience");
  });

  it("no audience named: aud must hold {base_url}, a trailing / ignored, as a string or in an array", async () => {
    const uid = await identity({ claimMatch: { issuer: outsideIssuer, subject: "a" } });
    const token = (aud?: string | string[]) =>
      signed(outsideKey, { iss: outsideIssuer, sub: "a", aud });
    await expectAccepted(await token(emu.url), uid);
    await expectAccepted(await token(`${emu.url}/`), uid);
    await expectAccepted(await token(["https://other.example", emu.url]), uid);
    await expectDenied(await token("https://other.example"), uid, "audience");
    await expectDenied(await token(["https://other.example"]), uid, "audience");
    await expectDenied(await token(), uid, "audience");
  });

  it("no audience named: the host of {auth_url} is the default audience too", async () => {
    const uid = await identity({ claimMatch: { issuer: outsideIssuer, subject: "a" } });
    const token = (aud?: string | string[]) =>
      signed(outsideKey, { iss: outsideIssuer, sub: "a", aud });
    const host = new URL(emu.url).host;
    await expectAccepted(await token(host), uid);
    await expectAccepted(await token(["https://other.example", host]), uid);
    await expectDenied(await token(`${host}.example`), uid, "audience");
    await expectDenied(await token(new URL(emu.url).hostname), uid, "audience");
  });

  it("claims: strings equal, numbers and booleans as their JSON text, objects, arrays and null never", async () => {
    const uid = await identity({
      claimMatch: {
        issuer: emu.issuer,
        subject: "ci",
        claims: { repository_owner: "acme", run_attempt: "2", ref_protected: "true" },
      },
    });
    const good = { repository_owner: "acme", run_attempt: 2, ref_protected: true };
    await expectAccepted(await testIssuerToken("ci", { claims: good }), uid);
    await expectAccepted(
      await testIssuerToken("ci", { claims: { ...good, run_attempt: "2", ref_protected: "true" } }),
      uid,
    );
    const denied: Array<[Json, string]> = [
      [{ ...good, repository_owner: "acme-evil" }, 'claim "repository_owner"'],
      [{ ...good, repository_owner: "ACME" }, 'claim "repository_owner"'],
      [{ ...good, repository_owner: undefined }, 'claim "repository_owner"'],
      [{ ...good, repository_owner: { name: "acme" } }, 'claim "repository_owner"'],
      [{ ...good, repository_owner: ["acme"] }, 'claim "repository_owner"'],
      [{ ...good, repository_owner: null }, 'claim "repository_owner"'],
      [{ ...good, run_attempt: 2.5 }, 'claim "run_attempt"'],
      [{ ...good, ref_protected: false }, 'claim "ref_protected"'],
    ];
    for (const [claims, check] of denied) {
      await expectDenied(await testIssuerToken("ci", { claims }), uid, check, ["acme-evil"]);
    }
  });

  it("claimPatterns: present and matching whole; a name in both maps must satisfy both", async () => {
    const uid = await identity({
      claimMatch: {
        issuer: emu.issuer,
        subject: "ci",
        claims: { ref: "refs/heads/main" },
        claimPatterns: { ref: "refs/heads/(main|dev)", run_number: "[0-9]+" },
      },
    });
    await expectAccepted(
      await testIssuerToken("ci", { claims: { ref: "refs/heads/main", run_number: 917 } }),
      uid,
    );
    const denied: Array<[Json, string]> = [
      [{ ref: "refs/heads/dev", run_number: 917 }, 'claim "ref"'],
      [{ ref: "refs/heads/main", run_number: "917a" }, 'claim "run_number"'],
      [{ ref: "refs/heads/main", run_number: true }, 'claim "run_number"'],
      [{ ref: "refs/heads/main" }, 'claim "run_number"'],
    ];
    for (const [claims, check] of denied) {
      await expectDenied(await testIssuerToken("ci", { claims }), uid, check);
    }
    const patternOnly = await identity({
      claimMatch: {
        issuer: emu.issuer,
        subject: "ci",
        claimPatterns: { ref: "refs/heads/(main|dev)" },
      },
    });
    await expectAccepted(
      await testIssuerToken("ci", { claims: { ref: "refs/heads/dev" } }),
      patternOnly,
    );
    await expectDenied(
      await testIssuerToken("ci", { claims: { ref: "refs/heads/main2" } }),
      patternOnly,
      'claim "ref"',
    );
  });
});

describe("the test issuer's extra claims (6.10)", () => {
  it.each(["iss", "sub", "aud", "exp", "iat", "nbf"])(
    "claims.%s is refused: the test issuer sets it",
    async (name) => {
      const reply = await caller(emu.issuer, null)<Json>("POST", "/token", {
        body: { subject: "x", claims: { [name]: "forged" } },
      });
      expect(reply.status).toBe(400);
      expect(String(reply.body.message)).toMatch(
        new RegExp(`^Invalid argument: claims\\.${name}: is set by the test issuer`),
      );
    },
  );

  it("claims must be an object, and end up in the id token as given", async () => {
    const bad = await caller(emu.issuer, null)<Json>("POST", "/token", {
      body: { subject: "x", claims: ["a"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Invalid argument: claims: must be an object");
    const token = await testIssuerToken("x", { claims: { n: 1, nested: { a: [true] } } });
    const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as Json;
    expect(payload).toMatchObject({ n: 1, nested: { a: [true] }, sub: "x", iss: emu.issuer });
  });
});

describe("staticKeys (6.10, 6.11)", () => {
  const ISSUER = () => `${outsideIssuer}-static`;

  async function staticIdentity(overrides: Json = {}): Promise<string> {
    return identity({
      staticKeys: { issuer: ISSUER(), subject: "deployer", issuerKeys: staticJwks, ...overrides },
    });
  }

  const token = (options: Partial<Signed> = {}) =>
    signed(staticKey, {
      iss: ISSUER(),
      sub: "deployer",
      aud: emu.url,
      kid: "static-1",
      ...options,
    });

  it("a token signed by a registered key is accepted without fetching anything", async () => {
    const uid = await staticIdentity();
    const before = outsideRequests;
    await expectAccepted(await token(), uid);
    expect(outsideRequests).toBe(before);
  });

  it("a token signed by any other key is UNAUTHENTICATED, even one its issuer would publish", async () => {
    const uid = await identity({
      staticKeys: { issuer: outsideIssuer, subject: "deployer", issuerKeys: staticJwks },
    });
    const before = outsideRequests;
    const published = await signed(outsideKey, {
      iss: outsideIssuer,
      sub: "deployer",
      aud: emu.url,
    });
    const reply = await exchange(published, uid);
    expect(reply.status).toBe(401);
    expect(outsideRequests).toBe(before);
    await expectAccepted(await token({ iss: outsideIssuer }), uid);
  });

  it("issuer and subject must be equal", async () => {
    const uid = await staticIdentity();
    await expectDenied(await token({ sub: "deployer2" }), uid, "subject", ["deployer2"]);
    await expectDenied(await token({ iss: `${ISSUER()}/other` }), uid, "issuer");
  });

  it("audiences[0] when set, else {base_url}", async () => {
    const plain = await staticIdentity();
    await expectDenied(await token({ aud: "https://other.example" }), plain, "audience");
    const named = await staticIdentity({ audiences: ["https://aud.example"] });
    await expectAccepted(await token({ aud: ["https://aud.example", "x"] }), named);
    await expectDenied(await token({ aud: emu.url }), named, "audience");
  });

  it("past expirationTime the identity stays, the exchange answers static keys expired, and a new time revives it", async () => {
    const nowMs = (await emulatorNowSeconds()) * 1000;
    const uid = await staticIdentity({ expirationTime: new Date(nowMs + DAY_MS).toISOString() });
    await expectAccepted(await token(), uid);
    await emu.advanceClock(2 * 24 * 3600);
    await expectDenied(await token(), uid, "static keys expired");
    expect((await owner("GET", `/iam/v2beta1/identities/${uid}`)).status).toBe(200);
    const later = (await emulatorNowSeconds()) * 1000;
    const tooFar = await owner<Json>("PATCH", `/iam/v2beta1/identities/${uid}`, {
      body: { staticKeys: { expirationTime: new Date(later + 366 * DAY_MS).toISOString() } },
    });
    expect(tooFar.status).toBe(400);
    const revived = await owner<Json>("PATCH", `/iam/v2beta1/identities/${uid}`, {
      body: { staticKeys: { expirationTime: new Date(later + 30 * DAY_MS).toISOString() } },
    });
    expect(revived.status, revived.text).toBe(200);
    await expectAccepted(await token(), uid);
  });
});

describe("awsIdentity through the test issuer's aws claim (6.10)", () => {
  const aws = {
    account: "123456789012",
    arn: "arn:aws:iam::123456789012:role/deploy-prod",
    userId: "AROAEXAMPLE:ci",
  };
  let uid: string;

  beforeAll(async () => {
    uid = await identity({
      awsIdentity: {
        awsAccount: "123456789012",
        arnPattern: "arn:aws:iam::123456789012:role/deploy-.*",
        userId: "AROAEXAMPLE:ci",
      },
    });
  });

  it("a test-issuer token whose aws claim matches is accepted", async () => {
    await expectAccepted(await testIssuerToken("whoever", { claims: { aws } }), uid);
  });

  it.each([
    ["another account", { ...aws, account: "210987654321" }, "aws account"],
    [
      "an arn the pattern does not admit",
      { ...aws, arn: "arn:aws:iam::123456789012:user/bob" },
      "aws arn",
    ],
    ["an arn matching only in part", { ...aws, arn: `x${aws.arn}` }, "aws arn"],
    ["another userId", { ...aws, userId: "AROAEXAMPLE:other" }, "aws userId"],
    ["a member that is not a string", { ...aws, account: 123456789012 }, 'claim "aws"'],
    ["an aws claim that is not an object", "123456789012", 'claim "aws"'],
  ])("%s is PERMISSION_DENIED", async (_what, claim, check) => {
    await expectDenied(await testIssuerToken("whoever", { claims: { aws: claim } }), uid, check, [
      "AROAEXAMPLE:other",
    ]);
  });

  it("a token without the aws claim, or from another issuer, is PERMISSION_DENIED", async () => {
    await expectDenied(await testIssuerToken("whoever"), uid, 'claim "aws"');
    const before = outsideRequests;
    const other = await signed(outsideKey, {
      iss: outsideIssuer,
      sub: "whoever",
      aud: emu.url,
      claims: { aws },
    });
    await expectDenied(other, uid, "issuer");
    expect(outsideRequests).toBe(before);
  });
});
