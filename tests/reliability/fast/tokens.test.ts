/**
 * Token checks, attacked with tokens forged from the emulator's own signing key (read
 * from its `--data` file), so that each claim check is tested alone: `alg: none`, wrong
 * algorithm, wrong key, wrong audience or issuer, expired, not yet valid, missing
 * `exp`, unknown `kid`, and an OIDC token replayed to assume another identity. And the
 * SDK: a bearer token only ever goes to the configured host (no redirects followed, no
 * page token or uid can point a request elsewhere, the OIDC token only to the auth URL).
 */
import * as fs from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { exchangeTokenSource, IrmClient, isUnauthenticated } from "../../../sdk/index";

let emu: TestEmulator;
let dataDir: string;
let apiKey: JWK;
let oidcKey: JWK;
let ownerUid: string;

/** The saved state's signing keys (private JWKs, ES256). */
interface SavedKeys {
  keys: { api: JWK; oidc: JWK };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-reliability-tokens-"));
  const dataFile = path.join(dataDir, "state.json");
  emu = await startTestEmulator({ dataFile });
  const saved = JSON.parse(fs.readFileSync(dataFile, "utf8")) as SavedKeys;
  apiKey = saved.keys.api;
  oidcKey = saved.keys.oidc;
  ownerUid = JSON.parse(Buffer.from(emu.token.split(".")[1], "base64url").toString("utf8"))
    .sub as string;
});

