/**
 * Work a request can make the emulator, the provider or the policy pack do is bounded
 * by size and count, and a request beyond a bound gets a clear error naming it:
 * - an RE2 pattern by its compiled program, not only its length (`\pL{1000}` is short
 *   but compiles to over a million units, and each match of it is slow);
 * - the entries of `claims` and `claimPatterns`;
 * - an issuer's discovery document and key set, read by the exchange;
 * - the nesting and size of the claims sent to the test issuer (deep nesting used to
 *   overflow the stack: a 500);
 * - the policy pack probes each pattern once, and never a larger one than the API takes.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { probePattern } from "../../../policy/patterns";
import * as runtime from "../../../provider/runtime";
import { byPlace } from "../../support/check-failures";
import { caller, enc, reasonOf } from "../../support/emulator-http";

type Json = Record<string, unknown>;
const ISSUER = "https://token.actions.githubusercontent.com";

let emu: TestEmulator;
let owner: ReturnType<typeof caller>;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  owner = caller(emu.url, emu.token);
});

afterAll(async () => {
  await emu?.close();
});

function createIdentity(claimMatch: Json) {
  return owner<Json>("POST", `/iam/v2beta1/identities/${emu.rootGroupUid}`, {
    body: { name: `bounded ${Math.random().toString(16).slice(2)}`, claimMatch },
  });
}

/** `count` claim patterns, each `pattern` under its own claim name. */
const patterns = (count: number, pattern: string) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`claim${i}`, pattern]));

describe("patterns bounded by their compiled program, maps by their entries", () => {
  it.each([
    ["claimMatch.subjectPattern", { issuer: ISSUER, subjectPattern: "\\pL{1000}" }],
    ["claimMatch.issuerPattern", { issuerPattern: "https://(\\pL{30}){30}", subject: "s" }],
    [
      "claimMatch.claimPatterns.claim0",
      {
        issuer: ISSUER,
        subject: "s",
        claimPatterns: patterns(1, "[\\x{0}-\\x{10FFFF}]{1000}\\pN{500}"),
      },
    ],
  ])(
    "a pattern compiling too large in %s: INVALID_ARGUMENT naming it, nothing made",
    async (field, claimMatch) => {
      const reply = await createIdentity(claimMatch);
      expect(reply.status, reply.text).toBe(400);
      expect(reasonOf(reply.body)).toBe("INVALID_ARGUMENT");
      expect(reply.body.message).toMatch(
        new RegExp(
          `^Invalid argument: ${field.replace(/\./g, "\\.")}: compiles to a program of \\d+ units, more than 10000`,
        ),
      );
    },
  );

  it("many patterns in one create: refused beyond 32 entries, naming the map", async () => {
    const reply = await createIdentity({
      issuer: ISSUER,
      subject: "s",
      claimPatterns: patterns(200, "\\pL{7}"),
    });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.message).toBe(
      "Invalid argument: claimMatch.claimPatterns: must have at most 32 entries, got 200",
    );
    const claims = await createIdentity({
      issuer: ISSUER,
      subject: "s",
      claims: patterns(33, "x"),
    });
    expect(claims.body.message).toBe(
      "Invalid argument: claimMatch.claims: must have at most 32 entries, got 33",
    );
  });

  it("patterns as real identities write them are accepted", async () => {
    const reply = await createIdentity({
      issuer: ISSUER,
      subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      claimPatterns: { ...patterns(31, "[a-z0-9-]{1,100}"), name: "\\pL+" },
    });
    expect(reply.status, reply.text).toBe(200);
  });

  it("the provider's check refuses the same, before any request", async () => {
    const result = await runtime.identity.check(
      {},
      {
        parentUid: emu.rootGroupUid,
        name: "ci",
        claimMatch: {
          issuer: ISSUER,
          subjectPattern: "\\pL{1000}",
          claimPatterns: patterns(40, "a"),
        },
      },
    );
    // By the place each names (a member leads the reason on its top-level input, or none).
    const failures = byPlace(result.failures).map((f) => `${f.property}: ${f.reason}`);
    expect(failures).toContainEqual(
      expect.stringMatching(/^claimMatch\.subjectPattern: compiles to a program of \d+ units/),
    );
    expect(failures).toContain("claimMatch.claimPatterns: must have at most 32 entries, got 40");
  });
});

describe("the test issuer bounds the claims it signs", () => {
  it("deeply nested claims: INVALID_ARGUMENT on claims, not a 500", async () => {
    const depth = 50_000;
    const nested = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const reply = await caller(emu.url, null)("POST", "/oidc/token", {
      rawBody: `{"subject":"alice","claims":${nested}}`,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status, reply.text.slice(0, 200)).toBe(400);
    expect(reasonOf(reply.body)).toBe("INVALID_ARGUMENT");
    expect((reply.body as Json).message).toBe(
      "Invalid argument: claims: must nest at most 16 levels deep",
    );
  });

  it("claims over 16 KiB as JSON: INVALID_ARGUMENT on claims", async () => {
    const reply = await caller(emu.url, null)<Json>("POST", "/oidc/token", {
      body: { subject: "alice", claims: { big: "x".repeat(20_000) } },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(
      "Invalid argument: claims: must be at most 16384 bytes as JSON",
    );
  });
});

describe("the exchange reads an issuer's documents with a bound", () => {
  let server: Server;
  let url = "";
  let written = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader("content-type", "application/json");
      // A discovery document that never ends: a valid start, then padding for ever.
      res.write(`{"issuer":"${url}","jwks_uri":"${url}/jwks.json","pad":"`);
      const chunk = "x".repeat(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once("drain", pump);
      };
      res.on("close", () => undefined);
      pump();
      void req;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("an endless discovery document: UNAUTHENTICATED at once, its reading abandoned", async () => {
    const made = await owner<Json>("POST", `/iam/v2beta1/identities/${emu.rootGroupUid}`, {
      body: { name: "endless", claimMatch: { issuer: url, subject: "ci" } },
    });
    expect(made.status, made.text).toBe(200);
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    void exportJWK;
    const token = await new SignJWT({ iss: url, sub: "ci", aud: emu.url })
      .setProtectedHeader({ alg: "ES256", kid: "k" })
      .setExpirationTime("10m")
      .sign(privateKey);
    const started = Date.now();
    const reply = await caller(emu.url, token)<Json>(
      "GET",
      `/sts/exchange?aud=${enc(emu.url)}&identity=${enc(made.body.uid as string)}`,
    );
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(401);
    expect(reply.body.message).toMatch(/issuer cannot be reached/);
    // Without a bound it reads until its 5 s timeout; the bound is 64 KiB.
    expect(elapsed).toBeLessThan(4000);
    expect(written).toBeLessThan(32 * 1024 * 1024);
  });
});

describe("the policy pack probes a pattern once, and only one the API would take", () => {
  it("a pattern compiling too large is not probed; a probed one is not probed again", () => {
    expect(probePattern("\\pL{1000}")).toBeUndefined();
    const pattern = `repo:acme/${"[a-z]".repeat(100)}:.*`;
    const first = probePattern(pattern);
    expect(first).toBeDefined();
    expect(probePattern(pattern)).toBe(first);
  });
});
