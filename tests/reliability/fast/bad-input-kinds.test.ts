/**
 * Bad input to every input of the new resources (`Role`, `IdentityProvider`,
 * `GroupInvite`, `AccountAssociation`) and of identities of every kind: each bad value
 * is refused by the provider's `check`, naming the field and the rule, with no request
 * to the service (the emulator's request log stays empty through every check), and a
 * pasted blob is never echoed back whole.
 */
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/runtime";
import { edited } from "../../support/edited";
import { type ProviderFixture, startProviderFixture } from "../../support/provider-fixture";

type Inputs = Record<string, unknown>;
type Check = (news: Inputs) => Promise<{ failures?: Array<{ property: string; reason: string }> }>;

const ROOT = "0123456789abcdef0123456789abcdef01234567";
const CHILD = `${ROOT}/0123456789abcdef`;
const ROLE = "89abcdef0123456789abcdef0123456789abcdef";
const HUGE = "a".repeat(100_000);
/**
 * A reason this long is no longer a clear message (some list the accepted values, such
 * as the 13 service principals; none may echo a pasted blob).
 */
const MAX_REASON_LENGTH = 600;

/** One bad value: where it goes (dotted path), what it is, the property and rule expected. */
type Case = [label: string, path: string, value: unknown, property: string, rule: RegExp];

interface ResourceCases {
  type: string;
  check: Check;
  valid: Inputs;
  cases: Case[];
}

