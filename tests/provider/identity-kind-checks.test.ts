/**
 * Identity kinds in the provider: `check` (exactly one kind, the pair rules, RE2
 * patterns, the issuer rule, static keys), `diff` (a new kind or service principal
 * replaces; state of the previous version shows no change), and, against the
 * emulator, one PATCH whose mask names exactly the changed leaf paths.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkIdentityInputs, UNKNOWN_VALUE } from "../../provider/checks";
import * as runtime from "../../provider/runtime";
import type { IdentityInputs, IdentityOutputs } from "../../provider/types";
import { maskOf, type ProviderFixture, startProviderFixture } from "../support/provider-fixture";
import { identityProvider } from "../support/provider-texts";

const ROOT = "a".repeat(40);
const GROUP = `${ROOT}/${"1".repeat(16)}`;
const IDENTITY = `${GROUP}/${"2".repeat(16)}`;
const ISSUER = "https://token.actions.githubusercontent.com";

/** A JWKS document of one public EC key, as a string; `withPrivate` adds the private part. */
function jwks(withPrivate = false): string {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const key = (withPrivate ? privateKey : publicKey).export({ format: "jwk" });
  return JSON.stringify({ keys: [{ ...key, kid: "k1", use: "sig" }] });
}

function failuresOf(raw: Record<string, unknown>) {
  return checkIdentityInputs({ parentUid: GROUP, name: "ci-bot", ...raw }).failures;
}

function inputsOf(raw: Record<string, unknown>): IdentityInputs {
  const result = checkIdentityInputs({ parentUid: GROUP, name: "ci-bot", ...raw });
  expect(result.failures).toEqual([]);
  return result.inputs;
}

