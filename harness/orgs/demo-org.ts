/**
 * The demo organisation, made through the SDK: the objects `examples/org-hierarchy`
 * declares (what `npm run demo` deploys), with the same names, descriptions, subjects
 * and roles, plus a custom role in `engineering` bound to platform's CI identity.
 * Made directly, so the export tests do not depend on deploying the example.
 */
import { IrmClient } from "../../sdk/index";

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

export async function createDemoOrganisation(emulator: {
  url: string;
  token: string;
  rootGroupUid: string;
}): Promise<DemoUids> {
  const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
  const uids: DemoUids = {};
  try {
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
    const deployer = await client.iam.roles.create(uids.engineering, {
      name: "deployer",
      description: "Deploys services",
      capabilities: ["repos.list", "groups.get"],
    });
    uids.deployer = deployer.uid;
    const bound = await client.iam.roleBindings.create(uids.platform, {
      identityUid: uids["platform-ci"],
      roleUid: deployer.uid,
    });
    uids["platform-ci-deployer"] = bound.uid;
    return uids;
  } finally {
    await client.close();
  }
}
