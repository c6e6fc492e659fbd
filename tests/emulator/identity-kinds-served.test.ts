/**
 * The four identity kinds over HTTP (addendum 6.1 to 6.9 and 6.11): create, get, list
 * and update of claimMatch, staticKeys, awsIdentity and servicePrincipal identities,
 * with the addendum's validation order and messages, the answered shapes, the update
 * mask rules, the relationship_type filter, hydrated role bindings, and persistence.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { SERVICE_PRINCIPAL_NAMES } from "../../sdk/index";
import { type Caller, caller, enc, type Reply } from "../support/emulator-http";

type Json = Record<string, unknown>;

const DAY_MS = 24 * 3600 * 1000;

let emu: TestEmulator;
let owner: Caller;
let group: string;
let jwks: string;
let privateJwks: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "irm-identity-kinds-"));
  emu = await startTestEmulator({ dataFile: join(dataDir, "state.json") });
  owner = caller(emu.url, emu.token);
  [group] = (await emu.seed({ groups: [{ parentUid: emu.rootGroupUid, name: "kinds" }] })).groups;
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" }] });
  privateJwks = JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), kid: "k1" }] });
  // The PKCS8 form is never sent; exporting proves the key pair is a real one.
  expect(await exportPKCS8(privateKey)).toMatch(/PRIVATE KEY/);
});
afterAll(async () => {
  await emu.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function emulatorNowMs(): Promise<number> {
  return Date.parse(await emu.advanceClock(0));
}

function create(body: Json, parent = group): Promise<Reply<Json>> {
  return owner<Json>("POST", `/iam/v2beta1/identities/${parent}`, { body });
}

async function created(body: Json): Promise<Json> {
  const reply = await create(body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

function patch(uid: string, body: Json, mask?: string): Promise<Reply<Json>> {
  const query = mask === undefined ? "" : `?updateMask=${enc(mask)}`;
  return owner<Json>("PATCH", `/iam/v2beta1/identities/${uid}${query}`, { body });
}

function expectInvalid(reply: Reply<Json>, field: string, reason?: string | RegExp): void {
  expect(reply.status, reply.text).toBe(400);
  expect(reply.body.code).toBe(3);
  const message = String(reply.body.message);
  expect(message.startsWith(`Invalid argument: ${field}: `), message).toBe(true);
  if (typeof reason === "string") expect(message).toBe(`Invalid argument: ${field}: ${reason}`);
  else if (reason) expect(message).toMatch(reason);
}

function staticKeys(overrides: Json = {}): Json {
  return {
    issuer: "https://ci.internal.example",
    subject: "deployer",
    issuerKeys: jwks,
    ...overrides,
  };
}

const ONLY_ONE = "only one of claimMatch, staticKeys, awsIdentity, servicePrincipal may be set";

describe("create: exactly one kind (6.1)", () => {
  it("a body with no kind reads as an empty claimMatch", async () => {
    expectInvalid(await create({ name: "none" }), "claimMatch.issuer", "is required");
  });

  it.each([
    ["claimMatch and staticKeys", { claimMatch: {}, staticKeys: {} }, "staticKeys"],
    ["staticKeys and awsIdentity", { staticKeys: {}, awsIdentity: {} }, "awsIdentity"],
    [
      "awsIdentity and servicePrincipal",
      { awsIdentity: {}, servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" },
      "servicePrincipal",
    ],
    [
      "all four",
      { claimMatch: {}, staticKeys: {}, awsIdentity: {}, servicePrincipal: "X" },
      "staticKeys",
    ],
  ])("%s: INVALID_ARGUMENT on the second in the addendum's order", async (_what, kinds, field) => {
    expectInvalid(await create({ name: "two", ...kinds }), field, ONLY_ONE);
  });

  it("an empty servicePrincipal counts as unset", async () => {
    const reply = await create({
      name: "empty sp",
      servicePrincipal: "",
      claimMatch: { issuer: emu.issuer, subject: "x" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.claimMatch).toEqual({ issuer: emu.issuer, subject: "x" });
    expect(reply.body).not.toHaveProperty("servicePrincipal");
  });

  it("two identities may share a name, whatever their kinds", async () => {
    const a = await created({ name: "twin", claimMatch: { issuer: emu.issuer, subject: "a" } });
    const b = await created({ name: "twin", servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED" });
    expect(a.uid).not.toBe(b.uid);
  });
});

describe("claimMatch (6.2)", () => {
  it("an exact-match identity keeps the shape {issuer, subject}, and no other kind's key", async () => {
    const identity = await created({
      name: "exact",
      claimMatch: { issuer: emu.issuer, subject: "alice" },
    });
    expect(identity.claimMatch).toEqual({ issuer: emu.issuer, subject: "alice" });
    for (const key of ["staticKeys", "awsIdentity", "servicePrincipal"]) {
      expect(identity).not.toHaveProperty(key);
    }
    const read = await owner<Json>("GET", `/iam/v2beta1/identities/${identity.uid}`);
    expect(read.body).toEqual(identity);
  });

  it("answers only the members set, and the maps only when non-empty", async () => {
    const identity = await created({
      name: "rich",
      claimMatch: {
        issuerPattern: "https://token\\.actions\\.githubusercontent\\.com",
        subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
        audience: "https://api.example",
        audiencePattern: "",
        claims: { repository_owner: "acme", event_name: "push" },
        claimPatterns: {},
      },
    });
    expect(identity.claimMatch).toEqual({
      issuerPattern: "https://token\\.actions\\.githubusercontent\\.com",
      subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      audience: "https://api.example",
      claims: { event_name: "push", repository_owner: "acme" },
    });
  });

  it.each([
    [
      "both issuer members",
      { issuer: "https://a.example", issuerPattern: "x", subject: "s" },
      "claimMatch.issuerPattern",
      "only one of claimMatch.issuer and claimMatch.issuerPattern may be set",
    ],
    [
      "both subject members",
      { issuer: "https://a.example", subject: "s", subjectPattern: "s.*" },
      "claimMatch.subjectPattern",
      "only one of claimMatch.subject and claimMatch.subjectPattern may be set",
    ],
    [
      "both audience members",
      { issuer: "https://a.example", subject: "s", audience: "a", audiencePattern: "a.*" },
      "claimMatch.audiencePattern",
      "only one of claimMatch.audience and claimMatch.audiencePattern may be set",
    ],
    ["no subject member", { issuer: "https://a.example" }, "claimMatch.subject", "is required"],
    [
      "an empty subject",
      { issuer: "https://a.example", subject: "" },
      "claimMatch.subject",
      "is required",
    ],
    [
      "an issuer that is not a URL",
      { issuer: "not a url", subject: "s" },
      "claimMatch.issuer",
      "must be an http(s) URL",
    ],
    [
      "an issuer of another scheme",
      { issuer: "ftp://a.example", subject: "s" },
      "claimMatch.issuer",
      "must be an http(s) URL",
    ],
    [
      "a subject of the wrong type",
      { issuer: "https://a.example", subject: 7 },
      "claimMatch.subject",
      "must be a string",
    ],
    [
      "an issuer pattern with lookahead",
      { issuerPattern: "(?=https)https://.*", subject: "s" },
      "claimMatch.issuerPattern",
      /: not a valid RE2 pattern: .*\(\?=/,
    ],
    [
      "a subject pattern with a backreference",
      { issuer: "https://a.example", subjectPattern: "(a)\\1" },
      "claimMatch.subjectPattern",
      /: not a valid RE2 pattern: /,
    ],
    [
      "an audience pattern with an atomic group",
      { issuer: "https://a.example", subject: "s", audiencePattern: "(?>a)" },
      "claimMatch.audiencePattern",
      /: not a valid RE2 pattern: /,
    ],
    [
      "a pattern over 1024 characters",
      { issuer: "https://a.example", subjectPattern: "a".repeat(1025) },
      "claimMatch.subjectPattern",
      "must be at most 1024 characters",
    ],
    [
      "claims that are not an object",
      { issuer: "https://a.example", subject: "s", claims: ["a"] },
      "claimMatch.claims",
      "must be an object",
    ],
    [
      "a claim value that is not a string",
      { issuer: "https://a.example", subject: "s", claims: { run: 42 } },
      "claimMatch.claims.run",
      "must be a string",
    ],
    [
      "an empty claim name",
      { issuer: "https://a.example", subject: "s", claims: { "": "x" } },
      "claimMatch.claims",
      "a claim name must not be empty",
    ],
    [
      "a claim pattern that is not RE2",
      { issuer: "https://a.example", subject: "s", claimPatterns: { ref: "(?<!x)main" } },
      "claimMatch.claimPatterns.ref",
      /: not a valid RE2 pattern: /,
    ],
  ])("%s is INVALID_ARGUMENT naming the field", async (_what, claimMatch, field, reason) => {
    expectInvalid(await create({ name: "bad", claimMatch }), field, reason);
  });

  it.each(["iss", "sub", "aud", "exp", "nbf", "iat"])(
    "the registered claim %s is refused in both maps",
    async (claim) => {
      const base = { issuer: "https://a.example", subject: "s" };
      expectInvalid(
        await create({ name: "reserved", claimMatch: { ...base, claims: { [claim]: "x" } } }),
        `claimMatch.claims.${claim}`,
      );
      expectInvalid(
        await create({
          name: "reserved",
          claimMatch: { ...base, claimPatterns: { [claim]: "x" } },
        }),
        `claimMatch.claimPatterns.${claim}`,
      );
    },
  );

  it("RE2-only syntax is accepted: (?i), (?s), (?P<name>), [[:alpha:]], \\pL, \\Q...\\E", async () => {
    const identity = await created({
      name: "re2",
      claimMatch: {
        issuerPattern: "(?i)HTTPS://[[:alpha:]]+\\.example",
        subjectPattern: "(?P<kind>repo|org):\\pL+",
        audiencePattern: "(?s)\\Qhttps://a.example\\E.*",
        claimPatterns: { ref: "refs/heads/(main|dev)" },
      },
    });
    expect(identity.claimMatch).toMatchObject({ subjectPattern: "(?P<kind>repo|org):\\pL+" });
  });

  it("a name may appear in both maps", async () => {
    const identity = await created({
      name: "both maps",
      claimMatch: {
        issuer: emu.issuer,
        subject: "s",
        claims: { ref: "refs/heads/main" },
        claimPatterns: { ref: "refs/heads/.*" },
      },
    });
    expect(identity.claimMatch).toMatchObject({
      claims: { ref: "refs/heads/main" },
      claimPatterns: { ref: "refs/heads/.*" },
    });
  });
});

describe("staticKeys (6.3)", () => {
  it("answers every member; expirationTime defaults to createTime + 365 days, audiences to []", async () => {
    const identity = await created({ name: "static", staticKeys: staticKeys() });
    expect(identity.staticKeys).toEqual({
      issuer: "https://ci.internal.example",
      subject: "deployer",
      issuerKeys: jwks,
      expirationTime: new Date(
        Date.parse(identity.createTime as string) + 365 * DAY_MS,
      ).toISOString(),
      audiences: [],
    });
    expect(identity).not.toHaveProperty("claimMatch");
  });

  it("a given expirationTime in any RFC 3339 form is answered in milliseconds with Z", async () => {
    const target = (await emulatorNowMs()) + 30 * DAY_MS;
    const withOffset = new Date(target).toISOString().replace(/\.\d+Z$/, "+00:00");
    const identity = await created({
      name: "static dated",
      staticKeys: staticKeys({ expirationTime: withOffset, audiences: ["https://aud.example"] }),
    });
    const keys = identity.staticKeys as Json;
    expect(keys.expirationTime).toBe(new Date(Math.floor(target / 1000) * 1000).toISOString());
    expect(keys.audiences).toEqual(["https://aud.example"]);
  });

  it.each([
    ["no issuer", { issuer: undefined }, "staticKeys.issuer", "is required"],
    [
      "an issuer that is not a URL",
      { issuer: "ci" },
      "staticKeys.issuer",
      "must be an http(s) URL",
    ],
    ["no subject", { subject: "" }, "staticKeys.subject", "is required"],
    ["no keys", { issuerKeys: undefined }, "staticKeys.issuerKeys", "is required"],
    [
      "keys as an object",
      { issuerKeys: { keys: [] } },
      "staticKeys.issuerKeys",
      "must be a string",
    ],
    [
      "keys over 65,536 characters",
      { issuerKeys: JSON.stringify({ keys: [], pad: "x".repeat(65_536) }) },
      "staticKeys.issuerKeys",
      "must be at most 65536 characters",
    ],
    [
      "an expirationTime that is no timestamp",
      { expirationTime: "tomorrow" },
      "staticKeys.expirationTime",
      "must be an RFC 3339 timestamp",
    ],
    [
      "two audiences",
      { audiences: ["https://a.example", "https://b.example"] },
      "staticKeys.audiences",
      "must be empty or hold exactly one non-empty audience",
    ],
    [
      "an empty audience",
      { audiences: [""] },
      "staticKeys.audiences",
      "must be empty or hold exactly one non-empty audience",
    ],
  ])("%s is INVALID_ARGUMENT naming the field", async (_what, overrides, field, reason) => {
    expectInvalid(await create({ name: "bad", staticKeys: staticKeys(overrides) }), field, reason);
  });

  it.each([
    ["not JSON", "{keys"],
    ["a JWKS without keys", '{"keys":[]}'],
    ["a broken EC key", '{"keys":[{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}]}'],
    ["an unknown key type", '{"keys":[{"kty":"XYZ","n":"AQAB"}]}'],
  ])(
    "issuer keys the emulator cannot use (%s) are stored as given, as the service does",
    async (_what, issuerKeys) => {
      const reply = await create({ name: "opaque keys", staticKeys: staticKeys({ issuerKeys }) });
      expect(reply.status, reply.text).toBe(200);
      expect((reply.body.staticKeys as Json).issuerKeys).toBe(issuerKeys);
    },
  );

  it("a symmetric key is refused as a private member (k), never echoing it", async () => {
    const reply = await create({
      name: "bad",
      staticKeys: staticKeys({ issuerKeys: '{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}' }),
    });
    expectInvalid(
      reply,
      "staticKeys.issuerKeys",
      "key 0 holds private key members (k); only public keys are accepted",
    );
    expect(reply.text).not.toContain("c2VjcmV0");
  });

  it("a private key is refused naming its private members, never their values", async () => {
    const reply = await create({
      name: "bad",
      staticKeys: staticKeys({ issuerKeys: privateJwks }),
    });
    expectInvalid(
      reply,
      "staticKeys.issuerKeys",
      "key 0 holds private key members (d); only public keys are accepted",
    );
    const d = (JSON.parse(privateJwks) as { keys: Json[] }).keys[0].d as string;
    expect(reply.text).not.toContain(d);
  });

  it("expirationTime in the past, or more than 365 days ahead, is refused", async () => {
    const now = await emulatorNowMs();
    for (const ms of [now - 1000, now + 365 * DAY_MS + 60_000]) {
      expectInvalid(
        await create({
          name: "bad",
          staticKeys: staticKeys({ expirationTime: new Date(ms).toISOString() }),
        }),
        "staticKeys.expirationTime",
        "must be later than now and at most 365 days from now",
      );
    }
    const atLimit = await create({
      name: "at limit",
      staticKeys: staticKeys({ expirationTime: new Date(now + 364 * DAY_MS).toISOString() }),
    });
    expect(atLimit.status).toBe(200);
  });
});

describe("awsIdentity (6.4) and servicePrincipal (6.5)", () => {
  it("awsIdentity answers awsAccount and the member set in each pair", async () => {
    const identity = await created({
      name: "aws",
      awsIdentity: {
        awsAccount: "123456789012",
        arnPattern: "arn:aws:iam::123456789012:role/deploy-.*",
        arn: "",
        userId: "AROAEXAMPLE:session",
      },
    });
    expect(identity.awsIdentity).toEqual({
      awsAccount: "123456789012",
      arnPattern: "arn:aws:iam::123456789012:role/deploy-.*",
      userId: "AROAEXAMPLE:session",
    });
  });

  it.each([
    ["no account", { arn: "a", userId: "u" }, "awsIdentity.awsAccount", "is required"],
    [
      "an account of 11 digits",
      { awsAccount: "12345678901", arn: "a", userId: "u" },
      "awsIdentity.awsAccount",
      "must be 12 digits",
    ],
    [
      "no arn member",
      { awsAccount: "123456789012", userId: "u" },
      "awsIdentity.arn",
      "is required",
    ],
    [
      "both arn members",
      { awsAccount: "123456789012", arn: "a", arnPattern: "a.*", userId: "u" },
      "awsIdentity.arnPattern",
      "only one of awsIdentity.arn and awsIdentity.arnPattern may be set",
    ],
    [
      "no userId member",
      { awsAccount: "123456789012", arn: "a" },
      "awsIdentity.userId",
      "is required",
    ],
    [
      "a userId pattern that is not RE2",
      { awsAccount: "123456789012", arn: "a", userIdPattern: "a++" },
      "awsIdentity.userIdPattern",
      /: not a valid RE2 pattern: /,
    ],
  ])("%s is INVALID_ARGUMENT naming the field", async (_what, awsIdentity, field, reason) => {
    expectInvalid(await create({ name: "bad", awsIdentity }), field, reason);
  });

  it("each of the 13 service principals is accepted and answered as its enum name", async () => {
    expect(SERVICE_PRINCIPAL_NAMES).toHaveLength(13);
    for (const name of SERVICE_PRINCIPAL_NAMES) {
      const identity = await created({
        name: "principal",
        servicePrincipal: `SERVICE_PRINCIPAL_${name}`,
      });
      expect(identity.servicePrincipal).toBe(`SERVICE_PRINCIPAL_${name}`);
      expect(identity).not.toHaveProperty("claimMatch");
    }
  });

  it.each([
    ["UNSPECIFIED", "SERVICE_PRINCIPAL_UNSPECIFIED"],
    ["a number", 2],
    ["the short name", "INGESTER"],
    ["another string", "SERVICE_PRINCIPAL_ROBOT"],
  ])("%s is INVALID_ARGUMENT on servicePrincipal", async (_what, servicePrincipal) => {
    expectInvalid(
      await create({ name: "bad", servicePrincipal }),
      "servicePrincipal",
      /must be one of SERVICE_PRINCIPAL_COSIGNED, /,
    );
  });
});

describe("updates (6.8)", () => {
  const exact = () => ({ issuer: emu.issuer, subject: "alice" });

  it("setting a pattern member clears its partner", async () => {
    const { uid } = await created({ name: "user 1", claimMatch: exact() });
    const reply = await patch(
      uid as string,
      { claimMatch: { subjectPattern: "alice|bob" } },
      "claimMatch.subjectPattern",
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.claimMatch).toEqual({ issuer: emu.issuer, subjectPattern: "alice|bob" });
    const back = await patch(
      uid as string,
      { claimMatch: { subject: "carol" } },
      "claimMatch.subject",
    );
    expect(back.body.claimMatch).toEqual({ issuer: emu.issuer, subject: "carol" });
  });

  it("clearing a required member without its partner fails, and changes nothing", async () => {
    const { uid } = await created({ name: "user 2", claimMatch: exact() });
    expectInvalid(
      await patch(uid as string, { claimMatch: { subject: "" } }, "claimMatch.subject"),
      "claimMatch.subject",
      "is required",
    );
    expectInvalid(
      await patch(uid as string, {}, "claimMatch.subject"),
      "claimMatch.subject",
      "is required",
    );
    const read = await owner<Json>("GET", `/iam/v2beta1/identities/${uid}`);
    expect(read.body.claimMatch).toEqual(exact());
  });

  it("audience and audiencePattern may both end up empty", async () => {
    const { uid } = await created({
      name: "user 3",
      claimMatch: { ...exact(), audience: "https://a" },
    });
    const reply = await patch(uid as string, {}, "claimMatch.audience");
    expect(reply.status).toBe(200);
    expect(reply.body.claimMatch).toEqual(exact());
  });

  it("without a mask, the members in the body apply; both members of a pair are refused", async () => {
    const { uid } = await created({ name: "user 4", claimMatch: exact() });
    const merged = await patch(uid as string, { claimMatch: { audiencePattern: "https://a/.*" } });
    expect(merged.body.claimMatch).toEqual({ ...exact(), audiencePattern: "https://a/.*" });
    expectInvalid(
      await patch(uid as string, { claimMatch: { subject: "x", subjectPattern: "y" } }),
      "claimMatch.subjectPattern",
      "only one of claimMatch.subject and claimMatch.subjectPattern may be set",
    );
    // An empty member is unset: the body sets the pattern and clears the exact value.
    const swapped = await patch(uid as string, {
      claimMatch: { subject: "", subjectPattern: "y" },
    });
    expect(swapped.body.claimMatch).toMatchObject({ subjectPattern: "y" });
    expect(swapped.body.claimMatch).not.toHaveProperty("subject");
  });

  it("maps are replaced whole, and an empty map disappears from the answer", async () => {
    const { uid } = await created({
      name: "user 5",
      claimMatch: { ...exact(), claims: { a: "1", b: "2" } },
    });
    const replaced = await patch(
      uid as string,
      { claimMatch: { claims: { c: "3" } } },
      "claimMatch.claims",
    );
    expect(replaced.body.claimMatch).toEqual({ ...exact(), claims: { c: "3" } });
    const cleared = await patch(uid as string, { claimMatch: { claims: {} } });
    expect(cleared.body.claimMatch).toEqual(exact());
  });

  it("claimMatch named whole is replaced by the body's, validated whole", async () => {
    const { uid } = await created({
      name: "user 6",
      claimMatch: { ...exact(), audience: "https://a" },
    });
    expectInvalid(
      await patch(uid as string, { claimMatch: { issuer: emu.issuer } }, "claimMatch"),
      "claimMatch.subject",
      "is required",
    );
    const replaced = await patch(
      uid as string,
      { claimMatch: { issuer: emu.issuer, subjectPattern: ".*" } },
      "claimMatch",
    );
    expect(replaced.body.claimMatch).toEqual({ issuer: emu.issuer, subjectPattern: ".*" });
  });

  it("* applies name, description and the current kind's object, and clears what the body leaves out", async () => {
    const { uid } = await created({
      name: "user 7",
      description: "before",
      claimMatch: { ...exact(), audience: "https://a" },
    });
    const reply = await patch(uid as string, { name: "u7b", claimMatch: exact() }, "*");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ name: "u7b", description: "", claimMatch: exact() });
    const keys = await created({ name: "u7s", staticKeys: staticKeys() });
    const whole = await patch(
      keys.uid as string,
      { name: "u7s", staticKeys: staticKeys({ subject: "other" }) },
      "*",
    );
    expect(whole.status, whole.text).toBe(200);
    expect((whole.body.staticKeys as Json).subject).toBe("other");
  });

  it("a path of another kind is INVALID_ARGUMENT: the kind is fixed at create", async () => {
    const { uid } = await created({ name: "user 8", claimMatch: exact() });
    const message = "the relationship kind cannot change; create a new identity";
    expectInvalid(
      await patch(uid as string, { staticKeys: staticKeys() }, "staticKeys.issuer"),
      "staticKeys.issuer",
      message,
    );
    expectInvalid(
      await patch(uid as string, { awsIdentity: {} }, "awsIdentity"),
      "awsIdentity",
      message,
    );
    expectInvalid(
      await patch(uid as string, { servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED" }),
      "servicePrincipal",
      message,
    );
    const sp = await created({ name: "u8sp", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    expectInvalid(
      await patch(sp.uid as string, { claimMatch: { subject: "x" } }),
      "claimMatch.subject",
      message,
    );
    expectInvalid(
      await patch(sp.uid as string, { servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED" }),
      "servicePrincipal",
      message,
    );
    const same = await patch(sp.uid as string, { servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" });
    expect(same.status).toBe(200);
    expect(same.body.updateTime).toBe(sp.updateTime);
  });

  it("mask paths are the proto names (JSON names accepted too); an unknown path is INVALID_ARGUMENT on update_mask", async () => {
    const { uid } = await created({ name: "user 9", claimMatch: exact() });
    for (const [mask, subjectPattern] of [
      ["claim_match.subject_pattern", "a.*"],
      ["claimMatch.subjectPattern", "b.*"],
    ]) {
      const reply = await patch(uid as string, { claimMatch: { subjectPattern } }, mask);
      expect(reply.status, reply.text).toBe(200);
      expect((reply.body.claimMatch as Json).subjectPattern).toBe(subjectPattern);
      expect(reply.body.claimMatch as Json).not.toHaveProperty("subject");
    }
    expectInvalid(await patch(uid as string, {}, "claimMatch.email"), "update_mask");
    expectInvalid(await patch(uid as string, {}, "claim_match.email"), "update_mask");
  });

  it("staticKeys members update alone; expirationTime is checked only when written", async () => {
    const now = await emulatorNowMs();
    const keys = await created({
      name: "u10",
      staticKeys: staticKeys({ expirationTime: new Date(now + 2 * DAY_MS).toISOString() }),
    });
    const uid = keys.uid as string;
    const audience = await patch(uid, { staticKeys: { audiences: ["https://aud.example"] } });
    expect((audience.body.staticKeys as Json).audiences).toEqual(["https://aud.example"]);
    expectInvalid(
      await patch(uid, {
        staticKeys: { expirationTime: new Date(now + 400 * DAY_MS).toISOString() },
      }),
      "staticKeys.expirationTime",
    );
    await emu.advanceClock(3 * 24 * 3600);
    // Expired: it stays, its other members can change, and a new time revives it.
    const renamed = await patch(uid, { name: "u10 expired", staticKeys: { subject: "deployer2" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect((renamed.body.staticKeys as Json).expirationTime).toBe(
      (keys.staticKeys as Json).expirationTime,
    );
    // Named with no value, it takes the default: the time of the update + 365 days.
    const before = await emulatorNowMs();
    const revived = await patch(uid, {}, "staticKeys.expirationTime");
    const expiration = Date.parse((revived.body.staticKeys as Json).expirationTime as string);
    expect(expiration).toBeGreaterThanOrEqual(before + 365 * DAY_MS);
    expect(expiration).toBeLessThanOrEqual(
      Date.parse(revived.body.updateTime as string) + 365 * DAY_MS,
    );
  });

  it("awsIdentity: setting arnPattern clears arn", async () => {
    const { uid } = await created({
      name: "u11",
      awsIdentity: { awsAccount: "123456789012", arn: "arn:a", userId: "u" },
    });
    const reply = await patch(uid as string, { awsIdentity: { arnPattern: "arn:.*" } });
    expect(reply.body.awsIdentity).toEqual({
      awsAccount: "123456789012",
      arnPattern: "arn:.*",
      userId: "u",
    });
  });
});

describe("the relationship_type list filter (6.9)", () => {
  let scope: string;
  const uids: Record<string, string> = {};

  beforeAll(async () => {
    [scope] = (await emu.seed({ groups: [{ parentUid: group, name: "filtered" }] })).groups;
    const bodies: Record<string, Json> = {
      RELATIONSHIP_TYPE_CLAIM_MATCH: { claimMatch: { issuer: emu.issuer, subject: "f" } },
      RELATIONSHIP_TYPE_STATIC: { staticKeys: staticKeys() },
      RELATIONSHIP_TYPE_AWS_IDENTITY: {
        awsIdentity: { awsAccount: "123456789012", arn: "a", userId: "u" },
      },
      RELATIONSHIP_TYPE_SERVICE_PRINCIPAL: { servicePrincipal: "SERVICE_PRINCIPAL_SKILLS" },
    };
    for (const [type, body] of Object.entries(bodies)) {
      const reply = await create({ name: `f ${type.toLowerCase()}`, ...body }, scope);
      uids[type] = reply.body.uid as string;
    }
  });

  const list = (query: string) =>
    owner<{ identities: Json[]; nextPageToken: string }>(
      "GET",
      `/iam/v2beta1/identities?uidp.children_of=${scope}&${query}`,
    );

  it("each type selects its kind; camelCase is accepted too", async () => {
    for (const [type, uid] of Object.entries(uids)) {
      const reply = await list(`relationship_type=${type}`);
      expect(reply.body.identities.map((identity) => identity.uid)).toEqual([uid]);
      const camel = await list(`relationshipType=${type}`);
      expect(camel.body.identities.map((identity) => identity.uid)).toEqual([uid]);
    }
  });

  it("UNSPECIFIED, or no value, matches every kind", async () => {
    const all = Object.values(uids).sort();
    for (const query of [
      "relationship_type=RELATIONSHIP_TYPE_UNSPECIFIED",
      "relationship_type=",
      "",
    ]) {
      const reply = await list(query);
      expect(reply.body.identities.map((identity) => identity.uid).sort()).toEqual(all);
    }
  });

  it("anything else is INVALID_ARGUMENT on relationship_type", async () => {
    const reply = await list("relationship_type=STATIC");
    expectInvalid(reply as unknown as Reply<Json>, "relationship_type");
  });

  it("a page token is bound to the filter", async () => {
    const first = await list("relationship_type=RELATIONSHIP_TYPE_UNSPECIFIED&page_size=1");
    expect(first.body.nextPageToken).not.toBe("");
    const reused = await list(
      `relationship_type=RELATIONSHIP_TYPE_STATIC&page_size=1&page_token=${enc(first.body.nextPageToken)}`,
    );
    expectInvalid(reused as unknown as Reply<Json>, "page_token");
  });
});

describe("role bindings show exact values only (6.7)", () => {
  it("issuer and subject carry exact claimMatch or staticKeys values, and are empty otherwise", async () => {
    const viewer = (await owner<{ roles: Json[] }>("GET", "/iam/v2beta1/roles?name=viewer")).body
      .roles[0].uid;
    const cases: Array<[Json, { issuer: string; subject: string }]> = [
      [
        { claimMatch: { issuer: emu.issuer, subject: "b1" } },
        { issuer: emu.issuer, subject: "b1" },
      ],
      [
        { claimMatch: { issuer: emu.issuer, subjectPattern: "b.*" } },
        { issuer: emu.issuer, subject: "" },
      ],
      [
        { claimMatch: { issuerPattern: "https://.*", subject: "b2" } },
        { issuer: "", subject: "b2" },
      ],
      [
        { staticKeys: staticKeys() },
        { issuer: "https://ci.internal.example", subject: "deployer" },
      ],
      [
        { awsIdentity: { awsAccount: "123456789012", arn: "a", userId: "u" } },
        { issuer: "", subject: "" },
      ],
      [{ servicePrincipal: "SERVICE_PRINCIPAL_MICROVM" }, { issuer: "", subject: "" }],
    ];
    for (const [body, shown] of cases) {
      const identity = await created({ name: "bound", ...body });
      const binding = await owner<Json>("POST", `/iam/v2beta1/roleBindings/${group}`, {
        body: { identityUid: identity.uid, roleUid: viewer },
      });
      expect(binding.status, binding.text).toBe(200);
      expect(binding.body.identity).toMatchObject({ uid: identity.uid, ...shown });
      // 6.11: a bound identity of any kind cannot be deleted.
      const refused = await owner<Json>("DELETE", `/iam/v2beta1/identities/${identity.uid}`);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe(9);
      expect(refused.text).toContain("RESOURCE_IN_USE");
    }
  });
});

describe("changing how an identity of a new kind authenticates", () => {
  it("needs every capability its bindings grant; renaming it does not", async () => {
    const roles = async (name: string) =>
      (await owner<{ roles: Json[] }>("GET", `/iam/v2beta1/roles?name=${name}`)).body.roles[0]
        .uid as string;
    const [team] = (await emu.seed({ groups: [{ parentUid: group, name: "retarget" }] })).groups;
    const editor = await owner<Json>("POST", `/iam/v2beta1/identities/${team}`, {
      body: { name: "team editor", claimMatch: { issuer: emu.issuer, subject: "editor" } },
    });
    const updater = await owner<Json>("POST", `/iam/v2beta1/roles/${team}`, {
      body: { name: "updater", capabilities: ["CAP_IAM_IDENTITY_UPDATE", "CAP_IAM_IDENTITY_LIST"] },
    });
    await owner("POST", `/iam/v2beta1/roleBindings/${team}`, {
      body: { identityUid: editor.body.uid, roleUid: updater.body.uid },
    });
    const deployer = await owner<Json>("POST", `/iam/v2beta1/identities/${team}`, {
      body: { name: "deployer", staticKeys: staticKeys() },
    });
    await owner("POST", `/iam/v2beta1/roleBindings/${emu.rootGroupUid}`, {
      body: { identityUid: deployer.body.uid, roleUid: await roles("owner") },
    });
    const asEditor = caller(emu.url, await emu.mintToken(editor.body.uid as string));
    const path = `/iam/v2beta1/identities/${deployer.body.uid}`;
    const retarget = await asEditor<Json>("PATCH", `${path}?updateMask=staticKeys.subject`, {
      body: { staticKeys: { subject: "attacker" } },
    });
    expect(retarget.status, retarget.text).toBe(403);
    expect(String(retarget.body.message)).toMatch(
      new RegExp(`^Permission denied: \\S+ on ${emu.rootGroupUid} `),
    );
    const read = await owner<Json>("GET", path);
    expect((read.body.staticKeys as Json).subject).toBe("deployer");
    const renamed = await asEditor<Json>("PATCH", path, { body: { name: "deployer renamed" } });
    expect(renamed.status, renamed.text).toBe(200);
  });
});

describe("persistence", () => {
  it("every kind survives a restart on the same --data file", async () => {
    const bodies: Json[] = [
      {
        name: "kind 1",
        claimMatch: { issuer: emu.issuer, subjectPattern: "p.*", claims: { a: "1" } },
      },
      { name: "kind 2", staticKeys: staticKeys({ audiences: ["https://aud.example"] }) },
      {
        name: "kind 3",
        awsIdentity: { awsAccount: "123456789012", arn: "a", userIdPattern: "u.*" },
      },
      { name: "kind 4", servicePrincipal: "SERVICE_PRINCIPAL_GUARDENER" },
    ];
    const file = join(dataDir, "restart.json");
    const first = await startTestEmulator({ dataFile: file });
    const made: Json[] = [];
    try {
      const api = caller(first.url, first.token);
      for (const body of bodies) {
        const reply = await api<Json>("POST", `/iam/v2beta1/identities/${first.rootGroupUid}`, {
          body,
        });
        expect(reply.status, reply.text).toBe(200);
        made.push(reply.body);
      }
    } finally {
      await first.close();
    }
    const second = await startTestEmulator({ dataFile: file });
    try {
      const again = caller(second.url, second.token);
      for (const identity of made) {
        const read = await again<Json>("GET", `/iam/v2beta1/identities/${identity.uid}`);
        expect(read.body).toEqual(identity);
      }
    } finally {
      await second.close();
    }
  });
});
