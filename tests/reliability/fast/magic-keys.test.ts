/**
 * Map entries keyed `__proto__`, `constructor` or `prototype`: in JavaScript the first
 * names an object's prototype and the others name inherited members, so such an entry
 * was accepted (200) and silently dropped, which also changed what an exchange
 * accepts. The emulator refuses them in every map-valued field with INVALID_ARGUMENT
 * naming the field and the key; the provider's `check` refuses them before any request;
 * the SDK keeps them exactly when a server answers them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import * as runtime from "../../../provider/runtime";
import { decodeAccountAssociation } from "../../../sdk/resources/account-associations";
import { decodeGroup } from "../../../sdk/resources/groups";
import { decodeIdentity } from "../../../sdk/resources/identities";
import { byPlace } from "../../support/check-failures";
import { caller, reasonOf } from "../../support/emulator-http";

const MAGIC = ["__proto__", "constructor", "prototype"];
/** `{ [key]: value }` as an own member, as JSON.parse makes it. */
const entry = (key: string, value: unknown): Record<string, unknown> =>
  JSON.parse(`{${JSON.stringify(key)}: ${JSON.stringify(value)}}`);

let emu: TestEmulator;
let call: ReturnType<typeof caller>;
let counter = 0;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  call = caller(emu.url, emu.token);
});

afterAll(async () => {
  await emu?.close();
});

async function freshGroup(): Promise<string> {
  counter += 1;
  const reply = await call<{ uid: string }>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
    body: { name: `magic-${counter}` },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.uid;
}

const ISSUER = "https://token.actions.githubusercontent.com";

describe("the emulator refuses magic keys in every map", () => {
  const identityCases = MAGIC.flatMap((key) => [
    [
      `claimMatch.claims keyed ${key}`,
      "claimMatch.claims",
      { issuer: ISSUER, subject: "s", claims: { repository_owner: "acme", ...entry(key, "x") } },
    ],
    [
      `claimMatch.claimPatterns keyed ${key}`,
      "claimMatch.claimPatterns",
      { issuer: ISSUER, subject: "s", claimPatterns: entry(key, "a.*") },
    ],
  ]) as Array<[string, string, Record<string, unknown>]>;

  it.each(identityCases)(
    "identity %s: INVALID_ARGUMENT naming field and key",
    async (_what, field, claimMatch) => {
      const group = await freshGroup();
      const reply = await call("POST", `/iam/v2beta1/identities/${group}`, {
        body: { name: "ci-bot", claimMatch },
      });
      expect(reply.status, reply.text).toBe(400);
      expect(reasonOf(reply.body)).toBe("INVALID_ARGUMENT");
      expect(reply.text).toContain(field);
      expect(reply.text).toMatch(/a key must not be/);
      const listed = await call<{ items?: unknown[]; identities?: unknown[] }>(
        "GET",
        `/iam/v2beta1/identities?uidp.children_of=${encodeURIComponent(group)}`,
      );
      expect(listed.body.identities ?? listed.body.items ?? []).toEqual([]);
    },
  );

  const associationCases = MAGIC.flatMap((key) => [
    [
      `azure.clientIds keyed ${key}`,
      "azure.clientIds",
      {
        azure: {
          tenantId: "8f2c9e1a-1b2c-4d3e-8f9a-0b1c2d3e4f5a",
          clientIds: entry(key, "11111111-2222-3333-4444-555555555555"),
        },
      },
    ],
    [
      `github.appInstallations keyed ${key}`,
      "github.appInstallations",
      { github: { appInstallations: entry(key, { installations: [{ installationId: 1 }] }) } },
    ],
    [
      `chainguard.serviceBindings keyed ${key}`,
      "chainguard.serviceBindings",
      { chainguard: { serviceBindings: entry(key, "x") } },
    ],
  ]) as Array<[string, string, Record<string, unknown>]>;

  it.each(associationCases)(
    "account association %s: INVALID_ARGUMENT naming field and key",
    async (_what, field, blocks) => {
      const group = await freshGroup();
      const reply = await call("POST", `/iam/v2beta1/accountAssociations/${group}`, {
        body: { name: "accounts", ...blocks },
      });
      expect(reply.status, reply.text).toBe(400);
      expect(reasonOf(reply.body)).toBe("INVALID_ARGUMENT");
      expect(reply.text).toContain(field);
      expect(reply.text).toMatch(/a key must not be/);
      const read = await call("GET", `/iam/v2beta1/accountAssociations/${group}`);
      expect(read.status).toBe(404);
    },
  );
});

