/**
 * The token exchange for the new identity kinds (addendum 6.10), attacked by an
 * unauthenticated caller: a token for the wrong audience, patterns that look like they
 * accept more than they do (or do accept everything, yet still pin the rest), and a
 * `staticKeys` identity, whose registered keys are the only ones that verify and whose
 * issuer is never fetched from. A key that `staticKeys` accepts at create must be one
 * the exchange can verify with: P-521 (ES512) is accepted by both; curves no accepted
 * algorithm signs with are refused at create.
 */
import { generateKeyPairSync, sign } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  type JWK,
  type KeyObject,
  SignJWT,
} from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { caller, enc, reasonOf } from "../../support/emulator-http";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let owner: ReturnType<typeof caller>;
/** A loopback "issuer" that records every request: a staticKeys identity must never call it. */
let issuer: Server;
let issuerUrl = "";
const seen: string[] = [];

const now = () => Math.floor(Date.now() / 1000);

function exchange(oidcToken: string, identity: string) {
  return caller(emu.url, oidcToken)<Json>(
    "GET",
    `/sts/exchange?aud=${enc(emu.url)}&identity=${enc(identity)}`,
  );
}

async function identity(body: Json): Promise<string> {
  const reply = await owner<Json>("POST", `/iam/v2beta1/identities/${emu.rootGroupUid}`, {
    body: { name: "kind", ...body },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.uid as string;
}

/** A `staticKeys` identity: the loopback issuer, subject "ci", `jwk` its one key (stored as given). */
function keyed(jwk: object, name = "kind", more: Json = {}): Promise<string> {
  const issuerKeys = JSON.stringify({ keys: [jwk] });
  return identity({ name, staticKeys: { issuer: issuerUrl, subject: "ci", issuerKeys, ...more } });
}

interface Signer {
  jwk: JWK;
  sign(claims: Json): Promise<string>;
}

async function signer(alg: string, options: { crv?: string } = {}): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...options });
  const kid = `${alg}-${Math.random().toString(16).slice(2, 8)}`;
  return {
    jwk: { ...(await exportJWK(publicKey)), kid },
    sign: (claims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg, kid, typ: "JWT" })
        .sign(privateKey as CryptoKey | KeyObject),
  };
}

