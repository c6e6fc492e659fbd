/**
 * Token exchange, attacked by an unauthenticated caller (addendum 6.10): the identity is
 * looked up first, nothing the presented token names is ever fetched, the signature is
 * checked only against the keys of the identity's own issuer, and the OIDC token's `aud`
 * must hold `{base_url}`. A loopback "issuer" records every request it receives.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { caller, enc, reasonOf } from "../../support/emulator-http";

type Json = Record<string, unknown>;

interface FakeIssuer {
  url: string;
  /** Paths requested, in order. */
  seen: string[];
  /** Signs an id token with this issuer's key. */
  sign(claims: Json): Promise<string>;
  close(): Promise<void>;
}

/** An OIDC issuer on loopback: discovery, JWKS, and a key to sign with. */
async function fakeIssuer(options: { discoveryIssuer?: string } = {}): Promise<FakeIssuer> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "fake-1", alg: "ES256", use: "sig" };
  const seen: string[] = [];
  let url = "";
  const server: Server = createServer((req: IncomingMessage, res) => {
    seen.push(req.url ?? "");
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration") {
      res.end(
        JSON.stringify({ issuer: options.discoveryIssuer ?? url, jwks_uri: `${url}/jwks.json` }),
      );
    } else if (req.url === "/jwks.json") {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end("{}");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get url() {
      return url;
    },
    seen,
    sign: (claims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: "ES256", kid: "fake-1", typ: "JWT" })
        .sign(privateKey),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let emu: TestEmulator;
let owner: ReturnType<typeof caller>;
let attacker: FakeIssuer;
let trusted: FakeIssuer;
/** Identity of the emulator's test issuer, subject alice. */
let alice = "";
/** Identity of the trusted loopback issuer, subject ci. */
let ci = "";

const now = () => Math.floor(Date.now() / 1000);

function exchange(oidcToken: string, identity: string) {
  return caller(emu.url, oidcToken)<Json>(
    "GET",
    `/sts/exchange?aud=${enc(emu.url)}&identity=${enc(identity)}`,
  );
}

async function identity(issuer: string, subject: string): Promise<string> {
  const reply = await owner<Json>("POST", `/iam/v2beta1/identities/${emu.rootGroupUid}`, {
    body: { name: `${subject} identity`, claimMatch: { issuer, subject } },
  });
  expect(reply.status).toBe(200);
  return reply.body.uid as string;
}

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  owner = caller(emu.url, emu.token);
  attacker = await fakeIssuer();
  trusted = await fakeIssuer();
  alice = await identity(emu.issuer, "alice");
  ci = await identity(trusted.url, "ci");
});

afterAll(async () => {
  await emu?.close();
  await attacker?.close();
  await trusted?.close();
});

describe("nothing the presented token names is fetched", () => {
  it("a token naming another issuer, for an existing identity: PERMISSION_DENIED (issuer), no fetch", async () => {
    const token = await attacker.sign({
      iss: attacker.url,
      sub: "alice",
      aud: emu.url,
      exp: now() + 600,
    });
    const reply = await exchange(token, alice);
    expect(reply.status).toBe(403);
    expect(reply.body.message).toBe(
      `Permission denied: the OIDC token does not match identity ${alice} (issuer)`,
    );
    expect(attacker.seen).toEqual([]);
    expect(reply.text.includes(token)).toBe(false);
  });

  it("the same token for a missing identity: NOT_FOUND, no fetch", async () => {
    const token = await attacker.sign({
      iss: attacker.url,
      sub: "x",
      aud: emu.url,
      exp: now() + 600,
    });
    const reply = await exchange(token, `${emu.rootGroupUid}/0000000000000000`);
    expect(reply.status).toBe(404);
    expect(attacker.seen).toEqual([]);
  });

  it("an identity whose issuer cannot be reached: UNAUTHENTICATED", async () => {
    const unreachable = "http://127.0.0.1:9/oidc";
    const uid = await identity(unreachable, "lost");
    const token = await attacker.sign({
      iss: unreachable,
      sub: "lost",
      aud: emu.url,
      exp: now() + 600,
    });
    const reply = await exchange(token, uid);
    expect(reply.status).toBe(401);
    expect(reasonOf(reply.body)).toBe("UNAUTHENTICATED");
    expect(attacker.seen).toEqual([]);
  });
});

describe("the identity's own issuer", () => {
  it("a token of the identity's issuer, for {base_url}, is exchanged; only that issuer is asked", async () => {
    const token = await trusted.sign({
      iss: trusted.url,
      sub: "ci",
      aud: emu.url,
      exp: now() + 600,
    });
    const reply = await exchange(token, ci);
    expect(reply.status).toBe(200);
    expect(typeof reply.body.token).toBe("string");
    expect(trusted.seen).toEqual(["/.well-known/openid-configuration", "/jwks.json"]);
  });

  it("the identity's issuer name with another issuer's key: UNAUTHENTICATED", async () => {
    const forged = await attacker.sign({
      iss: trusted.url,
      sub: "ci",
      aud: emu.url,
      exp: now() + 600,
    });
    const reply = await exchange(forged, ci);
    expect(reply.status).toBe(401);
    expect(attacker.seen).toEqual([]);
  });

  it("a discovery document naming another issuer is not trusted", async () => {
    const liar = await fakeIssuer({ discoveryIssuer: "https://elsewhere.example" });
    try {
      const uid = await identity(liar.url, "liar");
      const token = await liar.sign({ iss: liar.url, sub: "liar", aud: emu.url, exp: now() + 600 });
      const reply = await exchange(token, uid);
      expect(reply.status).toBe(401);
    } finally {
      await liar.close();
    }
  });
});

describe("the OIDC token's audience must hold {base_url}", () => {
  const audiences: Array<[string, unknown, number]> = [
    ["{base_url}", "BASE", 200],
    ["{base_url} with a trailing slash", "BASE/", 200],
    ["an array holding {base_url}", ["https://other.example", "BASE"], 200],
    ["another audience", "https://other.example", 403],
    ["an array without {base_url}", ["https://other.example"], 403],
    ["no audience", undefined, 403],
  ];

  it.each(audiences)("%s: %s", async (_what, aud, status) => {
    const resolved = Array.isArray(aud)
      ? aud.map((a) => String(a).replace("BASE", emu.url))
      : typeof aud === "string"
        ? aud.replace("BASE", emu.url)
        : undefined;
    const token = await trusted.sign({
      iss: trusted.url,
      sub: "ci",
      aud: resolved,
      exp: now() + 600,
    });
    const reply = await exchange(token, ci);
    expect(reply.status).toBe(status);
    if (status === 403) {
      expect(reply.body.message).toBe(
        `Permission denied: the OIDC token does not match identity ${ci} (audience)`,
      );
    }
  });

  it("the test issuer's tokens carry {base_url} by default, and another audience on request", async () => {
    expect((await exchange(await emu.oidcToken("alice"), alice)).status).toBe(200);
    const other = await exchange(
      await emu.oidcToken("alice", { audience: "https://other.example" }),
      alice,
    );
    expect(other.status).toBe(403);
    expect(String(other.body.message)).toMatch(/\(audience\)$/);
    const wrongSubject = await exchange(await emu.oidcToken("bob"), alice);
    expect(String(wrongSubject.body.message)).toMatch(/\(subject\)$/);
  });
});