afterAll(async () => {
  await emu?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Asserts `secret` is not in `text` without printing either on failure: a failed
 * \`not.toContain\` would put the token into the test output.
 */
function expectAbsent(text: string, secret: string): void {
  expect(text.includes(secret), "a token appears where it must not").toBe(false);
}

interface Claims {
  iss?: string;
  aud?: string;
  sub?: string;
  exp?: number;
  nbf?: number;
  iat?: number;
}

/** An API token signed with `key` (the emulator's own unless said otherwise). */
async function forge(
  claims: Claims,
  options: { key?: JWK; alg?: string; kid?: string; crit?: boolean } = {},
): Promise<string> {
  const key = options.key ?? apiKey;
  const alg = options.alg ?? "ES256";
  const header: Record<string, unknown> = { alg, kid: options.kid ?? apiKey.kid, typ: "JWT" };
  if (options.crit) {
    header.crit = ["x-must-understand"];
    header["x-must-understand"] = true;
  }
  const jwt = new SignJWT({ ...claims }).setProtectedHeader(header as { alg: string });
  const signingKey = alg.startsWith("HS")
    ? new TextEncoder().encode(JSON.stringify(key))
    : await importJWK(key, alg);
  // jose refuses unknown crit parameters when signing too: allow this one explicitly.
  return options.crit
    ? jwt.sign(signingKey, { crit: { "x-must-understand": true } })
    : jwt.sign(signingKey);
}

const validClaims = (): Claims => ({
  iss: emu.url,
  aud: emu.url,
  sub: ownerUid,
  iat: nowSeconds(),
  nbf: nowSeconds(),
  exp: nowSeconds() + 600,
});

async function callWith(token: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${emu.url}/iam/v2beta1/groups/${emu.rootGroupUid}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, text: await response.text() };
}

function unsigned(claims: Claims): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "none", typ: "JWT" })}.${encode(claims)}.`;
}

describe("API tokens the emulator refuses", () => {
  it("control: a token forged with the real key and right claims is accepted", async () => {
    expect((await callWith(await forge(validClaims()))).status).toBe(200);
  });

  const cases: Array<[string, () => Promise<string>]> = [
    ["alg none, no signature", async () => unsigned(validClaims())],
    [
      "alg none, signature of a real token kept",
      async () => {
        const [, payload, signature] = (await forge(validClaims())).split(".");
        const header = Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url");
        return `${header}.${payload}.${signature}`;
      },
    ],
    [
      "HS256 keyed with the public key (algorithm confusion)",
      async () => {
        const { d: _private, ...publicJwk } = apiKey;
        return forge(validClaims(), { alg: "HS256", key: publicJwk });
      },
    ],
    [
      "ES384 with a key of its own under the real kid",
      async () => {
        const { privateKey } = await generateKeyPair("ES384", { extractable: true });
        return forge(validClaims(), { alg: "ES384", key: await exportJWK(privateKey) });
      },
    ],
    [
      "RS256 with a key of its own under the real kid",
      async () => {
        const { privateKey } = await generateKeyPair("RS256", { extractable: true });
        return forge(validClaims(), { alg: "RS256", key: await exportJWK(privateKey) });
      },
    ],
    [
      "ES256 with another key under the real kid",
      async () => {
        const { privateKey } = await generateKeyPair("ES256", { extractable: true });
        return forge(validClaims(), { key: await exportJWK(privateKey) });
      },
    ],
    [
      "signed with the OIDC test issuer's key",
      async () => forge(validClaims(), { key: oidcKey, kid: oidcKey.kid }),
    ],
    ["an unknown kid", async () => forge(validClaims(), { kid: "api-2" })],
    ["another audience", async () => forge({ ...validClaims(), aud: "https://api.other.example" })],
    ["no audience", async () => forge({ ...validClaims(), aud: undefined })],
    ["another issuer", async () => forge({ ...validClaims(), iss: "https://auth.other.example" })],
    ["no issuer", async () => forge({ ...validClaims(), iss: undefined })],
    [
      "expired",
      async () => forge({ ...validClaims(), iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 }),
    ],
    ["not yet valid", async () => forge({ ...validClaims(), nbf: nowSeconds() + 3600 })],
    ["no exp", async () => forge({ ...validClaims(), exp: undefined })],
    ["no subject", async () => forge({ ...validClaims(), sub: undefined })],
    [
      "a subject that is no identity",
      async () => forge({ ...validClaims(), sub: `${emu.rootGroupUid}/0000000000000000` }),
    ],
    ["an unknown critical header", async () => forge(validClaims(), { crit: true })],
    [
      "claims changed after signing",
      async () => {
        const [header, , signature] = (await forge(validClaims())).split(".");
        const payload = Buffer.from(
          JSON.stringify({ ...validClaims(), exp: nowSeconds() + 10 * 365 * 86400 }),
        ).toString("base64url");
        return `${header}.${payload}.${signature}`;
      },
    ],
    ["an OIDC id token of the test issuer", async () => emu.oidcToken("alice")],
  ];

  it.each(cases)(
    "%s: UNAUTHENTICATED, and the answer never echoes the token",
    async (_what, make) => {
      const token = await make();
      const reply = await callWith(token);
      expect(reply.status).toBe(401);
      const body = JSON.parse(reply.text) as { code: number; message: string };
      expect(body.code).toBe(16);
      expect(body.message).toMatch(/^Unauthenticated: /);
      expectAbsent(reply.text, token);
      expectAbsent(reply.text, token.split(".")[1] || token);
    },
  );

  it("malformed Authorization headers are UNAUTHENTICATED", async () => {
    for (const header of [
      `Basic ${Buffer.from("owner:pw").toString("base64")}`,
      `Bearer ${emu.token} ${emu.token}`,
      "Bearer",
      `Token ${emu.token}`,
      "Bearer not.a.jwt",
      `Bearer ${"x".repeat(10_000)}`,
    ]) {
      const response = await fetch(`${emu.url}/iam/v2beta1/groups/${emu.rootGroupUid}`, {
        headers: { authorization: header },
      });
      expect(response.status, header.slice(0, 40)).toBe(401);
    }
  });
});

describe("token exchange: OIDC tokens the emulator refuses", () => {
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    const client = new IrmClient({ baseUrl: emu.url, token: emu.token });
    alice = (
      await client.iam.identities.create(emu.rootGroupUid, {
        name: "alice",
        claimMatch: { issuer: emu.issuer, subject: "alice" },
      })
    ).uid;
    bob = (
      await client.iam.identities.create(emu.rootGroupUid, {
        name: "bob",
        claimMatch: { issuer: emu.issuer, subject: "bob" },
      })
    ).uid;
    await client.close();
  });

  async function exchange(oidcToken: string, identity: string) {
    const url = `${emu.url}/sts/exchange?aud=${encodeURIComponent(emu.url)}&identity=${encodeURIComponent(identity)}`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${oidcToken}` } });
    return { status: response.status, text: await response.text() };
  }

  async function forgeOidc(claims: Claims, key: JWK = oidcKey, alg = "ES256"): Promise<string> {
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg, kid: key.kid ?? oidcKey.kid, typ: "JWT" })
      .sign(await importJWK(key, alg));
  }

  const oidcClaims = (subject: string): Claims => ({
    iss: emu.issuer,
    aud: emu.url,
    sub: subject,
    iat: nowSeconds(),
    exp: nowSeconds() + 600,
  });

  it("control: alice's own token assumes alice", async () => {
    const reply = await exchange(await emu.oidcToken("alice"), alice);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text).token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it("alice's token replayed to assume bob is PERMISSION_DENIED", async () => {
    const token = await emu.oidcToken("alice");
    const reply = await exchange(token, bob);
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.text).code).toBe(7);
    expectAbsent(reply.text, token);
  });

  it("an API token presented as the OIDC token is PERMISSION_DENIED (not the identity's issuer)", async () => {
    const reply = await exchange(emu.token, alice);
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.text).message).toMatch(/\(issuer\)$/);
    expectAbsent(reply.text, emu.token);
  });

  const refused: Array<[string, () => Promise<string>]> = [
    ["alg none", async () => unsigned(oidcClaims("alice"))],
    [
      "expired",
      async () =>
        forgeOidc({ ...oidcClaims("alice"), iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 }),
    ],
    ["not yet valid", async () => forgeOidc({ ...oidcClaims("alice"), nbf: nowSeconds() + 3600 })],
    ["no exp", async () => forgeOidc({ ...oidcClaims("alice"), exp: undefined })],
    [
      "signed by another key under the issuer's kid",
      async () => {
        const { privateKey } = await generateKeyPair("ES256", { extractable: true });
        return forgeOidc(oidcClaims("alice"), {
          ...(await exportJWK(privateKey)),
          kid: oidcKey.kid,
        });
      },
    ],
    ["signed with the API key", async () => forgeOidc(oidcClaims("alice"), apiKey)],
    // Issuers other than the identity's, and unreachable ones: tests/reliability/fast/exchange.test.ts.
  ];

  it.each(refused)("%s: UNAUTHENTICATED", async (_what, make) => {
    const token = await make();
    const reply = await exchange(token, alice);
    expect(reply.status).toBe(401);
    expect(JSON.parse(reply.text).code).toBe(16);
    expectAbsent(reply.text, token);
  });

  it("an exchange for another audience is refused", async () => {
    const url = `${emu.url}/sts/exchange?aud=${encodeURIComponent("https://api.other.example")}&identity=${alice}`;
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${await emu.oidcToken("alice")}` },
    });
    expect(response.status).toBe(400);
  });
});