describe("check: identity kinds", () => {
  it("requires exactly one kind, failing on the second and later ones", () => {
    expect(failuresOf({})).toEqual([
      { property: "claimMatch", reason: expect.stringContaining("exactly one of claimMatch") },
    ]);
    const two = failuresOf({
      claimMatch: { issuer: ISSUER, subject: "x" },
      servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    });
    expect(two).toEqual([
      {
        property: "servicePrincipal",
        reason: expect.stringContaining("only one of claimMatch, staticKeys"),
      },
    ]);
    // An empty string is unset, as the API reads it.
    expect(
      failuresOf({ claimMatch: { issuer: ISSUER, subject: "x" }, servicePrincipal: "" }),
    ).toEqual([]);
  });

  it("enforces the pairs: both members fail on the pattern, neither on the exact member", () => {
    expect(
      failuresOf({ claimMatch: { issuer: ISSUER, subject: "main", subjectPattern: "m.*" } }),
    ).toEqual([
      {
        property: "claimMatch.subjectPattern",
        reason: "only one of claimMatch.subject and claimMatch.subjectPattern may be set",
      },
    ]);
    expect(failuresOf({ claimMatch: { subject: "main" } })).toEqual([
      { property: "claimMatch.issuer", reason: expect.stringContaining("is required") },
    ]);
    expect(
      failuresOf({
        claimMatch: { issuer: ISSUER, subject: "x", audience: "a", audiencePattern: "b" },
      }),
    ).toEqual([{ property: "claimMatch.audiencePattern", reason: expect.any(String) }]);
    expect(failuresOf({ awsIdentity: { awsAccount: "123456789012", arn: "x" } })).toEqual([
      { property: "awsIdentity.userId", reason: expect.stringContaining("is required") },
    ]);
  });

  it("compiles every pattern as RE2: RegExp-only syntax fails, RE2-only syntax passes", () => {
    for (const bad of ["repo:(?=acme)", "(a)\\1", "a{1001}", "(unbalanced", "x*+"]) {
      const failures = failuresOf({ claimMatch: { issuer: ISSUER, subjectPattern: bad } });
      expect(failures, bad).toEqual([
        {
          property: "claimMatch.subjectPattern",
          reason: expect.stringMatching(/^not a valid RE2 pattern: /),
        },
      ]);
    }
    for (const good of ["(?i)main", "(?P<branch>main|release-.*)", "[[:alpha:]]+", "\\pL+"]) {
      expect(failuresOf({ claimMatch: { issuer: ISSUER, subjectPattern: good } }), good).toEqual(
        [],
      );
    }
    expect(
      failuresOf({
        claimMatch: {
          issuerPattern: "https://(?!evil)",
          subject: "x",
          claimPatterns: { ref: "refs/(?<=x)" },
        },
      }).map((f) => f.property),
    ).toEqual(["claimMatch.issuerPattern", "claimMatch.claimPatterns.ref"]);
    expect(
      failuresOf({ awsIdentity: { awsAccount: "123456789012", arnPattern: "(?!x)", userId: "u" } }),
    ).toEqual([{ property: "awsIdentity.arnPattern", reason: expect.stringContaining("RE2") }]);
  });

  it("applies the issuer rule to claimMatch and staticKeys, not to an issuer pattern", () => {
    expect(failuresOf({ claimMatch: { issuer: "http://issuer.example", subject: "x" } })).toEqual([
      { property: "claimMatch.issuer", reason: expect.stringContaining("https") },
    ]);
    expect(
      failuresOf({
        staticKeys: { issuer: "http://issuer.example", subject: "x", issuerKeys: jwks() },
      }),
    ).toEqual([{ property: "staticKeys.issuer", reason: expect.stringContaining("https") }]);
    expect(failuresOf({ claimMatch: { issuerPattern: "http://.*", subject: "x" } })).toEqual([]);
  });

  it("refuses reserved or empty claim names and non-string values", () => {
    const failures = failuresOf({
      claimMatch: { issuer: ISSUER, subject: "x", claims: { sub: "x", "": "y", n: 42 } },
    });
    expect(failures.map((f) => f.property).sort()).toEqual([
      "claimMatch.claims",
      "claimMatch.claims.n",
      "claimMatch.claims.sub",
    ]);
  });

  it("normalises a claimMatch to the members that are set, maps sorted and empty maps dropped", () => {
    const inputs = inputsOf({
      claimMatch: {
        issuer: ISSUER,
        subject: "",
        subjectPattern: "repo:acme/.*",
        audience: "",
        claims: { z: "1", a: "2" },
        claimPatterns: {},
      },
    });
    expect(inputs.claimMatch).toEqual({
      issuer: ISSUER,
      subjectPattern: "repo:acme/.*",
      claims: { a: "2", z: "1" },
    });
    expect(Object.keys(inputs.claimMatch?.claims ?? {})).toEqual(["a", "z"]);
  });

  it("checks static keys: public JWKS only, at most one audience, an RFC 3339 time", () => {
    const base = { issuer: ISSUER, subject: "x", issuerKeys: jwks() };
    const normalised = inputsOf({
      staticKeys: { ...base, expirationTime: "2027-01-31T01:00:00+01:00" },
    });
    expect(normalised.staticKeys).toEqual({
      ...base,
      audiences: [],
      expirationTime: "2027-01-31T00:00:00.000Z",
    });
    expect(inputsOf({ staticKeys: base }).staticKeys).not.toHaveProperty("expirationTime");

    const privateKey = jwks(true);
    const failures = failuresOf({ staticKeys: { ...base, issuerKeys: privateKey } });
    expect(failures).toEqual([
      {
        property: "staticKeys.issuerKeys",
        reason: expect.stringContaining("private key members (d)"),
      },
    ]);
    // The private key's value is never echoed.
    const d = (JSON.parse(privateKey) as { keys: Array<{ d: string }> }).keys[0].d;
    expect(JSON.stringify(failures)).not.toContain(d);
    expect(
      failuresOf({ staticKeys: { ...base, issuerKeys: "{}" } }).map((f) => f.property),
    ).toEqual(["staticKeys.issuerKeys"]);
    expect(
      failuresOf({ staticKeys: { ...base, audiences: ["a", "b"], expirationTime: "tomorrow" } })
        .map((f) => f.property)
        .sort(),
    ).toEqual(["staticKeys.audiences", "staticKeys.expirationTime"]);
  });

  it("checks awsIdentity accounts and service principal names, short names made full", () => {
    expect(
      failuresOf({
        awsIdentity: { awsAccount: "12345", arn: "arn:aws:iam::1:role/x", userId: "u" },
      }),
    ).toEqual([
      { property: "awsIdentity.awsAccount", reason: expect.stringContaining("12 digits") },
    ]);
    expect(inputsOf({ servicePrincipal: "INGESTER" }).servicePrincipal).toBe(
      "SERVICE_PRINCIPAL_INGESTER",
    );
    expect(failuresOf({ servicePrincipal: "SERVICE_PRINCIPAL_UNSPECIFIED" })).toEqual([
      { property: "servicePrincipal", reason: expect.stringContaining("must be one of") },
    ]);
  });

  it("lets values not known yet through", () => {
    expect(failuresOf({ claimMatch: { issuer: ISSUER, subjectPattern: UNKNOWN_VALUE } })).toEqual(
      [],
    );
    expect(failuresOf({ staticKeys: UNKNOWN_VALUE })).toEqual([]);
    expect(failuresOf({ servicePrincipal: UNKNOWN_VALUE })).toEqual([]);
  });
});

