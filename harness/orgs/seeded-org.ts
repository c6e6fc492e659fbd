/**
 * A seeded organisation of a chosen size for the export tests and benchmark: departments
 * of generated groups (`POST /emulator/seed` with `generate`), one identity per group
 * and one binding per identity made through the SDK, so that groups + identities +
 * bindings = `size` (plus the emulator's own two identities and their bindings).
 * Besides those, each department has a custom role `deployer` and an account
 * association; every other identity matches its subject by pattern and is bound to its
 * department's `deployer`, the others are exact and bound to `viewer`. Optionally,
 * identity providers (PKCE, so no secret is needed), spread over the departments.
 * Generated names repeat across departments (`team-01`, `deployer` in each), so the
 * export has to qualify them.
 */
import { IrmClient } from "../../sdk/index";
import type { SeedRequest, SeedResult } from "../emulator";

/** What seeding needs of an emulator: the in-process one of the tests or the bench's process. */
export interface SeedableEmulator {
  url: string;
  token: string;
  rootGroupUid: string;
  seed(body: SeedRequest): Promise<SeedResult>;
}

export interface SeededOrganisation {
  groups: number;
  identities: number;
  bindings: number;
  /** One `deployer` per department. */
  customRoles: number;
  /** One per department. */
  accountAssociations: number;
  identityProviders: number;
}

export interface SeedOptions {
  /**
   * Identity providers to make (PKCE), round-robin over the departments; default 0.
   */
  identityProviders?: number;
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += limit) {
    await Promise.all(items.slice(i, i + limit).map(work));
  }
}

export async function seedOrganisation(
  emulator: SeedableEmulator,
  size: number,
  options: SeedOptions = {},
): Promise<SeededOrganisation> {
  const perKind = Math.floor(size / 3);
  const groupCount = size - 2 * perKind;
  const departments = Math.max(1, Math.round(groupCount / 34));
  const departmentUids = (
    await emulator.seed({
      generate: {
        kind: "groups",
        count: departments,
        parentUid: emulator.rootGroupUid,
        namePrefix: "department",
      },
    })
  ).groups;
  const teams: string[] = [];
  const remaining = groupCount - departments;
  for (const [index, department] of departmentUids.entries()) {
    const count = Math.floor(remaining / departments) + (index < remaining % departments ? 1 : 0);
    if (count === 0) continue;
    const seeded = await emulator.seed({
      generate: { kind: "groups", count, parentUid: department, namePrefix: "team" },
    });
    teams.push(...seeded.groups);
  }
  const groups = [...departmentUids, ...teams];
  const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
  try {
    const roles = await client.iam.roles.list({ pageSize: 200 });
    const viewer = roles.items.find((role) => role.name === "viewer")!;
    const deployers = new Map<string, string>();
    await inBatches(departmentUids, 16, async (department) => {
      const role = await client.iam.roles.create(department, {
        name: "deployer",
        description: "Deploys the department's services",
        capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST"],
      });
      deployers.set(department, role.uid);
      await client.iam.accountAssociations.create(department, {
        name: "department accounts",
        amazon: { account: department.slice(-12).replace(/[a-f]/g, "7") },
      });
    });
    const departmentOf = (groupUid: string) =>
      departmentUids.find((d) => groupUid === d || groupUid.startsWith(`${d}/`))!;
    const owners = groups.slice(0, perKind);
    await inBatches(
      owners.map((uid, index) => ({ uid, index })),
      16,
      async ({ uid, index }) => {
        const repository = `acme/${uid.slice(-16)}`;
        const byPattern = index % 2 === 1;
        const identity = await client.iam.identities.create(uid, {
          name: "ci-bot",
          description: "CI of this team",
          claimMatch: byPattern
            ? {
                issuer: "https://token.actions.githubusercontent.com",
                subjectPattern: `repo:${repository}:ref:refs/heads/(main|release-.*)`,
                claims: { repository_owner: "acme" },
              }
            : {
                issuer: "https://token.actions.githubusercontent.com",
                subject: `repo:${repository}:ref:refs/heads/main`,
              },
        });
        await client.iam.roleBindings.create(uid, {
          identityUid: identity.uid,
          roleUid: byPattern ? deployers.get(departmentOf(uid))! : viewer.uid,
        });
      },
    );
    const providers = options.identityProviders ?? 0;
    await inBatches(
      Array.from({ length: providers }, (_, i) => i),
      16,
      async (i) => {
        const department = departmentUids[i % departmentUids.length];
        await client.iam.identityProviders.create(department, {
          name: `sso ${String(i + 1).padStart(3, "0")}`,
          defaultRole: deployers.get(department)!,
          oidc: { issuer: "https://login.acme.example", clientId: `irm-${i}`, pkceEnabled: true },
        });
      },
    );
    return {
      groups: groups.length,
      identities: perKind,
      bindings: perKind,
      customRoles: departmentUids.length,
      accountAssociations: departmentUids.length,
      identityProviders: providers,
    };
  } finally {
    await client.close();
  }
}
