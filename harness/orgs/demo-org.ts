/**
 * The demo organisation, made through the SDK: the objects `examples/org-hierarchy`
 * declares (what `npm run demo` deploys), with the same names, descriptions, subjects
 * and roles, plus a custom role in `engineering` bound to platform's CI identity, and
 * one object of each kind the IAM addendum adds: a custom role that is an identity
 * provider's default role, two identity providers (one with a client secret, one with
 * PKCE), an identity of every kind (claim patterns with audience and claims, static
 * keys, AWS, a service principal), an account association naming the service
 * principal, a mapping of the first provider's outside group to a role, and a group
 * invite (which the export skips). Of the registry: a repo of `engineering` with a
 * README, a catalog tier and aliases (the emulator's sample repos under the root have a
 * tier and no README), and event subscriptions of `engineering` and the root.
 * Made directly, so the export tests do not depend on deploying the example.
 */
import { generateKeyPairSync } from "node:crypto";
import { IrmClient } from "../../sdk/index";

/** The client secret the demo's identity provider `acme sso` was created with. */
export const DEMO_CLIENT_SECRET = "demo-client-secret-not-for-production";

/** A JWKS of one fresh public EC key, as `staticKeys.issuerKeys` takes it. */
function publicJwks(): string {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return JSON.stringify({ keys: [{ ...publicKey.export({ format: "jwk" }), kid: "demo" }] });
}

const TEAMS = [
  { name: "platform", description: "Build and runtime infrastructure", role: "editor" },
  { name: "payments", description: "Card and ledger services", role: "editor" },
  {
    name: "payments-api",
    parent: "payments",
    description: "Public payments API",
    role: "viewer",
  },
];

/** Uids of the demo organisation's objects, by the example's resource names. */
export type DemoUids = Record<string, string>;

/**
 * What `examples/org-hierarchy` declares, made directly through the SDK: `engineering`,
 * its three teams, each team's CI identity, its binding on its team and its
 * `registry.pull` on the root (13 objects). Answers their uids by name.
 */
export async function createOrgHierarchy(
  emulator: { url: string; token: string; rootGroupUid: string },
  client: IrmClient = new IrmClient({ baseUrl: emulator.url, token: emulator.token }),
): Promise<DemoUids> {
  const uids: DemoUids = {};
  const roles = new Map(
    (await client.iam.roles.list({ pageSize: 200 })).items.map((r) => [r.name, r.uid]),
  );
  const engineering = await client.iam.groups.create(emulator.rootGroupUid, {
    name: "engineering",
    description: "All engineering teams",
  });
  uids.engineering = engineering.uid;
  for (const team of TEAMS) {
    const parent = uids[team.parent ?? "engineering"];
    const group = await client.iam.groups.create(parent, {
      name: team.name,
      description: team.description,
    });
    uids[team.name] = group.uid;
    const repository = `acme/${team.name}`;
    const ci = await client.iam.identities.create(group.uid, {
      name: `${team.name}-ci`,
      description: `CI of ${repository} (main branch)`,
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: `repo:${repository}:ref:refs/heads/main`,
      },
    });
    uids[`${team.name}-ci`] = ci.uid;
    const own = await client.iam.roleBindings.create(group.uid, {
      identityUid: ci.uid,
      roleUid: roles.get(team.role)!,
    });
    uids[`${team.name}-ci-${team.role}`] = own.uid;
    // The example grants registry.pull on the group owning the shared repository: the root.
    const pull = await client.iam.roleBindings.create(emulator.rootGroupUid, {
      identityUid: ci.uid,
      roleUid: roles.get("registry.pull")!,
    });
    uids[`${team.name}-ci-pull-internal-api`] = pull.uid;
  }
  return uids;
}

