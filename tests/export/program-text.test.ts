/**
 * The whole text an export writes, pinned: for an organisation with every kind of
 * object and every way one object refers to another (by variable, by role lookup, by
 * config value; the token's own identity left out or declared), each generated file,
 * the plan and the counts are compared with files kept beside this test. The files
 * were written by the exporter before its program was split into one declarer per
 * kind; a change to the generated text shows here as a diff. After a deliberate
 * change, `npx vitest run tests/export/program-text.test.ts -u` rewrites them.
 */
import { describe, expect, it } from "vitest";
import { describeResult } from "../../exporter/cli";
import { checkProgram, type ExportResult } from "../../exporter/index";
import { declaredCounts } from "../../exporter/kinds";
import { buildProgram, type ProgramOptions } from "../../exporter/program";
import { type PackageFacts, projectFiles } from "../../exporter/project";
import type { LiveIdentityProvider, LiveOrganisation } from "../../exporter/read";
import type { ExternalGroupRoleMapping, Group, Identity, Role, RoleBinding } from "../../sdk/index";

const ROOT = "c".repeat(40);
const TIME = "2026-11-22T10:00:00.000Z";
const FACTS: PackageFacts = {
  name: "pulumi-irm",
  version: "1.2.3",
  pulumiRange: "^3.200.0",
  typescriptVersion: "5.9.3",
  nodeTypesVersion: "^20.19.0",
};

/**
 * The organisation, its uids numbered in the order the objects are made here, so the
 * text never depends on another test file.
 */
