/**
 * Identities of the four kinds against a scripted stand-in: exactly one kind per
 * answer, the one-of pairs of `claimMatch` and `awsIdentity`, the size of
 * `staticKeys.issuerKeys`, the 13 service principals, and the `relationship_type`
 * filter.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  BadResponseError,
  type Identity,
  identityKind,
  SERVICE_PRINCIPAL_NAMES,
  SERVICE_PRINCIPALS,
} from "../../sdk";
import { failure } from "../support/sdk-helpers";
import { json, StandIn } from "../support/sdk-stand-in";

const ROOT = "a".repeat(40);
const UID = `${ROOT}/0123456789abcdef`;
const TIMES = { createTime: "2026-11-22T10:00:00.000Z", updateTime: "2026-11-22T10:00:00.000Z" };
const GITHUB = "https://token.actions.githubusercontent.com";
const JWKS = JSON.stringify({ keys: [{ kty: "OKP", crv: "Ed25519", x: "abc" }] });

function identity(kind: Record<string, unknown>) {
  return { uid: UID, name: "deployer", description: "", ...kind, ...TIMES };
}

let standIn: StandIn;
beforeAll(async () => {
  standIn = await new StandIn().start();
});
afterEach(() => standIn.reset());
afterAll(() => standIn.close());

async function read(answer: unknown): Promise<Identity> {
  standIn.answer(json(answer));
  return standIn.client().iam.identities.get(UID);
}

describe("identity kinds: answers", () => {
  it("reads an exact claimMatch with today's exact shape", async () => {
    const got = await read(identity({ claimMatch: { issuer: GITHUB, subject: "repo:a/b" } }));
    expect(got.claimMatch).toEqual({ issuer: GITHUB, subject: "repo:a/b" });
    expect(identityKind(got)).toBe("claimMatch");
  });

  it("reads patterns, audiences and claim maps, and only the members that are set", async () => {
    const claimMatch = {
      issuerPattern: "https://token\\.actions\\..*",
      subject: "",
      subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      audience: "https://api.example",
      claims: { repository_owner: "acme" },
      claimPatterns: {},
    };
    const got = await read(identity({ claimMatch }));
    expect(got.claimMatch).toEqual({
      issuerPattern: claimMatch.issuerPattern,
      subjectPattern: claimMatch.subjectPattern,
      audience: "https://api.example",
      claims: { repository_owner: "acme" },
    });
  });

  it("reads staticKeys whole, awsIdentity with its pairs, and a service principal", async () => {
    const staticKeys = {
      issuer: "https://ci.internal",
      subject: "builder",
      issuerKeys: JWKS,
      expirationTime: "2027-11-22T10:00:00.000Z",
      audiences: [],
    };
    expect((await read(identity({ staticKeys }))).staticKeys).toEqual(staticKeys);
    const aws = { awsAccount: "123456789012", arnPattern: "arn:aws:iam::.*", userId: "AIDA1" };
    const got = await read(identity({ awsIdentity: aws }));
    expect(got.awsIdentity).toEqual(aws);
    expect(got.claimMatch).toBeUndefined();
    for (const principal of SERVICE_PRINCIPALS) {
      const sp = await read(identity({ servicePrincipal: principal }));
      expect(sp.servicePrincipal).toBe(principal);
      expect(identityKind(sp)).toBe("servicePrincipal");
    }
    expect(SERVICE_PRINCIPALS).toHaveLength(13);
    expect(SERVICE_PRINCIPALS).toContain("SERVICE_PRINCIPAL_INGESTER");
    expect(SERVICE_PRINCIPAL_NAMES).toContain("CATALOG_SYNCER");
  });

  const exact = { issuer: GITHUB, subject: "s" };
  it.each([
    [
      "no kind",
      {},
      "identity: expected exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal, got none",
    ],
    [
      "two kinds",
      { claimMatch: exact, servicePrincipal: "SERVICE_PRINCIPAL_COSIGNED" },
      "got claimMatch and servicePrincipal",
    ],
    [
      "both issuer members",
      { claimMatch: { ...exact, issuerPattern: ".*" } },
      "identity.claimMatch.issuerPattern: both issuer and issuerPattern are set",
    ],
    [
      "neither subject member",
      { claimMatch: { issuer: GITHUB } },
      "identity.claimMatch.subject: missing (expected subject or subjectPattern)",
    ],
    [
      "both audience members",
      { claimMatch: { ...exact, audience: "a", audiencePattern: "a" } },
      "identity.claimMatch.audiencePattern: both audience and audiencePattern are set",
    ],
    [
      "a claim that is not a string",
      { claimMatch: { ...exact, claims: { n: 42 } } },
      "identity.claimMatch.claims.n: expected a string, got a number",
    ],
    [
      "claims that are a list",
      { claimMatch: { ...exact, claims: ["a"] } },
      "identity.claimMatch.claims: expected an object, got an array",
    ],
    [
      "issuer keys over 65,536 characters",
      {
        staticKeys: {
          issuer: GITHUB,
          subject: "s",
          issuerKeys: "x".repeat(65_537),
          expirationTime: TIMES.createTime,
        },
      },
      "identity.staticKeys.issuerKeys: longer than 65536 characters (65537)",
    ],
    [
      "static keys without expirationTime",
      { staticKeys: { issuer: GITHUB, subject: "s", issuerKeys: JWKS } },
      "identity.staticKeys.expirationTime: missing",
    ],
    [
      "an AWS identity without arn",
      { awsIdentity: { awsAccount: "123456789012", userId: "u" } },
      "identity.awsIdentity.arn: missing (expected arn or arnPattern)",
    ],
    [
      "an unknown service principal",
      { servicePrincipal: "SERVICE_PRINCIPAL_PRINTER" },
      'identity.servicePrincipal: unknown value "SERVICE_PRINCIPAL_PRINTER"',
    ],
    [
      "a short service principal name",
      { servicePrincipal: "INGESTER" },
      'identity.servicePrincipal: unknown value "INGESTER"',
    ],
    [
      "a claimMatch that is a string",
      { claimMatch: "x" },
      "identity.claimMatch: expected an object, got a string",
    ],
  ])("refuses %s", async (_what, kind, message) => {
    standIn.answer(json(identity(kind)));
    const error = await failure(standIn.client().iam.identities.get(UID));
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(message);
  });
});

describe("identity kinds: requests", () => {
  it("creates each kind with the body as given", async () => {
    const client = standIn.client();
    const bodies = [
      { name: "a", claimMatch: { issuerPattern: "https://.*", subject: "s", claims: { k: "v" } } },
      { name: "b", staticKeys: { issuer: GITHUB, subject: "s", issuerKeys: JWKS } },
      { name: "c", awsIdentity: { awsAccount: "123456789012", arn: "arn", userIdPattern: ".*" } },
      { name: "d", servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" as const },
    ];
    for (const body of bodies) {
      const { name: _name, ...kind } = body;
      standIn.answer(
        json(
          identity(
            body.staticKeys
              ? { staticKeys: { ...body.staticKeys, expirationTime: TIMES.createTime } }
              : kind,
          ),
        ),
      );
      await client.iam.identities.create(ROOT, body);
    }
    expect(standIn.seen.map((r) => r.body)).toEqual(bodies);
    expect(standIn.seen.every((r) => r.path === `/iam/v2beta1/identities/${ROOT}`)).toBe(true);
  });

  it("updates with a mask of the paths of 6.8", async () => {
    standIn.answer(json(identity({ claimMatch: { issuer: GITHUB, subjectPattern: "repo:.*" } })));
    await standIn
      .client()
      .iam.identities.update(
        UID,
        { claimMatch: { subjectPattern: "repo:.*" } },
        { updateMask: ["claim_match.subject_pattern", "claim_match.claims"] },
      );
    expect(standIn.seen[0].rawQuery).toBe(
      "updateMask=claim_match.subject_pattern,claim_match.claims",
    );
  });

  it("sends relationshipType as relationship_type and refuses items of another kind", async () => {
    const client = standIn.client();
    standIn.answer(
      json({
        identities: [identity({ servicePrincipal: "SERVICE_PRINCIPAL_SKILLS" })],
        totalCount: "1",
      }),
      json({
        identities: [identity({ claimMatch: { issuer: GITHUB, subject: "s" } })],
        totalCount: "1",
      }),
      json({
        identities: [identity({ claimMatch: { issuer: GITHUB, subject: "s" } })],
        totalCount: "1",
      }),
    );
    const page = await client.iam.identities.list({
      relationshipType: "RELATIONSHIP_TYPE_SERVICE_PRINCIPAL",
      childrenOf: ROOT,
    });
    expect(page.items).toHaveLength(1);
    expect(standIn.seen[0].query).toEqual({
      "uidp.children_of": ROOT,
      relationship_type: "RELATIONSHIP_TYPE_SERVICE_PRINCIPAL",
    });
    const error = await failure(
      client.iam.identities.list({ relationshipType: "RELATIONSHIP_TYPE_STATIC" }).then((p) => p),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(
      `identities[0].claimMatch: ${UID} is not of kind staticKeys, which the listing was filtered to (RELATIONSHIP_TYPE_STATIC)`,
    );
    // UNSPECIFIED matches every kind.
    await client.iam.identities.list({ relationshipType: "RELATIONSHIP_TYPE_UNSPECIFIED" });
    expect(standIn.seen[2].query).toEqual({ relationship_type: "RELATIONSHIP_TYPE_UNSPECIFIED" });
  });
});
