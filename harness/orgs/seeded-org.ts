/**
 * A seeded organisation of a chosen size for the export tests and benchmark: departments
 * of generated groups (`POST /emulator/seed` with `generate`), one identity per group
 * and one binding per identity made through the SDK, so that groups + identities +
 * bindings = `size` (plus the emulator's own two identities and their bindings).
 * Generated names repeat across departments (`team-01` in each), so the export has to
 * qualify them.
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
    const owners = groups.slice(0, perKind);
    await inBatches(owners, 16, async (groupUid) => {
      const identity = await client.iam.identities.create(groupUid, {
        name: "ci",
        description: "CI of this team",
        claimMatch: {
          issuer: "https://token.actions.githubusercontent.com",
          subject: `repo:acme/${groupUid.slice(-16)}:ref:refs/heads/main`,
        },
      });
      await client.iam.roleBindings.create(groupUid, {
        identityUid: identity.uid,
        roleUid: viewer.uid,
      });
    });
    return { groups: groups.length, identities: perKind, bindings: perKind };
  } finally {
    await client.close();
  }
}
