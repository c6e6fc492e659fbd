/**
 * The generated program without a service: names from awkward organisations (the same
 * name in many places, reserved words, leading digits, long names, quotes and line
 * breaks in descriptions), the same text whatever order the API listed things in,
 * Biome's layout, and a clean type check.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkProgram } from "../../exporter/index";
import { buildProgram, INVITES_SKIPPED } from "../../exporter/program";
import { packageFacts, projectFiles } from "../../exporter/project";
import type {
  LiveAccountAssociation,
  LiveIdentityProvider,
  LiveOrganisation,
} from "../../exporter/read";
import { literal, renderIndex } from "../../exporter/render";
import { createConsumerProject } from "../../harness/installed-package";
import type { Group, Identity, Role, RoleBinding } from "../../sdk/index";
import { biomeFormat, typeCheck } from "../support/export";

const ROOT = "a".repeat(40);
const TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    module: "commonjs",
    moduleResolution: "node",
    target: "ES2022",
    esModuleInterop: true,
    skipLibCheck: true,
    types: ["node"],
  },
  files: ["index.ts"],
});
const TIME = "2026-11-22T10:00:00.000Z";
let counter = 0;
const segment = () => (++counter).toString(16).padStart(16, "0");

function group(parent: string, name: string, description = ""): Group {
  return {
    uid: `${parent}/${segment()}`,
    name,
    description,
    resourceLimits: {},
    verified: false,
    createTime: TIME,
    updateTime: TIME,
  };
}
function identity(parent: string, name: string, subject: string, description = ""): Identity {
  return {
    uid: `${parent}/${segment()}`,
    name,
    description,
    claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject },
    createTime: TIME,
    updateTime: TIME,
  };
}
/** A built-in role (flat uid) without a group; a custom role is a child of its group. */
function role(name: string, groupUid?: string): Role {
  return {
    uid:
      groupUid === undefined
        ? (++counter).toString(16).padStart(40, "0")
        : `${groupUid}/${segment()}`,
    name,
    description: "",
    capabilities: ["CAP_REPO_LIST", "CAP_IAM_GROUPS_LIST"],
    createTime: TIME,
    updateTime: TIME,
  };
}
function binding(groupUid: string, who: Identity, what: Role, groupName: string): RoleBinding {
  return {
    uid: `${groupUid}/${segment()}`,
    identity: { uid: who.uid, name: who.name, description: "", subject: "", issuer: "" },
    group: { uid: groupUid, name: groupName, description: "" },
    role: { uid: what.uid, name: what.name, description: "" },
    createTime: TIME,
  };
}

/** An organisation built to make naming and layout hard. */
function awkwardOrganisation(): LiveOrganisation {
  const top: Group = { ...group(ROOT, "acme"), uid: ROOT };
  const long = "platform engineering and developer experience and everything else we do".repeat(1);
  const eu = group(ROOT, "eu", 'The "EU" region');
  const us = group(ROOT, "us", "It's the US\nsecond line \\ backslash");
  const euTeam = group(eu.uid, "team");
  const usTeam = group(us.uid, "team");
  const reserved = group(ROOT, "default");
  const digits = group(ROOT, "2024 interns");
  const spaced = group(ROOT, "a b");
  const dashed = group(ROOT, "a-b");
  const longGroup = group(ROOT, long, "x".repeat(120));
  const ciEu = identity(euTeam.uid, "ci", "repo:acme/eu:ref:refs/heads/main");
  const ciUs = identity(usTeam.uid, "ci", `repo:acme/${"very-long-repository-name-".repeat(4)}`);
  const deep = identity(longGroup.uid, long, "*", "Ünïcödé ✓");
  const bot = identity(reserved.uid, "bot", "repo:acme/bot:ref:refs/heads/main");
  const viewer = role("viewer");
  const deployerA = role("deployer", eu.uid);
  const deployerB = role("deployer", us.uid);
  const config = role("config", eu.uid);
  return {
    top,
    topIsRoot: true,
    groups: [eu, us, euTeam, usTeam, reserved, digits, spaced, dashed, longGroup],
    identities: [ciEu, ciUs, deep, bot],
    bindings: [
      binding(euTeam.uid, ciEu, viewer, "team"),
      binding(usTeam.uid, ciUs, viewer, "team"),
      binding(euTeam.uid, ciEu, deployerA, "team"),
      binding(usTeam.uid, ciUs, deployerB, "team"),
      binding(longGroup.uid, deep, config, long),
    ],
    roles: [viewer, deployerA, deployerB, config],
    identityProviders: [],
    externalGroupRoleMappings: [],
    accountAssociations: [],
    repos: [],
    subscriptions: [],
    groupInvites: [],
    requests: {},
  };
}