describe("diff: identity kinds", () => {
  const state: IdentityOutputs = {
    uid: IDENTITY,
    parentUid: GROUP,
    name: "ci-bot",
    description: "",
    claimMatch: { issuer: ISSUER, subject: "repo:acme/infra:ref:refs/heads/main" },
    createTime: "2026-11-21T10:00:00.000Z",
    updateTime: "2026-11-21T10:00:00.000Z",
  };

  it("state of an exact-match identity written by the previous version shows no change", async () => {
    const news = inputsOf({ claimMatch: { ...state.claimMatch } });
    expect(await runtime.identity.diff(IDENTITY, state, news)).toEqual({ changes: false });
  });

  it("a pattern instead of the subject is an update, another kind a replacement", async () => {
    const pattern = inputsOf({
      claimMatch: {
        issuer: ISSUER,
        subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      },
    });
    expect(await runtime.identity.diff(IDENTITY, state, pattern)).toEqual({ changes: true });
    const statik = inputsOf({ staticKeys: { issuer: ISSUER, subject: "x", issuerKeys: jwks() } });
    expect(await runtime.identity.diff(IDENTITY, state, statik)).toEqual({
      changes: true,
      replaces: ["claimMatch", "staticKeys"],
    });
    const service: IdentityOutputs = {
      ...state,
      claimMatch: undefined,
      servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    };
    expect(
      await runtime.identity.diff(IDENTITY, service, inputsOf({ servicePrincipal: "COSIGNED" })),
    ).toEqual({ changes: true, replaces: ["servicePrincipal"] });
    expect(
      await runtime.identity.diff(IDENTITY, service, inputsOf({ servicePrincipal: "INGESTER" })),
    ).toEqual({ changes: false });
  });

  it("never compares an expirationTime the program leaves to the service", async () => {
    const keys = { issuer: ISSUER, subject: "x", issuerKeys: jwks() };
    const declared = {
      ...state,
      claimMatch: undefined,
      staticKeys: { ...keys, expirationTime: "2027-11-21T10:00:00.000Z", audiences: [] },
    };
    const omitted = { ...declared, expiryOmitted: true };
    const left = inputsOf({ staticKeys: keys });
    expect(await runtime.identity.diff(IDENTITY, omitted, left)).toEqual({ changes: false });
    const same = inputsOf({ staticKeys: { ...keys, expirationTime: "2027-11-21T10:00:00Z" } });
    expect(await runtime.identity.diff(IDENTITY, declared, same)).toEqual({ changes: false });
    const later = inputsOf({ staticKeys: { ...keys, expirationTime: "2027-11-22T10:00:00Z" } });
    expect(await runtime.identity.diff(IDENTITY, declared, later)).toEqual({ changes: true });
    // The program starts or stops leaving it out: an update, to mark the state so.
    expect(await runtime.identity.diff(IDENTITY, omitted, same)).toEqual({ changes: true });
    expect(await runtime.identity.diff(IDENTITY, declared, left)).toEqual({ changes: true });
  });

  it("compares claim maps whole, in any order", async () => {
    const olds = { ...state, claimMatch: { ...state.claimMatch, claims: { a: "1", b: "2" } } };
    const reordered = inputsOf({ claimMatch: { ...state.claimMatch, claims: { b: "2", a: "1" } } });
    expect(await runtime.identity.diff(IDENTITY, olds, reordered)).toEqual({ changes: false });
    const dropped = inputsOf({ claimMatch: { ...state.claimMatch, claims: {} } });
    expect(await runtime.identity.diff(IDENTITY, olds, dropped)).toEqual({ changes: true });
  });
});