function richOrganisation(topIsRoot: boolean): LiveOrganisation {
  let counter = 0;
  const under = (parent: string) => `${parent}/${(++counter).toString(16).padStart(16, "0")}`;
  const made = { createTime: TIME, updateTime: TIME };
  const group = (parent: string, name: string, description = ""): Group => ({
    uid: under(parent),
    name,
    description,
    resourceLimits: {},
    verified: false,
    ...made,
  });
  const top: Group = topIsRoot ? { ...group(ROOT, "acme"), uid: ROOT } : group(ROOT, "platform");
  const eu = group(top.uid, "eu", 'The "EU" region');
  const us = group(top.uid, "us", "It's the US\nsecond line");
  const euTeam = group(eu.uid, "team");
  const usTeam = group(us.uid, "team");
  const digits = group(top.uid, "2024 interns");
  const reserved = group(top.uid, "default");
  const identity = (parent: string, name: string, kind: Record<string, unknown>) =>
    ({ uid: under(parent), name, description: "", ...kind, ...made }) as unknown as Identity;
  const github = (subject: string) => ({
    claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject },
  });
  const euCi = identity(euTeam.uid, "ci", github("repo:acme/eu:ref:refs/heads/main"));
  const usCi = identity(usTeam.uid, "ci", github("repo:acme/us:ref:refs/heads/main"));
  const patterns = identity(eu.uid, "deploys", {
    claimMatch: {
      issuer: "https://token.actions.githubusercontent.com",
      subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      audience: "https://api.example",
      claims: { repository_owner: "acme", "https://acme.example/team": "eu" },
      claimPatterns: { workflow: "deploy-.*" },
    },
  });
  const airgapped = identity(eu.uid, "airgapped", {
    staticKeys: {
      issuer: "https://issuer.internal.example",
      subject: "builder",
      issuerKeys: '{"keys":[{"kty":"EC","crv":"P-256","kid":"k1"}]}',
      expirationTime: "2027-11-22T10:00:00.000Z",
      audiences: ["https://api.example"],
    },
  });
  const lambda = identity(us.uid, "lambda", {
    awsIdentity: {
      awsAccount: "123456789012",
      arnPattern: "arn:aws:sts::123456789012:.*",
      userIdPattern: "AROA.*",
    },
  });
  const ingester = identity(eu.uid, "ingester", {
    servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
  });
  const future = identity(us.uid, "future", { quantumLink: { entangled: true } });
  const owner = identity(top.uid, "bootstrap owner", github("owner"));
  const role = (name: string, groupUid?: string): Role => ({
    uid: groupUid === undefined ? (++counter).toString(16).padStart(40, "0") : under(groupUid),
    name,
    description: "",
    capabilities: ["CAP_REPO_LIST", "CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
    ...made,
  });
  const viewer = role("viewer");
  const ownerRole = role("owner");
  const auditor = role("auditor", ROOT);
  const deployerEu = role("deployer", eu.uid);
  const deployerUs = role("deployer", us.uid);
  const sso = role("sso users", eu.uid);
  /** A role the token cannot list: a binding still names it. */
  const hidden = { uid: "f".repeat(40), name: "secret role" } as Role;
  const bind = (groupUid: string, who: Identity, what: Role): RoleBinding => ({
    uid: under(groupUid),
    identity: { uid: who.uid, name: who.name, description: "", subject: "", issuer: "" },
    group: { uid: groupUid, name: "", description: "" },
    role: { uid: what.uid, name: what.name, description: "" },
    createTime: TIME,
  });
  /** An identity provider named "okta", its OIDC settings at their defaults but `oidc`. */
  const idp = (
    groupUid: string,
    description: string,
    defaultRole: string,
    oidc: Partial<LiveIdentityProvider["oidc"]>,
  ): LiveIdentityProvider => ({
    uid: under(groupUid),
    name: "okta",
    description,
    defaultRole,
    oidc: {
      issuer: "https://acme.okta.example",
      clientId: "0oa9",
      additionalScopes: [],
      groupsClaim: "",
      pkceEnabled: false,
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
      ...oidc,
    },
  });
  const outsider = { uid: `${ROOT}/00000000000000ff`, name: "outsider" } as Identity;
  const mapping = (
    provider: LiveIdentityProvider,
    segment: string,
    externalGroupId: string,
    what: Role,
  ): ExternalGroupRoleMapping => ({
    uid: `${provider.uid}/${segment}`,
    identityProviderUid: provider.uid,
    externalGroupId,
    roleUid: what.uid,
    scope: ROOT,
    createTime: TIME,
  });
  const bindings = [
    bind(euTeam.uid, euCi, viewer),
    bind(euTeam.uid, euCi, deployerEu),
    bind(usTeam.uid, usCi, deployerUs),
    bind(usTeam.uid, usCi, hidden),
    bind(eu.uid, patterns, sso),
    bind(us.uid, lambda, auditor),
    bind(us.uid, outsider, viewer),
    bind(top.uid, owner, ownerRole),
  ];
  const providers = [
    idp(eu.uid, "Company sign-in", sso.uid, {
      clientId: "0oa1b2c3",
      additionalScopes: ["email", "groups"],
      groupsClaim: "groups",
      correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
    }),
    idp(us.uid, "", viewer.uid, { pkceEnabled: true }),
  ];
  return {
    top,
    topIsRoot,
    groups: [eu, us, euTeam, usTeam, digits, reserved],
    identities: [euCi, usCi, patterns, airgapped, lambda, ingester, future, owner],
    bindings,
    roles: [viewer, ownerRole, auditor, deployerEu, deployerUs, sso],
    identityProviders: providers,
    // Uids of their own (not from `under`), so the other objects keep theirs.
    externalGroupRoleMappings: [
      mapping(providers[0], "0000000000000a02", "eu-admins", deployerEu),
      mapping(providers[0], "0000000000000a01", "all staff", viewer),
      mapping(providers[1], "0000000000000a03", "auditors", auditor),
    ],
    accountAssociations: [
      {
        uid: eu.uid,
        name: "eu accounts",
        description: "",
        amazon: { account: "123456789012" },
        google: { projectId: "acme-eu-prod", projectNumber: "998877665544" },
        azure: {
          tenantId: "8f2c9e1a-1b2c-4d3e-8f9a-0b1c2d3e4f5a",
          clientIds: {
            ui: "11111111-2222-3333-4444-555555555555",
            api: "0b1c2d3e-4f5a-8f2c-9e1a-1b2c4d3e8f9a",
          },
        },
        github: {
          appInstallations: {
            "123456": {
              installations: [
                { installationId: 7890123, name: "acme" },
                { installationId: 7890124, name: "" },
              ],
            },
          },
        },
        chainguard: { serviceBindings: { INGESTER: ingester.uid, COSIGNED: future.uid } },
      },
      {
        uid: top.uid,
        name: "top accounts",
        description: "The top group's own",
        amazon: { account: "000000000001" },
      },
    ],
    // Uids of their own too: a README with quotes and line breaks, a catalog tier and
    // aliases; one without any; names and sink hosts that repeat across groups.
    repos: [
      {
        uid: `${eu.uid}/0000000000000b01`,
        name: "api",
        description: "The EU's API image",
        catalogTier: "CATALOG_TIER_APPLICATION",
        aliases: ["api-eu", "eu.api"],
        readme: '# API\n\nPull it with `docker pull "api"`.\n',
        ...made,
      },
      { uid: `${us.uid}/0000000000000b02`, name: "api", readme: "", ...made },
      {
        uid: `${top.uid}/0000000000000b03`,
        name: "base",
        catalogTier: "CATALOG_TIER_BASE",
        readme: "",
        ...made,
      },
    ],
    subscriptions: [
      { uid: `${us.uid}/0000000000000c02`, sink: "https://hooks.acme.example/irm/us" },
      { uid: `${eu.uid}/0000000000000c01`, sink: "https://hooks.acme.example/irm/eu" },
      { uid: `${top.uid}/0000000000000c03`, sink: "https://audit.acme.example/events" },
    ],
    groupInvites: [
      { uid: under(eu.uid), roleUid: viewer.uid, expirationTime: TIME },
      { uid: under(us.uid), roleUid: sso.uid, expirationTime: TIME },
    ],
    requests: {
      group: 1,
      accountAssociation: 1,
      groups: 1,
      identities: 1,
      roles: 2,
      repos: 1,
      subscriptions: 1,
      readme: 3,
    },
    callerUid: owner.uid,
  };
}