const validKeys = JSON.stringify({
  keys: [generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ format: "jwk" })],
});
const privateKeys = JSON.stringify({
  keys: [generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" })],
});

const OIDC = { issuer: "https://login.example.com", clientId: "irm" };
/** The inputs of a staticKeys identity trusting `issuerKeys`. */
const keyedIdentity = (issuerKeys: string): Inputs => ({
  parentUid: ROOT,
  name: "ci-bot",
  staticKeys: { issuer: "https://k.example", subject: "s", issuerKeys },
});
const TYPE = /must be (a|an) /;

const RESOURCES: ResourceCases[] = [
  {
    type: "Role",
    check: (news) => runtime.role.check({}, news),
    valid: { parentUid: ROOT, name: "readers", capabilities: ["CAP_REPO_LIST"] },
    cases: [
      [
        "parentUid a child uid is fine, a role uid is not",
        "parentUid",
        ROLE.slice(0, 39),
        "parentUid",
        /group uid/,
      ],
      ["parentUid traversal", "parentUid", `${ROOT}/../x`, "parentUid", /group uid/],
      ["name upper case", "name", "Readers", "name", /\^\[a-z0-9 \._-\]/],
      ["name of a built-in role", "name", "owner", "name", /built-in role/],
      ["name oversized", "name", HUGE, "name", /./],
      ["capabilities empty", "capabilities", [], "capabilities", /at least one capability/],
      [
        "capabilities missing",
        "capabilities",
        undefined,
        "capabilities",
        /at least one capability/,
      ],
      ["capabilities a string", "capabilities", "CAP_REPO_LIST", "capabilities", TYPE],
      [
        "an unknown capability",
        "capabilities",
        ["CAP_REPO_LIST", "repos.admin"],
        "capabilities",
        /^capabilities\[1\]: unknown capability/,
      ],
      [
        "the real service's spelling",
        "capabilities",
        ["role_bindings.create"],
        "capabilities",
        /^capabilities\[0\]: unknown capability/,
      ],
      [
        "an invite update, which the enum does not have",
        "capabilities",
        ["CAP_IAM_GROUP_INVITES_UPDATE"],
        "capabilities",
        /^capabilities\[0\]: unknown capability "CAP_IAM_GROUP_INVITES_UPDATE"/,
      ],
      ["a capability not a string", "capabilities", [7], "capabilities[0]", TYPE],
      ["adoptUid not a role uid", "adoptUid", "viewer", "adoptUid", /role uid/],
    ],
  },
  {
    type: "IdentityProvider",
    check: (news) => runtime.idp.check({}, news),
    valid: {
      parentUid: ROOT,
      name: "corp sso",
      defaultRole: ROLE,
      oidc: OIDC,
      clientSecret: "s3cret-value-1",
    },
    cases: [
      ["name of 2 characters", "name", "ab", "name", /3 to 63|at least 3/],
      ["name of 64 characters", "name", "a".repeat(64), "name", /63/],
      ["name with a slash", "name", "corp/sso", "name", /\^\[a-z0-9 \._-\]/],
      ["defaultRole a role name", "defaultRole", "viewer", "defaultRole", /role uid/],
      [
        "defaultRole a path with a dot segment",
        "defaultRole",
        `${ROOT}/..`,
        "defaultRole",
        /role uid/,
      ],
      ["defaultRole missing", "defaultRole", undefined, "defaultRole", /required/],
      ["oidc missing", "oidc", undefined, "oidc", /required/],
      ["oidc a string", "oidc", "https://login.example.com", "oidc", /must be an object/],
      ["oidc.issuer not a URL", "oidc.issuer", "login.example.com", "oidc.issuer", /https/],
      [
        "oidc.issuer plain http off loopback",
        "oidc.issuer",
        "http://login.example.com",
        "oidc.issuer",
        /https/,
      ],
      ["oidc.issuer missing", "oidc.issuer", undefined, "oidc.issuer", /required/],
      ["oidc.clientId empty", "oidc.clientId", "", "oidc.clientId", /required/],
      ["oidc.clientId a number", "oidc.clientId", 7, "oidc.clientId", TYPE],
      ["oidc.clientId oversized", "oidc.clientId", HUGE, "oidc.clientId", /at most/],
      [
        "a scope with whitespace",
        "oidc.additionalScopes",
        ["email", "read write"],
        "oidc.additionalScopes[1]",
        /whitespace/,
      ],
      ["an empty scope", "oidc.additionalScopes", [""], "oidc.additionalScopes[0]", /non-empty/],
      [
        "a scope twice",
        "oidc.additionalScopes",
        ["email", "email"],
        "oidc.additionalScopes[1]",
        /twice/,
      ],
      ["scopes a string", "oidc.additionalScopes", "email", "oidc.additionalScopes", TYPE],
      ["pkceEnabled a string", "oidc.pkceEnabled", "true", "oidc.pkceEnabled", /boolean/],
      [
        "an unknown correlation rule",
        "oidc.correlationRule",
        "CORRELATION_RULE_EMAIL",
        "oidc.correlationRule",
        /must be one of/,
      ],
      [
        "no client secret and no PKCE",
        "clientSecret",
        undefined,
        "clientSecret",
        /required unless oidc\.pkceEnabled/,
      ],
      ["a client secret not a string", "clientSecret", 12345, "clientSecret", /must be a string/],
      ["a client secret oversized", "clientSecret", "s".repeat(5000), "clientSecret", /at most/],
      [
        "adoptUid of another group",
        "adoptUid",
        `${"f".repeat(40)}/0123456789abcdef`,
        "adoptUid",
        /direct child of parentUid/,
      ],
    ],
  },
  {
    type: "GroupInvite",
    check: (news) => runtime.invite.check({}, news),
    valid: { groupUid: ROOT, roleUid: ROLE, ttl: 3600 },
    cases: [
      ["groupUid missing", "groupUid", undefined, "groupUid", /required/],
      ["roleUid a role name", "roleUid", "owner", "roleUid", /role uid/],
      ["ttl missing", "ttl", undefined, "ttl", /required/],
      ["ttl zero", "ttl", 0, "ttl", /./],
      ["ttl negative", "ttl", -60, "ttl", /./],
      ["ttl above 365 days", "ttl", 31_536_001, "ttl", /365 days/],
      ["ttl in hours", "ttl", "168h", "ttl", /./],
      ["ttl not a number", "ttl", Number.NaN, "ttl", /./],
      ["ttl a boolean", "ttl", true, "ttl", /./],
      ["email without @", "email", "dev.example.com", "email", /email address/],
      ["email with markup", "email", "<dev@example.com>", "email", /email address/],
      ["email oversized", "email", `${"d".repeat(300)}@example.com`, "email", /at most/],
      ["singleUse a string", "singleUse", "yes", "singleUse", /boolean/],
      ["adoptUid (invites cannot be adopted)", "adoptUid", CHILD, "adoptUid", /cannot be adopted/],
    ],
  },
  {
    type: "AccountAssociation",
    check: (news) => runtime.assoc.check({}, news),
    valid: { groupUid: ROOT, name: "prod", amazon: { account: "123456789012" } },
    cases: [
      ["no block at all", "amazon", undefined, "amazon", /at least one of/],
      ["amazon a string", "amazon", "123456789012", "amazon", /object/],
      [
        "an AWS account of 11 digits",
        "amazon.account",
        "12345678901",
        "amazon.account",
        /12 digits/,
      ],
      [
        "a GCP project id with upper case",
        "google",
        { projectId: "Acme-prod", projectNumber: "1" },
        "google.projectId",
        /GCP project id/,
      ],
      [
        "a GCP project number oversized",
        "google",
        { projectId: "acme-prod", projectNumber: "9".repeat(65) },
        "google.projectNumber",
        /at most/,
      ],
      [
        "an Azure tenant that is not a GUID",
        "azure",
        { tenantId: "acme", clientIds: {} },
        "azure.tenantId",
        /GUID/,
      ],
      [
        "an Azure client id that is not a GUID",
        "azure",
        { tenantId: "0b1c2d3e-0000-4000-8000-000000000000", clientIds: { web: "x" } },
        "azure.clientIds.web",
        /GUID/,
      ],
      [
        "a GitHub App id that is not a number",
        "github",
        { appInstallations: { acme: { installations: [{ installationId: 1 }] } } },
        "github.appInstallations.acme",
        /GitHub App id/,
      ],
      [
        "no installation",
        "github",
        { appInstallations: { "1": { installations: [] } } },
        "github.appInstallations.1.installations",
        /at least one/,
      ],
      [
        "an installationId beyond safe integer",
        "github",
        { appInstallations: { "1": { installations: [{ installationId: 2 ** 53 + 2 }] } } },
        "github.appInstallations.1.installations[0].installationId",
        /./,
      ],
      [
        "an installationId of zero",
        "github",
        { appInstallations: { "1": { installations: [{ installationId: 0 }] } } },
        "github.appInstallations.1.installations[0].installationId",
        /positive/,
      ],
      [
        "an installationId listed twice",
        "github",
        {
          appInstallations: {
            "1": { installations: [{ installationId: 5 }, { installationId: 5 }] },
          },
        },
        "github.appInstallations.1.installations[1].installationId",
        /twice/,
      ],
      [
        "an unknown service",
        "chainguard",
        { serviceBindings: { ROOT: CHILD } },
        "chainguard.serviceBindings.ROOT",
        /service name/,
      ],
      [
        "a service with its prefix",
        "chainguard",
        { serviceBindings: { SERVICE_PRINCIPAL_INGESTER: CHILD } },
        "chainguard.serviceBindings.SERVICE_PRINCIPAL_INGESTER",
        /service name/,
      ],
      [
        "a binding to another group's identity",
        "chainguard",
        { serviceBindings: { INGESTER: `${"f".repeat(40)}/0123456789abcdef` } },
        "chainguard.serviceBindings.INGESTER",
        /directly in groupUid/,
      ],
      [
        "a binding to a group uid",
        "chainguard",
        { serviceBindings: { INGESTER: ROOT } },
        "chainguard.serviceBindings.INGESTER",
        /identity uid/,
      ],
      ["adoptUid of another group", "adoptUid", "f".repeat(40), "adoptUid", /must equal groupUid/],
    ],
  },
  {
    type: "Identity (every kind)",
    check: (news) => runtime.identity.check({}, news),
    valid: {
      parentUid: ROOT,
      name: "ci-bot",
      claimMatch: { issuer: "https://token.example.com", subject: "repo:acme/x" },
    },
    cases: [
      [
        "two kinds",
        "servicePrincipal",
        "SERVICE_PRINCIPAL_INGESTER",
        "servicePrincipal",
        /only one of|exactly one/,
      ],
      [
        "both issuer and issuerPattern",
        "claimMatch.issuerPattern",
        "https://.*",
        "claimMatch.issuerPattern",
        /only one of/,
      ],
      [
        "a subject pattern RE2 refuses (lookahead)",
        "claimMatch",
        { issuer: "https://t.example", subjectPattern: "(?=x)x" },
        "claimMatch.subjectPattern",
        /RE2/,
      ],
      [
        "a backreference",
        "claimMatch",
        { issuer: "https://t.example", subjectPattern: "(a)\\1" },
        "claimMatch.subjectPattern",
        /RE2/,
      ],
      [
        "a repeat count above 1000",
        "claimMatch",
        { issuer: "https://t.example", subjectPattern: "a{1001}" },
        "claimMatch.subjectPattern",
        /RE2/,
      ],
      [
        "a pattern of 2000 characters",
        "claimMatch",
        { issuer: "https://t.example", subjectPattern: "a".repeat(2000) },
        "claimMatch.subjectPattern",
        /at most/,
      ],
      ["a reserved claim name", "claimMatch.claims", { sub: "x" }, "claimMatch.claims.sub", /./],
      [
        "a claim pattern RE2 refuses",
        "claimMatch.claimPatterns",
        { ref: "(?<=x)" },
        "claimMatch.claimPatterns.ref",
        /RE2/,
      ],
    ],
  },
];

/** The identity kinds, each in place of claimMatch. */
const KIND_CASES: Case[] = [
  [
    "issuerKeys that are not JSON",
    "staticKeys",
    { issuer: "https://k.example", subject: "s", issuerKeys: "not json" },
    "staticKeys.issuerKeys",
    /JWKS/,
  ],
  [
    "issuerKeys without keys",
    "staticKeys",
    { issuer: "https://k.example", subject: "s", issuerKeys: '{"keys":[]}' },
    "staticKeys.issuerKeys",
    /at least one/,
  ],
  [
    "issuerKeys holding a private key",
    "staticKeys",
    { issuer: "https://k.example", subject: "s", issuerKeys: privateKeys },
    "staticKeys.issuerKeys",
    /private key members \(d\)/,
  ],
  [
    "issuerKeys of an unknown kty",
    "staticKeys",
    { issuer: "https://k.example", subject: "s", issuerKeys: '{"keys":[{"kty":"oct"}]}' },
    "staticKeys.issuerKeys",
    /kty must be EC, RSA or OKP/,
  ],
  [
    "issuerKeys oversized",
    "staticKeys",
    { issuer: "https://k.example", subject: "s", issuerKeys: HUGE },
    "staticKeys.issuerKeys",
    /at most/,
  ],
  [
    "two audiences",
    "staticKeys",
    { issuer: "https://k.example", subject: "s", issuerKeys: validKeys, audiences: ["a", "b"] },
    "staticKeys.audiences",
    /./,
  ],
  [
    "an expiration that is not a time",
    "staticKeys",
    {
      issuer: "https://k.example",
      subject: "s",
      issuerKeys: validKeys,
      expirationTime: "next year",
    },
    "staticKeys.expirationTime",
    /RFC 3339|time/,
  ],
  [
    "an AWS account of letters",
    "awsIdentity",
    { awsAccount: "acme", arn: "arn:aws:iam::1:role/x", userId: "u" },
    "awsIdentity.awsAccount",
    /12 digits/,
  ],
  [
    "arn and arnPattern both",
    "awsIdentity",
    { awsAccount: "123456789012", arn: "a", arnPattern: "a.*", userId: "u" },
    "awsIdentity.arnPattern",
    /only one of/,
  ],
  [
    "no userId",
    "awsIdentity",
    { awsAccount: "123456789012", arn: "a" },
    "awsIdentity.userId",
    /required/,
  ],
  [
    "an unknown service principal",
    "servicePrincipal",
    "SERVICE_PRINCIPAL_ROOT",
    "servicePrincipal",
    /must be one of/,
  ],
  [
    "UNSPECIFIED",
    "servicePrincipal",
    "SERVICE_PRINCIPAL_UNSPECIFIED",
    "servicePrincipal",
    /must be one of/,
  ],
  ["a number", "servicePrincipal", 3, "servicePrincipal", TYPE],
];

let emu: ProviderFixture;

beforeAll(async () => {
  emu = await startProviderFixture();
  await emu.configureRuntime();
  await emu.clearRequests();
});

afterAll(async () => {
  await emu?.close();
});

/**
 * Refused naming `place` by `rule`, with short reasons, and no request sent. A nested
 * place (`oidc.clientId`) is reported on its top-level input (`oidc`, the one the engine
 * can show), or on none when that input must not be shown (key material, a long value),
 * with the place leading the reason, and `rule` judges the rest.
 */
async function expectRefused(check: Check, news: Inputs, place: string, rule: RegExp) {
  // Another test's valid check may have read its parent group: judge only this check.
  await emu.clearRequests();
  const { failures = [] } = await check(news);
  expect(await emu.requests()).toEqual([]);
  const input = /^[^.[]+/.exec(place)?.[0] ?? place;
  const lead = input === place ? "" : `${place}: `;
  const named = failures.filter(
    (f) => (f.property === input || (lead && f.property === "")) && f.reason.startsWith(lead),
  );
  expect(named, `failures: ${JSON.stringify(failures).slice(0, 600)}`).not.toHaveLength(0);
  expect(
    named.some((f) => rule.test(f.reason.slice(lead.length))),
    JSON.stringify(named).slice(0, 600),
  ).toBe(true);
  for (const failure of failures) {
    expect(failure.reason.length).toBeLessThan(MAX_REASON_LENGTH);
    expect(failure.reason).not.toContain(HUGE.slice(0, 100));
  }
}

describe.each(RESOURCES.map((r) => [r.type, r] as const))("%s", (_type, resource) => {
  it("the valid inputs pass (each case below changes one thing)", async () => {
    const { failures = [] } = await resource.check(resource.valid);
    expect(failures).toEqual([]);
  });

  it.each(resource.cases)("%s: refused naming %s", async (_label, path, value, property, rule) => {
    await expectRefused(resource.check, edited(resource.valid, path, value), property, rule);
  });
});

describe("identities of the other kinds", () => {
  const identity: Inputs = { parentUid: ROOT, name: "ci-bot" };

  it("each kind's valid inputs pass", async () => {
    for (const kind of [
      { staticKeys: { issuer: "https://k.example", subject: "s", issuerKeys: validKeys } },
      {
        awsIdentity: {
          awsAccount: "123456789012",
          arn: "arn:aws:iam::123456789012:role/ci",
          userIdPattern: "AROA.*",
        },
      },
      { servicePrincipal: "INGESTER" },
    ]) {
      const { failures = [] } = await runtime.identity.check({}, { ...identity, ...kind });
      expect(failures).toEqual([]);
    }
  });

  it.each(KIND_CASES)("%s: refused naming %s", async (_label, path, value, property, rule) => {
    await expectRefused(
      (news) => runtime.identity.check({}, news),
      { ...identity, [path]: value },
      property,
      rule,
    );
  });

  it("a private key in issuerKeys is named by its members, never quoted", async () => {
    const { failures = [] } = await runtime.identity.check({}, keyedIdentity(privateKeys));
    const d = (JSON.parse(privateKeys) as { keys: Array<{ d: string }> }).keys[0].d;
    expect(JSON.stringify(failures)).not.toContain(d);
  });
});

describe("staticKeys keys the exchange could never verify with", () => {
  const keysOf = (publicKey: { export(options: { format: "jwk" }): unknown }) =>
    JSON.stringify({ keys: [publicKey.export({ format: "jwk" })] });
  const cases: Array<[string, () => string, RegExp]> = [
    [
      "an EC key of secp256k1",
      () => keysOf(generateKeyPairSync("ec", { namedCurve: "secp256k1" }).publicKey),
      /key 0: crv "secp256k1" is not accepted for EC keys \(one of P-256, P-384, P-521\)/,
    ],
    [
      "an OKP key of X25519 (key agreement)",
      () => keysOf(generateKeyPairSync("x25519").publicKey),
      /key 0: crv "X25519" is not accepted for OKP keys \(one of Ed25519\)/,
    ],
    [
      "an RSA key of 1024 bits",
      () => keysOf(generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey),
      /key 0: an RSA key must have at least 2048 bits \(got 1024\)/,
    ],
  ];

  it.each(cases)(
    "%s: refused by check, as the service refuses it at create",
    async (_l, keys, rule) => {
      await expectRefused(
        (news) => runtime.identity.check({}, news),
        keyedIdentity(keys()),
        "staticKeys.issuerKeys",
        rule,
      );
    },
  );

  it("a P-521 key and an RSA key of 2048 bits pass", async () => {
    for (const publicKey of [
      generateKeyPairSync("ec", { namedCurve: "P-521" }).publicKey,
      generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey,
    ]) {
      const { failures = [] } = await runtime.identity.check({}, keyedIdentity(keysOf(publicKey)));
      expect(failures).toEqual([]);
    }
  });
});