describe("identity kinds against the emulator", () => {
  let emu: ProviderFixture;
  let groupUid: string;
  let counter = 0;
  const uniqueName = (prefix: string) => `${prefix}-${++counter}`;

  beforeAll(async () => {
    emu = await startProviderFixture();
    await emu.configureRuntime();
    groupUid = (await emu.client.iam.groups.create(emu.rootGroupUid, { name: "kinds" })).uid;
  });

  afterAll(async () => {
    await emu?.close();
  });

  beforeEach(async () => {
    await emu.clearRequests();
  });

  async function checked(raw: Record<string, unknown>): Promise<IdentityInputs> {
    const result = await runtime.identity.check({}, { parentUid: groupUid, ...raw });
    expect(result.failures).toEqual([]);
    return result.inputs as IdentityInputs;
  }

  async function createIdentity(inputs: IdentityInputs) {
    const created = await runtime.identity.create(inputs);
    return { id: created.id, outs: created.outs as IdentityOutputs };
  }

  /** Updates, expecting exactly one PATCH with this mask, and the state to converge. */
  async function updateExpectingMask(
    id: string,
    olds: IdentityOutputs,
    news: IdentityInputs,
    mask: string[],
  ): Promise<IdentityOutputs> {
    await emu.clearRequests();
    expect(await runtime.identity.diff(id, olds, news)).toEqual({ changes: true });
    const outs = (await runtime.identity.update(id, olds, news)).outs as IdentityOutputs;
    const log = await emu.requests();
    expect(log.map((r) => r.method)).toEqual(["PATCH"]);
    expect(maskOf(log[0])).toEqual(mask);
    expect(await runtime.identity.diff(id, outs, news)).toEqual({ changes: false });
    const refreshed = await runtime.identity.read(id, outs);
    expect(refreshed.props).toEqual({ ...outs, __provider: identityProvider });
    return outs;
  }

  it("claimMatch: subject to subjectPattern is one PATCH of claimMatch.subjectPattern", async () => {
    const exact = await checked({
      name: uniqueName("ci"),
      claimMatch: { issuer: emu.issuer, subject: "repo:acme/infra:ref:refs/heads/main" },
    });
    const created = await createIdentity(exact);
    expect(created.outs.claimMatch).toEqual(exact.claimMatch);

    const pattern = await checked({
      name: exact.name,
      claimMatch: {
        issuer: emu.issuer,
        subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      },
    });
    const switched = await updateExpectingMask(created.id, created.outs, pattern, [
      "claim_match.subject_pattern",
    ]);
    expect(switched.claimMatch).toEqual(pattern.claimMatch);

    // An audience and a claim map added: their two paths; the map dropped again: its path.
    const narrowed = await checked({
      name: exact.name,
      claimMatch: {
        ...pattern.claimMatch,
        audience: "https://api.example",
        claims: { owner: "acme" },
      },
    });
    const withClaims = await updateExpectingMask(created.id, switched, narrowed, [
      "claim_match.audience",
      "claim_match.claims",
    ]);
    expect(withClaims.claimMatch).toEqual(narrowed.claimMatch);
    const widened = await updateExpectingMask(created.id, withClaims, pattern, [
      "claim_match.audience",
      "claim_match.claims",
    ]);
    expect(widened.claimMatch).toEqual(pattern.claimMatch);

    // Back to an exact subject: only the subject is sent.
    const back = await updateExpectingMask(created.id, widened, exact, ["claim_match.subject"]);
    expect(back.claimMatch).toEqual(exact.claimMatch);
  });

  it("a pattern the emulator would refuse never reaches it", async () => {
    const result = await runtime.identity.check(
      {},
      {
        parentUid: groupUid,
        name: "bad",
        claimMatch: { issuer: emu.issuer, subjectPattern: "(?!x)" },
      },
    );
    // On claimMatch, the input the engine can show, the member leading the reason.
    expect(result.failures?.map((f) => f.property)).toEqual(["claimMatch"]);
    expect(result.failures?.[0].reason).toMatch(/^claimMatch\.subjectPattern: /);
    expect(await emu.requests()).toEqual([]);
  });

  it("staticKeys: the service's expirationTime is kept, one member changes alone", async () => {
    const keys = await checked({
      name: uniqueName("static"),
      staticKeys: { issuer: "https://issuer.example", subject: "robot", issuerKeys: jwks() },
    });
    const created = await createIdentity(keys);
    const [post] = await emu.requests();
    expect(post.method).toBe("POST");
    expect(created.outs.staticKeys?.expirationTime).toMatch(/^\d{4}-.*Z$/);
    expect(created.outs.claimMatch).toBeUndefined();
    expect(await runtime.identity.diff(created.id, created.outs, keys)).toEqual({ changes: false });

    const audience = await checked({
      name: keys.name,
      staticKeys: { ...keys.staticKeys, audiences: ["https://api.example"] },
    });
    const updated = await updateExpectingMask(created.id, created.outs, audience, [
      "static_keys.audiences",
    ]);
    expect(updated.staticKeys?.expirationTime).toBe(created.outs.staticKeys?.expirationTime);

    const renewed = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
    const later = await checked({
      name: keys.name,
      staticKeys: { ...audience.staticKeys, expirationTime: renewed },
    });
    const extended = await updateExpectingMask(created.id, updated, later, [
      "static_keys.expiration_time",
    ]);
    expect(extended.staticKeys?.expirationTime).toBe(renewed);
  });

  it("staticKeys: an expirationTime left out stays out of the refreshed inputs; declaring or leaving it out is one update, a PATCH only when the value differs", async () => {
    const omitted = await checked({
      name: uniqueName("airgapped"),
      staticKeys: { issuer: "https://issuer.example", subject: "robot", issuerKeys: jwks() },
    });
    const created = await createIdentity(omitted);
    const service = created.outs.staticKeys?.expirationTime;
    expect(service).toMatch(/^\d{4}-.*Z$/);
    /** A refresh reads back the state and gives back `inputs`, as the program has them. */
    async function refreshesTo(outs: IdentityOutputs, inputs: IdentityInputs) {
      const refreshed = await runtime.identity.read(outs.uid, outs);
      expect(refreshed.inputs).toEqual({ ...inputs, __provider: identityProvider });
      expect(refreshed.props).toEqual({ ...outs, __provider: identityProvider });
      expect(await runtime.identity.diff(outs.uid, outs, inputs)).toEqual({ changes: false });
    }
    await refreshesTo(created.outs, omitted);

    /** One update after a diff that plans it: these requests, then nothing to do. */
    async function updated(olds: IdentityOutputs, news: IdentityInputs, methods: string[]) {
      expect(await runtime.identity.diff(olds.uid, olds, news)).toEqual({ changes: true });
      await emu.clearRequests();
      const outs = (await runtime.identity.update(olds.uid, olds, news)).outs as IdentityOutputs;
      expect((await emu.requests()).map((r) => r.method)).toEqual(methods);
      await refreshesTo(outs, news);
      return outs;
    }
    // Declared at the service's very value: no write.
    const declared = await checked({
      name: omitted.name,
      staticKeys: { ...omitted.staticKeys, expirationTime: service },
    });
    const same = await updated(created.outs, declared, ["GET"]);
    expect(same.staticKeys?.expirationTime).toBe(service);
    // Left out again: no write, and the service's value stays.
    const again = await updated(same, omitted, ["GET"]);
    expect(again.staticKeys?.expirationTime).toBe(service);
    // Declared at another value: one PATCH of it.
    const renewed = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
    const later = await checked({
      name: omitted.name,
      staticKeys: { ...omitted.staticKeys, expirationTime: renewed },
    });
    const extended = await updated(again, later, ["PATCH"]);
    expect(extended.staticKeys?.expirationTime).toBe(renewed);
    // Only the state of an identity leaving the time out carries the mark.
    expect(created.outs).toHaveProperty("expiryOmitted", true);
    expect(same).not.toHaveProperty("expiryOmitted");
    expect(extended).not.toHaveProperty("expiryOmitted");
  });

  it("awsIdentity: arn to arnPattern sends the pattern only", async () => {
    const aws = await checked({
      name: uniqueName("aws"),
      awsIdentity: {
        awsAccount: "123456789012",
        arn: "arn:aws:iam::123456789012:role/deploy",
        userId: "AROAEXAMPLE",
      },
    });
    const created = await createIdentity(aws);
    const pattern = await checked({
      name: aws.name,
      awsIdentity: {
        awsAccount: "123456789012",
        arnPattern: "arn:aws:iam::123456789012:role/deploy-.*",
        userId: "AROAEXAMPLE",
      },
    });
    const updated = await updateExpectingMask(created.id, created.outs, pattern, [
      "aws_identity.arn_pattern",
    ]);
    expect(updated.awsIdentity).toEqual(pattern.awsIdentity);
  });

  it("adopting an identity of another kind is refused, with nothing changed", async () => {
    const service = await checked({ name: uniqueName("svc"), servicePrincipal: "COSIGNED" });
    const existing = await createIdentity(service);
    await emu.clearRequests();
    const declared = await checked({
      name: service.name,
      claimMatch: { issuer: emu.issuer, subject: "main" },
      adoptUid: existing.id,
    });
    await expect(runtime.identity.create(declared)).rejects.toThrow(
      `adoptUid: identity ${existing.id} is of kind servicePrincipal, not claimMatch`,
    );
    expect((await emu.requests()).map((r) => r.method)).toEqual(["GET"]);
  });

  it("servicePrincipal: created by its full name; a description change is one PATCH", async () => {
    const service = await checked({ name: uniqueName("svc"), servicePrincipal: "INGESTER" });
    const created = await createIdentity(service);
    expect(created.outs.servicePrincipal).toBe("SERVICE_PRINCIPAL_INGESTER");
    const described = { ...service, description: "ingests" };
    await updateExpectingMask(created.id, created.outs, described, ["description"]);
  });
});