function expectMismatch(reply: { status: number; body: Json }, uid: string, check: string) {
  expect(reply.status).toBe(403);
  expect(reasonOf(reply.body)).toBe("PERMISSION_DENIED");
  expect(reply.body.message).toBe(
    `Permission denied: the OIDC token does not match identity ${uid} (${check})`,
  );
}

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  owner = caller(emu.url, emu.token);
  issuer = createServer((req, res) => {
    seen.push(req.url ?? "");
    res.writeHead(404, { "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((resolve) => issuer.listen(0, "127.0.0.1", resolve));
  issuerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await emu?.close();
  await new Promise<void>((resolve) => {
    issuer.closeAllConnections();
    issuer.close(() => resolve());
  });
});

describe("staticKeys: the registered keys verify, nothing is fetched", () => {
  let key: Signer;
  let uid = "";
  let pinned = "";

  beforeAll(async () => {
    key = await signer("ES256");
    uid = await keyed(key.jwk);
    pinned = await keyed(key.jwk, "kind", { audiences: ["https://api.example"] });
  });

  it("a token of the registered key for {base_url}: accepted, and the issuer is never called", async () => {
    const token = await key.sign({ iss: issuerUrl, sub: "ci", aud: emu.url, exp: now() + 600 });
    const reply = await exchange(token, uid);
    expect(reply.status, reply.text).toBe(200);
    expect(seen).toEqual([]);
  });

  it("the wrong audience: PERMISSION_DENIED (audience), for the default rule and for audiences[0]", async () => {
    const other = await key.sign({
      iss: issuerUrl,
      sub: "ci",
      aud: "https://elsewhere.example",
      exp: now() + 600,
    });
    expectMismatch(await exchange(other, uid), uid, "audience");
    const none = await key.sign({ iss: issuerUrl, sub: "ci", exp: now() + 600 });
    expectMismatch(await exchange(none, uid), uid, "audience");
    // An identity pinned to its own audience refuses one for {base_url}.
    const base = await key.sign({ iss: issuerUrl, sub: "ci", aud: emu.url, exp: now() + 600 });
    expectMismatch(await exchange(base, pinned), pinned, "audience");
    const right = await key.sign({
      iss: issuerUrl,
      sub: "ci",
      aud: ["x", "https://api.example"],
      exp: now() + 600,
    });
    expect((await exchange(right, pinned)).status).toBe(200);
    expect(seen).toEqual([]);
  });

  it("a key the issuer may publish but the identity did not register: UNAUTHENTICATED, nothing fetched", async () => {
    const attacker = await signer("ES256");
    // Same kid as the registered key: the signature decides.
    const forged = await new SignJWT({ iss: issuerUrl, sub: "ci", aud: emu.url, exp: now() + 600 })
      .setProtectedHeader({ alg: "ES256", kid: key.jwk.kid })
      .sign((await generateKeyPair("ES256")).privateKey as CryptoKey | KeyObject);
    for (const token of [
      await attacker.sign({ iss: issuerUrl, sub: "ci", aud: emu.url, exp: now() + 600 }),
      forged,
    ]) {
      const reply = await exchange(token, uid);
      expect(reply.status).toBe(401);
      expect(reasonOf(reply.body)).toBe("UNAUTHENTICATED");
    }
    expect(seen).toEqual([]);
  });
});

describe("keys staticKeys accepts are keys the exchange verifies with", () => {
  it.each([
    ["P-256", "ES256", {}],
    ["P-384", "ES384", {}],
    ["P-521", "ES512", {}],
    ["RSA", "RS256", {}],
    ["RSA-PSS", "PS256", {}],
    ["Ed25519", "EdDSA", { crv: "Ed25519" }],
  ])("a %s key: created, and its %s token exchanged", async (_key, alg, options) => {
    const key = await signer(alg, options);
    const uid = await keyed(key.jwk);
    const token = await key.sign({ iss: issuerUrl, sub: "ci", aud: emu.url, exp: now() + 600 });
    const reply = await exchange(token, uid);
    expect(reply.status, reply.text).toBe(200);
    expect(seen).toEqual([]);
  });

  it("an RSA key under 2048 bits: stored as given (the service does not check), and its token refused", async () => {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const jwk = publicKey.export({ format: "jwk" });
    const created = await keyed(jwk, "small key");
    // Signed by hand: the JWT library refuses keys this small, as the verifier does.
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unsigned = `${part({ alg: "RS256" })}.${part({ iss: issuerUrl, sub: "ci", aud: emu.url, exp: now() + 600 })}`;
    const token = `${unsigned}.${sign("sha256", Buffer.from(unsigned), privateKey).toString("base64url")}`;
    const refused = await exchange(token, created);
    expect(refused.status, refused.text).toBe(401);
    expect(seen).toEqual([]);
  });

  it.each([
    ["secp256k1", "EC"],
    ["X25519 (a key-agreement curve)", "OKP"],
    ["Ed448", "OKP"],
  ])(
    "a %s key, which no accepted algorithm verifies with: stored as given, nothing exchanged with it",
    async (curve, kty) => {
      const { publicKey } =
        curve === "secp256k1"
          ? generateKeyPairSync("ec", { namedCurve: "secp256k1" })
          : curve.startsWith("X25519")
            ? generateKeyPairSync("x25519")
            : generateKeyPairSync("ed448");
      const jwk = publicKey.export({ format: "jwk" });
      expect(jwk.kty).toBe(kty);
      const created = await keyed(jwk, "odd curve");
      // A token signed by a P-256 key with the same claims: no registered key verifies it.
      const other = await signer("ES256", {});
      const token = await other.sign({ iss: issuerUrl, sub: "ci", aud: emu.url, exp: now() + 600 });
      expect((await exchange(token, created)).status).toBe(401);
    },
  );
});

describe("a token for the wrong audience, other kinds", () => {
  it("claimMatch with an audience: a token for {base_url} is refused (audience)", async () => {
    const uid = await identity({
      claimMatch: { issuer: emu.issuer, subject: "alice", audience: "https://api.example" },
    });
    expectMismatch(await exchange(await emu.oidcToken("alice"), uid), uid, "audience");
    const right = await emu.oidcToken("alice", { audience: "https://api.example" });
    expect((await exchange(right, uid)).status).toBe(200);
  });

  it("awsIdentity: a token without the aws claim, or for another audience, is refused", async () => {
    const uid = await identity({
      awsIdentity: {
        awsAccount: "123456789012",
        arn: "arn:aws:iam::123456789012:role/ci",
        userId: "AROA1234",
      },
    });
    expectMismatch(await exchange(await emu.oidcToken("alice"), uid), uid, 'claim "aws"');
    const aws = {
      account: "123456789012",
      arn: "arn:aws:iam::123456789012:role/ci",
      userId: "AROA1234",
    };
    const mint = async (audience?: string) => {
      const response = await fetch(`${emu.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          subject: "aws",
          claims: { aws },
          ...(audience ? { audience } : {}),
        }),
      });
      return ((await response.json()) as { token: string }).token;
    };
    // A matching aws claim minted for another service is not replayable here.
    expectMismatch(await exchange(await mint("https://other.example"), uid), uid, "audience");
    expect((await exchange(await mint(), uid)).status).toBe(200);
  });
});

describe("patterns match the whole value, and a match-all pattern pins nothing else away", () => {
  async function oidc(subject: string, claims?: Json): Promise<string> {
    const response = await fetch(`${emu.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ subject, ...(claims ? { claims } : {}) }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { token: string }).token;
  }

  it.each([
    ["an unparenthesised alternation", "repo:acme/infra|repo:acme/web"],
    ["a parenthesised alternation", "repo:acme/(infra|web)"],
  ])("%s accepts the listed subjects only", async (_kind, subjectPattern) => {
    const uid = await identity({ claimMatch: { issuer: emu.issuer, subjectPattern } });
    for (const subject of ["repo:acme/infra", "repo:acme/web"]) {
      expect((await exchange(await oidc(subject), uid)).status, subject).toBe(200);
    }
    for (const subject of [
      "repo:acme/infra-evil",
      "repo:acme/infra:ref:refs/heads/x",
      "xrepo:acme/web",
      "evil/repo:acme/web",
      "repo:acme/web\nrepo:evil",
    ]) {
      expectMismatch(await exchange(await oidc(subject), uid), uid, "subject");
    }
  });

  it("`.*` in a subject pattern does not cross a line break", async () => {
    const uid = await identity({
      claimMatch: { issuer: emu.issuer, subjectPattern: "repo:acme/.*" },
    });
    expect((await exchange(await oidc("repo:acme/anything"), uid)).status).toBe(200);
    expectMismatch(await exchange(await oidc("repo:acme/x\nrepo:evil/y"), uid), uid, "subject");
    expectMismatch(await exchange(await oidc("repo:evil/x"), uid), uid, "subject");
  });

  it("a match-all subject pattern still needs the pinned claims, and `.*` on a claim still needs the claim", async () => {
    const uid = await identity({
      claimMatch: {
        issuer: emu.issuer,
        subjectPattern: ".*",
        claims: { repository_owner: "acme" },
        claimPatterns: { workflow: ".*" },
      },
    });
    expect(
      (await exchange(await oidc("anyone", { repository_owner: "acme", workflow: "" }), uid))
        .status,
    ).toBe(200);
    expectMismatch(
      await exchange(await oidc("anyone", { repository_owner: "evil", workflow: "w" }), uid),
      uid,
      'claim "repository_owner"',
    );
    // Missing, an object or an array never matches, not even `.*`.
    for (const workflow of [undefined, { name: "w" }, ["w"], null]) {
      const claims: Json = { repository_owner: "acme" };
      if (workflow !== undefined) claims.workflow = workflow;
      expectMismatch(await exchange(await oidc("anyone", claims), uid), uid, 'claim "workflow"');
    }
  });

  it("a match-all issuer pattern admits no issuer that is not an http(s) URL, and fetches nothing for it", async () => {
    const uid = await identity({
      claimMatch: { issuerPattern: ".*", subject: "ci" },
    });
    const key = await signer("ES256");
    for (const iss of ["file:///etc/passwd", "javascript:alert(1)", "ci", ""]) {
      const token = await key.sign({ iss, sub: "ci", aud: emu.url, exp: now() + 600 });
      expectMismatch(await exchange(token, uid), uid, "issuer");
    }
    expect(seen).toEqual([]);
  });
});