/** A loopback server that records every request and answers with `answer`. */
interface Recorder {
  url: string;
  seen: Array<{ method: string; url: string; authorization?: string }>;
  close(): Promise<void>;
}

async function recorder(
  answer: (req: IncomingMessage) => {
    status: number;
    headers?: Record<string, string>;
    body?: unknown;
  },
): Promise<Recorder> {
  const seen: Recorder["seen"] = [];
  const server: Server = createServer((req, res) => {
    seen.push({
      method: req.method ?? "",
      url: req.url ?? "",
      authorization: req.headers.authorization,
    });
    req.resume();
    req.on("end", () => {
      const { status, headers = {}, body } = answer(req);
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(body === undefined ? "" : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const GROUP = {
  uid: "0123456789abcdef0123456789abcdef01234567",
  name: "g",
  description: "",
  resourceLimits: {},
  verified: false,
  createTime: "2026-11-21T10:00:00.000Z",
  updateTime: "2026-11-21T10:00:00.000Z",
};

describe("the SDK sends a token only to the configured host", () => {
  const SECRET = "sentinel-api-token-3f9a";
  let elsewhere: Recorder;

  beforeAll(async () => {
    elsewhere = await recorder(() => ({ status: 200, body: GROUP }));
  });
  afterAll(() => elsewhere?.close());

  it.each([301, 302, 303, 307, 308])(
    "a %i redirect to another host is not followed",
    async (status) => {
      const configured = await recorder(() => ({
        status,
        headers: { location: `${elsewhere.url}/iam/v2beta1/groups/${GROUP.uid}` },
        body: {},
      }));
      const client = new IrmClient({
        baseUrl: configured.url,
        token: SECRET,
        retry: { retries: 0 },
      });
      try {
        const error = await client.iam.groups.get(GROUP.uid).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(error).toBeInstanceOf(Error);
        expectAbsent(String(error), SECRET);
        await client.iam.groups.create(GROUP.uid, { name: "x" }).catch(() => undefined);
        expect(configured.seen.length).toBe(2);
        expect(elsewhere.seen).toEqual([]);
      } finally {
        await client.close();
        await configured.close();
      }
    },
  );

  it("a page token or a uid shaped like a URL keeps requests on the configured host", async () => {
    const hostile = `${elsewhere.url}/steal?x=1`;
    const configured = await recorder((req) =>
      (req.url ?? "").includes("page_token")
        ? { status: 200, body: { groups: [GROUP], totalCount: "2", skipped: 0 } }
        : {
            status: 200,
            body: { groups: [GROUP], nextPageToken: hostile, totalCount: "2", skipped: 0 },
          },
    );
    const client = new IrmClient({ baseUrl: configured.url, token: SECRET, retry: { retries: 0 } });
    try {
      const all = [];
      for await (const group of client.iam.groups.list()) all.push(group);
      expect(all).toHaveLength(2);
      for (const uid of [
        `//${new URL(elsewhere.url).host}/x`,
        `@${new URL(elsewhere.url).host}`,
        hostile,
      ]) {
        await client.iam.groups.get(uid).catch(() => undefined);
      }
      expect(elsewhere.seen).toEqual([]);
      expect(configured.seen.every((r) => r.authorization === `Bearer ${SECRET}`)).toBe(true);
      expect(configured.seen.some((r) => r.url.includes(encodeURIComponent(hostile)))).toBe(true);
    } finally {
      await client.close();
      await configured.close();
    }
  });

  it("the OIDC token goes only to the auth URL, the API token only to the API URL", async () => {
    const OIDC = "sentinel-oidc-token-77c2";
    const EXCHANGED = "sentinel-exchanged-token-91d0";
    const auth = await recorder(() => ({ status: 200, body: { token: EXCHANGED } }));
    const api = await recorder(() => ({ status: 200, body: GROUP }));
    const client = new IrmClient({
      baseUrl: api.url,
      authUrl: auth.url,
      tokenSource: exchangeTokenSource({
        identity: `${GROUP.uid}/0123456789abcdef`,
        oidcToken: async () => OIDC,
      }),
    });
    try {
      await client.iam.groups.get(GROUP.uid);
      expect(auth.seen.map((r) => r.authorization)).toEqual([`Bearer ${OIDC}`]);
      // The exchange is a POST of a form to {auth_url}/sts/exchange, as the platform's SDK sends.
      expect(auth.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /sts/exchange"]);
      expect(api.seen.map((r) => r.authorization)).toEqual([`Bearer ${EXCHANGED}`]);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await client.close();
      await auth.close();
      await api.close();
    }
  });

  it("a refused token is reported without the token", async () => {
    const client = new IrmClient({ baseUrl: emu.url, token: SECRET });
    try {
      const error = await client.iam.groups.get(emu.rootGroupUid).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isUnauthenticated(error)).toBe(true);
      expectAbsent(JSON.stringify(error), SECRET);
      expectAbsent(String(error), SECRET);
      expectAbsent((error as Error).stack ?? "", SECRET);
    } finally {
      await client.close();
    }
  });
});