/** Every file of the project, the counts and the plan, as one text. */
function everything(
  live: LiveOrganisation,
  options: ProgramOptions,
  render: { protect: boolean; retain: boolean },
): string {
  const program = buildProgram(live, options);
  const files = projectFiles(
    program,
    { projectName: "irm-acme", apiUrl: "https://user:pw@api.example/v1?x=1", ...render },
    FACTS,
  );
  const result: ExportResult = {
    files,
    counts: declaredCounts(program),
    skippedInvites: program.skippedInvites,
    clientSecrets: program.clientSecrets,
    omissions: program.omissions,
    warnings: checkProgram(program),
    requests: live.requests,
    program,
    live,
  };
  // Warnings would carry the provider's wording: the organisation has none to give.
  expect(result.warnings).toEqual([]);
  return [
    ...Object.entries(files).map(([name, text]) => `===== ${name}\n${text}`),
    `===== counts\n${JSON.stringify(result.counts, null, 2)}\n`,
    `===== plan\n${describeResult(result, true)}\n`,
  ].join("");
}

describe("the whole text of an export", () => {
  const cases: Array<[string, boolean, ProgramOptions, { protect: boolean; retain: boolean }]> = [
    ["root", true, { declareCustomRoles: true }, { protect: false, retain: false }],
    [
      "root-self-lookups",
      true,
      { declareCustomRoles: false, includeSelf: true },
      { protect: true, retain: false },
    ],
    ["subtree", false, { declareCustomRoles: true }, { protect: true, retain: true }],
    [
      "subtree-self",
      false,
      { declareCustomRoles: true, includeSelf: true },
      { protect: false, retain: true },
    ],
  ];
  it.each(cases)("%s: the same text as the kept file", async (name, root, options, render) => {
    await expect(everything(richOrganisation(root), options, render)).toMatchFileSnapshot(
      `program-text/${name}.txt`,
    );
  });
});