export async function createDemoOrganisation(emulator: {
  url: string;
  token: string;
  rootGroupUid: string;
}): Promise<DemoUids> {
  const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
  try {
    const uids: DemoUids = await createOrgHierarchy(emulator, client);
    const roles = new Map(
      (await client.iam.roles.list({ pageSize: 200 })).items.map((r) => [r.name, r.uid]),
    );
    const deployer = await client.iam.roles.create(uids.engineering, {
      name: "deployer",
      description: "Deploys services",
      capabilities: ["CAP_REPO_LIST", "CAP_IAM_GROUPS_LIST"],
    });
    uids.deployer = deployer.uid;
    const bound = await client.iam.roleBindings.create(uids.platform, {
      identityUid: uids["platform-ci"],
      roleUid: deployer.uid,
    });
    uids["platform-ci-deployer"] = bound.uid;

    // ---- the addendum's kinds
    const ssoUser = await client.iam.roles.create(uids.engineering, {
      name: "sso user",
      description: "What a colleague signing in may do",
      capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
    });
    uids["sso-user"] = ssoUser.uid;
    const sso = await client.iam.identityProviders.create(uids.engineering, {
      name: "acme sso",
      description: "Company sign-in",
      defaultRole: ssoUser.uid,
      oidc: {
        issuer: "https://login.acme.example",
        clientId: "irm-engineering",
        clientSecret: DEMO_CLIENT_SECRET,
        additionalScopes: ["email", "groups"],
        groupsClaim: "groups",
      },
    });
    uids["acme-sso"] = sso.uid;
    // Members of the provider's "engineering-staff" group see the organisation.
    const staff = await client.iam.externalGroupRoleMappings.create(sso.uid, {
      externalGroupId: "engineering-staff",
      roleUid: roles.get("viewer")!,
      scope: emulator.rootGroupUid,
    });
    uids["acme-sso-engineering-staff-viewer"] = staff.uid;
    const pkce = await client.iam.identityProviders.create(uids.payments, {
      name: "payments sso",
      defaultRole: roles.get("viewer")!,
      oidc: { issuer: "https://login.acme.example", clientId: "irm-payments", pkceEnabled: true },
    });
    uids["payments-sso"] = pkce.uid;
    const deploys = await client.iam.identities.create(uids.platform, {
      name: "platform-deploys",
      description: "Deploy workflows of acme/platform on main and release branches",
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subjectPattern: "repo:acme/platform:ref:refs/heads/(main|release-.*)",
        audience: "https://irm.acme.example",
        claims: { repository_owner: "acme" },
        claimPatterns: { workflow: "deploy-.*" },
      },
    });
    uids["platform-deploys"] = deploys.uid;
    const deploysBound = await client.iam.roleBindings.create(uids.platform, {
      identityUid: deploys.uid,
      roleUid: deployer.uid,
    });
    uids["platform-deploys-deployer"] = deploysBound.uid;
    const builder = await client.iam.identities.create(uids.payments, {
      name: "airgapped-builder",
      staticKeys: {
        issuer: "https://builder.internal.acme.example",
        subject: "builder",
        issuerKeys: publicJwks(),
        audiences: ["https://irm.acme.example"],
      },
    });
    uids["airgapped-builder"] = builder.uid;
    const lambda = await client.iam.identities.create(uids.payments, {
      name: "ledger-lambda",
      awsIdentity: {
        awsAccount: "123456789012",
        arnPattern: "arn:aws:sts::123456789012:assumed-role/ledger/.*",
        userId: "AROAEXAMPLEID:ledger",
      },
    });
    uids["ledger-lambda"] = lambda.uid;
    const ingester = await client.iam.identities.create(uids.platform, {
      name: "ingester",
      description: "The platform's ingester",
      servicePrincipal: "SERVICE_PRINCIPAL_INGESTER",
    });
    uids.ingester = ingester.uid;
    await client.iam.accountAssociations.create(uids.platform, {
      name: "platform accounts",
      amazon: { account: "123456789012" },
      github: {
        appInstallations: {
          "123456": { installations: [{ installationId: 7890123, name: "acme" }] },
        },
      },
      chainguard: { serviceBindings: { INGESTER: ingester.uid } },
    });
    uids["platform-accounts"] = uids.platform;
    // ---- the registry's repos and the event subscriptions
    const tools = await client.registry.repos.create(uids.engineering, {
      name: "build-tools",
      description: "Images of the build toolchain",
      catalogTier: "CATALOG_TIER_DEVTOOLS",
      aliases: ["tools", "toolchain"],
    });
    await client.registry.repos.updateReadme(
      tools.uid,
      '# build-tools\n\nPull it with `docker pull "build-tools"`.\n',
    );
    uids["build-tools"] = tools.uid;
    const hooks = await client.events.subscriptions.create(uids.engineering, {
      sink: "https://hooks.acme.example/irm/engineering",
    });
    uids["engineering-hooks"] = hooks.uid;
    const audit = await client.events.subscriptions.create(emulator.rootGroupUid, {
      sink: "https://audit.acme.example/events",
    });
    uids["audit-events"] = audit.uid;
    const invite = await client.iam.groupInvites.create(uids.payments, {
      roleUid: roles.get("viewer")!,
      ttl: 7 * 24 * 3600,
      email: "new.colleague@acme.example",
    });
    uids.invite = invite.uid;
    return uids;
  } finally {
    await client.close();
  }
}