const reversed = (live: LiveOrganisation): LiveOrganisation => ({
  ...live,
  groups: [...live.groups].reverse(),
  identities: [...live.identities].reverse(),
  bindings: [...live.bindings].reverse(),
  roles: [...live.roles].reverse(),
});

describe("the generated program", () => {
  const live = awkwardOrganisation();
  const render = (org: LiveOrganisation, protect = false) =>
    renderIndex(buildProgram(org, { declareCustomRoles: false }), { protect, retain: false });
  const index = render(live);
  let cleanup: (() => void) | undefined;
  afterAll(() => cleanup?.());

  it("is the same text whatever order the API listed the objects in", () => {
    expect(render(reversed(live))).toBe(index);
  });

  it("qualifies repeated names by their parents, and avoids reserved words and leading digits", () => {
    const names = [...index.matchAll(/new irm\.(\w+)\(\s*("[^"]+")/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'Group "eu-team"',
        'Group "us-team"',
        'Identity "eu-team-ci"',
        'Identity "us-team-ci"',
        'Group "default"',
        'Group "2024-interns"',
        'RoleBinding "eu-team-ci-viewer"',
      ]),
    );
    expect(index).toContain('const defaultGroup = new irm.Group("default", {');
    expect(index).toContain("parentUid: defaultGroup.uid,");
    expect(index).toContain('const euTeam = new irm.Group("eu-team", {');
    // "a b" and "a-b" share their words: told apart by a piece of their uid.
    expect(names.filter((n) => /^Group "acme-a-b-[0-9a-f]{8}"$/.test(n))).toHaveLength(2);
  });

  it("looks up roles by name only where the name is unique; the others are config values", () => {
    expect(index).toContain('const viewerRole = irm.getRoleOutput({ name: "viewer" });');
    expect(index).toContain('const configRole = irm.getRoleOutput({ name: "config" });');
    expect(index).not.toContain('getRoleOutput({ name: "deployer" })');
    expect(index).toMatch(
      /const deployerRoleUid =\s+config\.get\("deployerRoleUid"\) \?\?\s+"a{40}(\/[0-9a-f]{16}){2}";/,
    );
    expect(index).toMatch(/const deployerRoleUid[0-9a-zA-Z]+ =/);
  });

  it("writes descriptions exactly, quoted as Biome quotes them", () => {
    expect(index).toContain(`description: 'The "EU" region',`);
    expect(index).toContain('description: "It\'s the US\\nsecond line \\\\ backslash",');
    expect(literal('say "hi"')).toBe(`'say "hi"'`);
    expect(literal("it's")).toBe(`"it's"`);
    // What the literals mean is what the API holds.
    // biome-ignore lint/security/noGlobalEval: evaluating a generated literal
    expect(eval(literal("a \"b\" 'c'\n\\"))).toBe("a \"b\" 'c'\n\\");
  });

  it("is laid out as Biome lays it out, with and without resource options", async () => {
    expect(await biomeFormat(index)).toBe(index);
    const protectedIndex = render(live, true);
    expect(await biomeFormat(protectedIndex)).toBe(protectedIndex);
  });

  it("declares custom roles as irm.Role when asked", async () => {
    const withRoles = renderIndex(buildProgram(live, { declareCustomRoles: true }), {
      protect: false,
      retain: false,
    });
    expect(withRoles).toMatch(
      /const euDeployer = new irm\.Role\("eu-deployer", \{\n {2}parentUid: eu\.uid,/,
    );
    expect(withRoles).toContain('capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],');
    expect(withRoles).toContain("roleUid: euDeployer.uid,");
    expect(withRoles).not.toContain('getRoleOutput({ name: "config" })');
    expect(await biomeFormat(withRoles)).toBe(withRoles);
  });

  it("type-checks against the installed package", async () => {
    const project = createConsumerProject({
      name: "export-awkward",
      files: {
        "index.ts": index,
        "tsconfig.json": TSCONFIG,
      },
    });
    cleanup = project.remove;
    expect(fs.existsSync(path.join(project.dir, "index.ts"))).toBe(true);
    const checked = await typeCheck(project.dir);
    expect(checked.output).toBe("");
  }, 180_000); // tsc over @pulumi/pulumi's types: up to a minute on two busy cores
});

describe("roles, told apart by uid", () => {
  // Roles as the API answers them: no parent field; a custom role's uid is its group's child.
  const top: Group = { ...group(ROOT, "acme"), uid: `${ROOT}/${segment()}` };
  const team = group(top.uid, "team");
  const ci = identity(team.uid, "ci", "repo:acme/ci:ref:refs/heads/main");
  const builtIn = role("viewer");
  const above = role("auditor", ROOT);
  const own = role("deployer", team.uid);
  const live: LiveOrganisation = {
    top,
    topIsRoot: false,
    groups: [team],
    identities: [ci],
    bindings: [
      binding(team.uid, ci, builtIn, "team"),
      binding(team.uid, ci, above, "team"),
      binding(team.uid, ci, own, "team"),
    ],
    roles: [builtIn, above, own],
    identityProviders: [],
    externalGroupRoleMappings: [],
    accountAssociations: [],
    repos: [],
    subscriptions: [],
    groupInvites: [],
    requests: {},
  };

  it("declares a custom role of the subtree under the group its uid names", () => {
    const program = buildProgram(live, { declareCustomRoles: true });
    expect(program.roles.map((r) => [r.name, r.uid, r.parent])).toEqual([
      ["deployer", own.uid, { kind: "resource", variable: "team" }],
    ]);
    expect(checkProgram(program)).toEqual([]);
  });

  it("looks a built-in role up plainly, and a custom role above the subtree with its group and capabilities", () => {
    const program = buildProgram(live, { declareCustomRoles: true });
    expect(program.lookups.map((l) => [l.name, l.note])).toEqual([
      ["auditor", `custom role of "${ROOT}": CAP_IAM_GROUPS_LIST, CAP_REPO_LIST`],
      ["viewer", undefined],
    ]);
    const lookedUp = buildProgram(live, { declareCustomRoles: false });
    expect(lookedUp.roles).toEqual([]);
    expect(lookedUp.omissions.map((o) => o.what)).toEqual([
      `custom role "deployer" (${own.uid}, custom role of "team": CAP_IAM_GROUPS_LIST, CAP_REPO_LIST)`,
    ]);
  });
});

const ISSUER_KEYS = JSON.stringify({
  keys: [
    {
      kty: "EC",
      crv: "P-256",
      x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
      y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
      kid: "k1",
    },
  ],
});

/** An organisation with every kind of object the API has (addendum sections 3 to 7). */
function fullOrganisation(): LiveOrganisation {
  const top: Group = { ...group(ROOT, "acme"), uid: ROOT };
  const eu = group(ROOT, "eu", "Europe");
  const us = group(ROOT, "us");
  const patterns = {
    ...identity(eu.uid, "deploys", ""),
    claimMatch: {
      issuer: "https://token.actions.githubusercontent.com",
      subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",
      audience: "https://api.example",
      claims: { repository_owner: "acme", "https://acme.example/team": "eu" },
      claimPatterns: { workflow: "deploy-.*" },
    },
  } as Identity;
  const anyIssuer = {
    ...identity(us.uid, "any issuer", ""),
    claimMatch: { issuerPattern: "https://issuer\\.(a|b)\\.example", subject: "svc" },
  } as Identity;
  const airgapped = {
    ...identity(eu.uid, "airgapped", ""),
    claimMatch: undefined,
    staticKeys: {
      issuer: "https://issuer.internal.example",
      subject: "builder",
      issuerKeys: ISSUER_KEYS,
      expirationTime: "2027-11-22T10:00:00.000Z",
      audiences: ["https://api.example"],
    },
  } as unknown as Identity;
  const lambda = {
    ...identity(us.uid, "lambda", ""),
    claimMatch: undefined,
    awsIdentity: {
      awsAccount: "123456789012",
      arnPattern: "arn:aws:sts::123456789012:assumed-role/deployer/.*",
      userId: "AROAEXAMPLE:deployer",
    },
  } as unknown as Identity;
  const ingester = {
    ...identity(eu.uid, "ingester", ""),
    claimMatch: undefined,
    servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
  } as unknown as Identity;
  const unknownKind = {
    ...identity(us.uid, "future", ""),
    claimMatch: undefined,
    quantumLink: { entangled: true },
  } as unknown as Identity;
  const viewer = role("viewer");
  const sso = role("sso users", eu.uid);
  const okta: LiveIdentityProvider = {
    uid: `${eu.uid}/${segment()}`,
    name: "okta",
    description: "Company sign-in",
    defaultRole: sso.uid,
    oidc: {
      issuer: "https://acme.okta.example",
      clientId: "0oa1b2c3",
      additionalScopes: ["email", "groups"],
      groupsClaim: "groups",
      pkceEnabled: false,
      correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
    },
  };
  const pkce: LiveIdentityProvider = {
    uid: `${us.uid}/${segment()}`,
    name: "okta",
    description: "",
    defaultRole: viewer.uid,
    oidc: {
      issuer: "https://acme.okta.example",
      clientId: "0oa9",
      additionalScopes: [],
      groupsClaim: "",
      pkceEnabled: true,
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
    },
  };
  const euAccounts: LiveAccountAssociation = {
    uid: eu.uid,
    name: "eu accounts",
    description: "",
    amazon: { account: "123456789012" },
    google: { projectId: "acme-eu-prod", projectNumber: "998877665544" },
    azure: {
      tenantId: "8f2c9e1a-1b2c-4d3e-8f9a-0b1c2d3e4f5a",
      clientIds: { ui: "11111111-2222-3333-4444-555555555555" },
    },
    github: {
      appInstallations: {
        "123456": {
          installations: [
            { installationId: 7890123, name: "acme" },
            { installationId: 7890124, name: "acme-labs" },
          ],
        },
        "99": { installations: [{ installationId: 5 }] },
      },
    },
    chainguard: { serviceBindings: { INGESTER: ingester.uid } },
  };
  const rootAccounts: LiveAccountAssociation = {
    uid: ROOT,
    name: "org accounts",
    description: "The organisation's own",
    amazon: { account: "000000000001" },
  };
  return {
    top,
    topIsRoot: true,
    groups: [eu, us],
    identities: [patterns, anyIssuer, airgapped, lambda, ingester, unknownKind],
    bindings: [binding(eu.uid, patterns, sso, "eu"), binding(us.uid, lambda, viewer, "us")],
    roles: [viewer, sso],
    identityProviders: [okta, pkce],
    externalGroupRoleMappings: [],
    accountAssociations: [euAccounts, rootAccounts],
    repos: [
      {
        uid: `${eu.uid}/${segment()}`,
        name: "api",
        description: "The EU's API image",
        catalogTier: "CATALOG_TIER_APPLICATION",
        aliases: ["api-eu", "eu.api"],
        readme: '# API\n\nPull it with `docker pull "api"`.\n',
        createTime: TIME,
        updateTime: TIME,
      },
      {
        uid: `${us.uid}/${segment()}`,
        name: "api",
        catalogTier: "CATALOG_TIER_UNSPECIFIED",
        aliases: [],
        readme: "",
        createTime: TIME,
      },
    ],
    subscriptions: [
      { uid: `${eu.uid}/${segment()}`, sink: "https://hooks.acme.example/irm/eu" },
      { uid: `${us.uid}/${segment()}`, sink: "https://hooks.acme.example/irm/us" },
      { uid: `${ROOT}/${segment()}`, sink: "https://audit.acme.example/events" },
    ],
    groupInvites: [
      { uid: `${eu.uid}/${segment()}`, roleUid: viewer.uid, expirationTime: TIME },
      { uid: `${us.uid}/${segment()}`, roleUid: sso.uid, expirationTime: TIME },
    ],
    requests: {},
  };
}

describe("the generated program for every kind of object", () => {
  const live = fullOrganisation();
  const program = buildProgram(live, { declareCustomRoles: true });
  const index = renderIndex(program, { protect: false, retain: false });

  it("declares custom roles, referred to by variable from bindings and default roles", () => {
    expect(index).toMatch(
      /const ssoUsers = new irm\.Role\("sso-users", \{\n {2}parentUid: eu\.uid,\n {2}name: "sso users",\n {2}capabilities: \["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"\],\n {2}adoptUid: "[0-9a-f]{40}(\/[0-9a-f]{16}){2}",\n\}\);/,
    );
    expect(index).toContain("roleUid: ssoUsers.uid,");
    expect(index).toContain("defaultRole: ssoUsers.uid,");
    expect(index).not.toContain('getRoleOutput({ name: "sso users" })');
  });

  it("writes each identity kind with exactly the members that are set", () => {
    expect(index).toContain(
      [
        "  claimMatch: {",
        '    issuer: "https://token.actions.githubusercontent.com",',
        '    subjectPattern: "repo:acme/infra:ref:refs/heads/(main|release-.*)",',
        '    audience: "https://api.example",',
        '    claims: { "https://acme.example/team": "eu", repository_owner: "acme" },',
        '    claimPatterns: { workflow: "deploy-.*" },',
        "  },",
      ].join("\n"),
    );
    expect(index).toContain(
      '  claimMatch: { issuerPattern: "https://issuer\\\\.(a|b)\\\\.example", subject: "svc" },',
    );
    // The JWKS exactly as the API holds it (single-quoted: it is full of double quotes).
    expect(index).toContain(`    issuerKeys:\n      ${literal(ISSUER_KEYS)},`);
    expect(index).toContain('    audiences: ["https://api.example"],');
    // The expiry is said, not declared: the provider keeps the service's and never diffs it.
    expect(index).not.toContain("expirationTime:");
    expect(index).toContain("// Its static keys expire at 2027-11-22T10:00:00.000Z;");
    expect(index).toContain(
      [
        "  awsIdentity: {",
        '    awsAccount: "123456789012",',
        '    arnPattern: "arn:aws:sts::123456789012:assumed-role/deployer/.*",',
        '    userId: "AROAEXAMPLE:deployer",',
        "  },",
      ].join("\n"),
    );
    expect(index).toContain('  servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",');
    // An identity of a kind this version does not know is left out and said so.
    expect(program.identities.map((i) => i.name)).not.toContain("future");
    expect(program.omissions.map((o) => o.what)).toContainEqual(
      expect.stringContaining('identity "future"'),
    );
  });

  it("declares identity providers with their client secret from config under a key per provider", () => {
    const [okta, pkce] = program.clientSecrets;
    expect(okta.configKey).toBe(`clientSecret-${live.identityProviders[0].uid.slice(-16)}`);
    expect(okta.optional).toBe(false);
    expect(pkce.optional).toBe(true);
    // Read at the top, before any resource: without PKCE required, so a run without it
    // stops at once naming the key; with PKCE optional.
    expect(index).toContain(
      `/** Of "okta". */\nconst euOktaClientSecret = config.requireSecret("${okta.configKey}");`,
    );
    expect(index).toContain(
      `/** Of "okta" (optional: it uses PKCE). */\nconst usOktaClientSecret = config.getSecret("${pkce.configKey}");`,
    );
    expect(index.indexOf("config.requireSecret(")).toBeLessThan(index.indexOf("new irm."));
    expect(index.indexOf("config.requireSecret(")).toBeLessThan(index.indexOf("getRoleOutput("));
    expect(index).toContain("  clientSecret: euOktaClientSecret,");
    expect(index).toContain("  clientSecret: usOktaClientSecret,");
    expect(index).toContain("const config = new pulumi.Config();");
    // Members at their default are left out; the others are written as the API holds them.
    expect(index).toContain(
      [
        "  oidc: {",
        '    issuer: "https://acme.okta.example",',
        '    clientId: "0oa1b2c3",',
        '    additionalScopes: ["email", "groups"],',
        '    groupsClaim: "groups",',
        '    correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",',
        "  },",
      ].join("\n"),
    );
    expect(index).toContain(
      '  oidc: { issuer: "https://acme.okta.example", clientId: "0oa9", pkceEnabled: true },',
    );
    expect(index).toContain('const viewerRole = irm.getRoleOutput({ name: "viewer" });');
    expect(index).toContain("defaultRole: viewerRole.uid,");
    // Two providers named "okta": qualified by their groups.
    expect(index).toContain('new irm.IdentityProvider("eu-okta", {');
    expect(index).toContain('new irm.IdentityProvider("us-okta", {');
  });

  it("declares account associations, referring to service-principal identities by variable", () => {
    expect(index).toContain('new irm.AccountAssociation("eu-accounts", {\n  groupUid: eu.uid,');
    expect(index).toContain("  chainguard: { serviceBindings: { INGESTER: ingester.uid } },");
    expect(index).toMatch(/const ingester = new irm\.Identity\("ingester", \{/);
    // Two installations of one app, each with two members: one per line, as Biome prints them.
    // (Integer-like keys come first in ascending order, as JavaScript orders them.)
    expect(index).toContain(
      [
        '      "99": { installations: [{ installationId: 5 }] },',
        '      "123456": {',
        "        installations: [",
        '          { installationId: 7890123, name: "acme" },',
        '          { installationId: 7890124, name: "acme-labs" },',
        "        ],",
        "      },",
      ].join("\n"),
    );
    // The root's own association refers to the root by config, like everything in it.
    expect(index).toMatch(
      /new irm\.AccountAssociation\("org-accounts", \{\n {2}groupUid: rootGroupUid,\n {2}name: "org accounts",\n {2}description: "The organisation's own",\n {2}amazon: \{ account: "000000000001" \},\n {2}adoptUid: "a{40}",\n\}\);/,
    );
  });

  it("declares repos with their settings and README, members at their default left out", () => {
    expect(index).toContain(
      [
        'new irm.Repo("eu-api", {',
        "  parentUid: eu.uid,",
        '  name: "api",',
        `  description: "The EU's API image",`,
        '  catalogTier: "CATALOG_TIER_APPLICATION",',
        '  aliases: ["api-eu", "eu.api"],',
        `  readme: '# API\\n\\nPull it with \`docker pull "api"\`.\\n',`,
        `  adoptUid: "${live.repos[0].uid}",`,
        "});",
      ].join("\n"),
    );
    // No tier, no aliases, no README: nothing but its name, as the provider's defaults fill in.
    expect(index).toContain(
      [
        'new irm.Repo("us-api", {',
        "  parentUid: us.uid,",
        '  name: "api",',
        `  adoptUid: "${live.repos[1].uid}",`,
        "});",
      ].join("\n"),
    );
    expect(program.repos.map((r) => r.readme)).toEqual([live.repos[0].readme, undefined]);
  });

  it("declares event subscriptions by group and sink, named after the sink's host", () => {
    expect(index).toContain(
      [
        'new irm.Subscription("audit-acme-example-events", {',
        "  parentUid: rootGroupUid,",
        '  sink: "https://audit.acme.example/events",',
        `  adoptUid: "${live.subscriptions[2].uid}",`,
        "});",
      ].join("\n"),
    );
    // The same host in two groups: qualified by the groups' names.
    expect(index).toContain('new irm.Subscription("eu-hooks-acme-example-events", {');
    expect(index).toContain('new irm.Subscription("us-hooks-acme-example-events", {');
    expect(program.subscriptions.map((s) => s.sink)).toEqual([
      "https://audit.acme.example/events",
      "https://hooks.acme.example/irm/eu",
      "https://hooks.acme.example/irm/us",
    ]);
  });

  it("counts the group invites it skips, and says why", () => {
    expect(program.skippedInvites).toBe(2);
    const note = program.omissions.find((o) => o.what === "2 group invites");
    expect(note?.why).toBe(INVITES_SKIPPED);
    expect(index).toContain("// - 2 group invites: skipped: an invite's code");
  });

  it("is the same text whatever order the API listed the objects in", () => {
    const shuffled: LiveOrganisation = {
      ...reversed(live),
      identityProviders: [...live.identityProviders].reverse(),
      accountAssociations: [...live.accountAssociations].reverse(),
      repos: [...live.repos].reverse(),
      subscriptions: [...live.subscriptions].reverse(),
      groupInvites: [...live.groupInvites].reverse(),
    };
    expect(
      renderIndex(buildProgram(shuffled, { declareCustomRoles: true }), {
        protect: false,
        retain: false,
      }),
    ).toBe(index);
  });

  it("is laid out as Biome lays it out, with and without resource options", async () => {
    expect(await biomeFormat(index)).toBe(index);
    const withOptions = renderIndex(program, { protect: true, retain: true });
    expect(await biomeFormat(withOptions)).toBe(withOptions);
  });

  it("the generated README names the client secret's mask path as the API spells it", () => {
    const files = projectFiles(
      program,
      { projectName: "irm-acme", apiUrl: "https://api.example", protect: false, retain: false },
      packageFacts(),
    );
    expect(files["README.md"]).toContain("one `PATCH` with `updateMask=oidc.client_secret`");
    expect(files["README.md"]).not.toContain("oidc.clientSecret");
  });

  it("passes the provider's own checks, which name what they would refuse", () => {
    expect(checkProgram(program)).toEqual([]);
    const plainHttp = buildProgram(
      {
        ...live,
        identityProviders: live.identityProviders.map((p) => ({
          ...p,
          oidc: { ...p.oidc, issuer: "http://login.acme.example" },
        })),
      },
      { declareCustomRoles: true },
    );
    const warnings = checkProgram(plainHttp);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^identity provider eu-okta \(.+\): oidc\.issuer: /);
  });

  it("type-checks against the installed package", async () => {
    const project = createConsumerProject({
      name: "export-every-kind",
      files: { "index.ts": index, "tsconfig.json": TSCONFIG },
    });
    try {
      expect((await typeCheck(project.dir)).output).toBe("");
    } finally {
      project.remove();
    }
  }, 180_000);
});