describe("the provider refuses magic keys before any request", () => {
  it.each(MAGIC)("identity claims and claimPatterns keyed %s", async (key) => {
    const result = await runtime.identity.check(
      {},
      {
        parentUid: emu.rootGroupUid,
        name: "ci",
        claimMatch: {
          issuer: ISSUER,
          subject: "s",
          claims: entry(key, "x"),
          claimPatterns: entry(key, "a.*"),
        },
      },
    );
    // By the place each names (a member leads the reason on its top-level input, or none).
    const failures = byPlace(result.failures).map((f) => `${f.property}: ${f.reason}`);
    expect(failures).toContainEqual(
      expect.stringMatching(/^claimMatch\.claims: a key must not be/),
    );
    expect(failures).toContainEqual(
      expect.stringMatching(/^claimMatch\.claimPatterns: a key must not be/),
    );
  });

  it.each(MAGIC)("account association maps keyed %s", async (key) => {
    const result = await runtime.assoc.check(
      {},
      {
        groupUid: emu.rootGroupUid,
        name: "accounts",
        azure: {
          tenantId: "8f2c9e1a-1b2c-4d3e-8f9a-0b1c2d3e4f5a",
          clientIds: entry(key, "11111111-2222-3333-4444-555555555555"),
        },
        github: { appInstallations: entry(key, { installations: [{ installationId: 1 }] }) },
      },
    );
    // By the place each names (a member leads the reason on its top-level input, or none).
    const failures = byPlace(result.failures).map((f) => `${f.property}: ${f.reason}`);
    expect(failures).toContainEqual(expect.stringMatching(/^azure\.clientIds: a key must not be/));
    expect(failures).toContainEqual(
      expect.stringMatching(/^github\.appInstallations: a key must not be/),
    );
  });
});

describe("the SDK keeps magic keys a server answers, as members", () => {
  it("claims, claimPatterns, clientIds and resourceLimits", () => {
    const identity = decodeIdentity(
      JSON.parse(
        `{"uid":"${"a".repeat(40)}/0123456789abcdef","name":"ci","claimMatch":{"issuer":"${ISSUER}","subject":"s","claims":{"__proto__":"x","constructor":"c"},"claimPatterns":{"__proto__":"a.*"}},"createTime":"2026-11-22T10:00:00Z","updateTime":"2026-11-22T10:00:00Z"}`,
      ),
    );
    const claims = identity.claimMatch?.claims as Record<string, string>;
    expect(Object.hasOwn(claims, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(claims, "__proto__")?.value).toBe("x");
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype);
    expect(
      Object.hasOwn(identity.claimMatch?.claimPatterns as Record<string, string>, "__proto__"),
    ).toBe(true);
    const association = decodeAccountAssociation(
      JSON.parse(
        `{"uid":"${"a".repeat(40)}","name":"a","azure":{"tenantId":"t","clientIds":{"__proto__":"id"}},"createTime":"2026-11-22T10:00:00Z","updateTime":"2026-11-22T10:00:00Z"}`,
      ),
    );
    expect(Object.hasOwn(association.azure?.clientIds ?? {}, "__proto__")).toBe(true);
    const group = decodeGroup(
      JSON.parse(
        `{"uid":"${"a".repeat(40)}","name":"g","resourceLimits":{"__proto__":"5"},"createTime":"2026-11-22T10:00:00Z","updateTime":"2026-11-22T10:00:00Z"}`,
      ),
    );
    expect(Object.getOwnPropertyDescriptor(group.resourceLimits, "__proto__")?.value).toBe(5);
  });
});
