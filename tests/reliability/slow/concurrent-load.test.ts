/**
 * The emulator under concurrent load: 50 clients, each acting as its own identity with
 * its own connections, create, update and delete groups and identities in one shared
 * group tree at the same time, racing each other on purpose (deleting a group another
 * client is creating under, updating one another deletes). Afterwards the service holds
 * exactly the objects whose create was acknowledged and whose delete was not: no lost
 * update, no orphan child, and every total agrees with the listing.
 */
import { describe, expect, it } from "vitest";
import {
  type Group,
  type Identity,
  IrmClient,
  isNotFound,
  isResourceNotEmpty,
} from "../../../sdk/index";
import { countByStatus, recordFigures } from "../../support/reliability/figures";
import { useScenario } from "../../support/reliability/scenario";

const CLIENTS = 50;
const OPERATIONS_PER_CLIENT = 100;
const SEED = 20261121;

/** Small deterministic PRNG (mulberry32): the same seed gives every client the same plan. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the clients were told: acknowledged creates minus acknowledged deletes. */
interface Ledger {
  groups: Map<string, Group>;
  identities: Map<string, Identity>;
  /**
   * Per group, the service's answers to its latest acknowledged updates: several when
   * updates from different clients landed in the same millisecond.
   */
  lastUpdate: Map<string, Group[]>;
  /** Answers to the concurrent updates of the one shared group. */
  sharedUpdates: Group[];
  outcomes: Record<string, number>;
}

const ctx = useScenario();

function pick<T>(items: T[], next: () => number): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(next() * items.length)];
}

function count(ledger: Ledger, outcome: string): void {
  ledger.outcomes[outcome] = (ledger.outcomes[outcome] ?? 0) + 1;
}

/** One client's run: a seeded mix of creates, updates and deletes in the shared tree. */
async function runClient(
  index: number,
  client: IrmClient,
  treeUid: string,
  sharedUid: string,
  ledger: Ledger,
): Promise<void> {
  const next = random(SEED + index);
  for (let op = 0; op < OPERATIONS_PER_CLIENT; op++) {
    const roll = next();
    const groupUids = [treeUid, ...ledger.groups.keys()];
    try {
      if (roll < 0.35) {
        const parent = pick(groupUids, next)!;
        const created = await client.iam.groups.create(parent, { name: `g-${index}-${op}` });
        ledger.groups.set(created.uid, created);
        count(ledger, "group created");
      } else if (roll < 0.5) {
        const parent = pick(groupUids, next)!;
        const created = await client.iam.identities.create(parent, {
          name: `i-${index}-${op}`,
          claimMatch: { issuer: ctx.emu.issuer, subject: `load-${index}-${op}` },
        });
        ledger.identities.set(created.uid, created);
        count(ledger, "identity created");
      } else if (roll < 0.65) {
        const target = pick([...ledger.groups.keys()], next);
        if (!target) continue;
        const updated = await client.iam.groups.update(
          target,
          { description: `set by client ${index} at op ${op}` },
          { updateMask: ["description"] },
        );
        const previous = ledger.lastUpdate.get(target) ?? [];
        const previousTime = previous[0]?.updateTime ?? "";
        if (updated.updateTime > previousTime) ledger.lastUpdate.set(target, [updated]);
        else if (updated.updateTime === previousTime) previous.push(updated);
        count(ledger, "group updated");
      } else if (roll < 0.72) {
        const updated = await client.iam.groups.update(
          sharedUid,
          { description: `shared, set by client ${index} at op ${op}` },
          { updateMask: ["description"] },
        );
        ledger.sharedUpdates.push(updated);
        count(ledger, "shared group updated");
      } else if (roll < 0.87) {
        const target = pick([...ledger.groups.keys()], next);
        if (!target) continue;
        await client.iam.groups.delete(target);
        ledger.groups.delete(target);
        ledger.lastUpdate.delete(target);
        count(ledger, "group deleted");
      } else {
        const target = pick([...ledger.identities.keys()], next);
        if (!target) continue;
        await client.iam.identities.delete(target);
        ledger.identities.delete(target);
        count(ledger, "identity deleted");
      }
    } catch (error) {
      // The races are deliberate: losing one is an answer, not a failure.
      if (isNotFound(error)) count(ledger, "lost a race: NOT_FOUND");
      else if (isResourceNotEmpty(error)) count(ledger, "lost a race: RESOURCE_NOT_EMPTY");
      else throw error;
    }
  }
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

describe(`the emulator under ${CLIENTS} concurrent clients`, () => {
  it("loses no update, leaves no orphan, and keeps totals consistent", async () => {
    const started = Date.now();
    const tree = await ctx.client.iam.groups.create(ctx.emu.rootGroupUid, { name: "load tree" });
    const shared = await ctx.client.iam.groups.create(ctx.emu.rootGroupUid, {
      name: "load shared",
    });
    // The published editor set writes no group or identity: the clients are owners.
    const owner = (await ctx.client.iam.roles.list({ name: "owner" })).items[0];

    // Each client is its own identity, an owner of the tree and of the shared group.
    const clients: IrmClient[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const identity = await ctx.client.iam.identities.create(ctx.emu.rootGroupUid, {
        name: `load client ${i}`,
        claimMatch: { issuer: ctx.emu.issuer, subject: `load-client-${i}` },
      });
      for (const group of [tree.uid, shared.uid]) {
        await ctx.client.iam.roleBindings.create(group, {
          identityUid: identity.uid,
          roleUid: owner.uid,
        });
      }
      clients.push(
        new IrmClient({ baseUrl: ctx.emu.url, token: await ctx.emu.mintToken(identity.uid, 3600) }),
      );
    }

    const ledger: Ledger = {
      groups: new Map(),
      identities: new Map(),
      lastUpdate: new Map(),
      sharedUpdates: [],
      outcomes: {},
    };
    await ctx.emu.clearRequests();
    await Promise.all(
      clients.map((client, i) => runClient(i, client, tree.uid, shared.uid, ledger)),
    );
    const entries = await ctx.emu.requests();
    await Promise.all(clients.map((client) => client.close()));

    // Never an internal error or an unexpected status under load.
    const statuses = countByStatus(entries);
    expect(Object.keys(statuses).sort()).toEqual(
      Object.keys(statuses)
        .filter((s) => ["200", "400", "404"].includes(s))
        .sort(),
    );

    // The service holds exactly what was acknowledged: nothing lost, nothing extra.
    const groups = await all(ctx.client.iam.groups.list({ descendantsOf: tree.uid }));
    const identities = await all(ctx.client.iam.identities.list({ descendantsOf: tree.uid }));
    const bindings = await all(ctx.client.iam.roleBindings.list({ descendantsOf: tree.uid }));
    expect(groups.map((g) => g.uid).sort()).toEqual([...ledger.groups.keys()].sort());
    expect(identities.map((i) => i.uid).sort()).toEqual([...ledger.identities.keys()].sort());
    // The only bindings in the tree are the clients' own, made before the load.
    expect(bindings.map((b) => b.uid.slice(0, b.uid.lastIndexOf("/")))).toEqual(
      clients.map(() => tree.uid),
    );

    // No orphan: every object's parent is the tree itself or a group that exists.
    const existing = new Set([tree.uid, ...groups.map((g) => g.uid)]);
    const parentOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));
    const orphans = [...groups, ...identities].filter((o) => !existing.has(parentOf(o.uid)));
    expect(orphans).toEqual([]);

    // No lost update: each group shows the latest acknowledged update to it.
    const byUid = new Map(groups.map((g) => [g.uid, g]));
    // (An update's answer can arrive after another client's delete of the same group was
    // acknowledged: such a group is gone, as the ledger says, and has nothing to show.)
    const mismatched = [...ledger.lastUpdate].filter(
      ([uid, latest]) =>
        ledger.groups.has(uid) &&
        !latest.some((u) => u.description === byUid.get(uid)?.description),
    );
    expect(mismatched).toEqual([]);
    const sharedNow = await ctx.client.iam.groups.get(shared.uid);
    const latestShared = ledger.sharedUpdates.reduce((a, b) =>
      a.updateTime >= b.updateTime ? a : b,
    );
    const tiedLatest = ledger.sharedUpdates.filter((u) => u.updateTime === latestShared.updateTime);
    expect(tiedLatest.map((u) => u.description)).toContain(sharedNow.description);
    expect(sharedNow.updateTime).toBe(latestShared.updateTime);

    // Totals: totalCount agrees with the listing, at the top and for every parent.
    const page = await ctx.client.iam.groups.list({ descendantsOf: tree.uid, pageSize: 7 });
    expect(page.totalCount).toBe(groups.length);
    const identityPage = await ctx.client.iam.identities.list({
      descendantsOf: tree.uid,
      pageSize: 7,
    });
    expect(identityPage.totalCount).toBe(identities.length);
    for (const parent of existing) {
      const children = await ctx.client.iam.groups.list({ childrenOf: parent, pageSize: 1 });
      expect(children.totalCount).toBe(groups.filter((g) => parentOf(g.uid) === parent).length);
    }
    // The races really happened.
    expect(ledger.outcomes["lost a race: RESOURCE_NOT_EMPTY"] ?? 0).toBeGreaterThan(0);

    recordFigures({
      id: "concurrent-load",
      title: `${CLIENTS} concurrent clients (one identity each) creating, updating and deleting in one group tree`,
      injected: `${CLIENTS} × ${OPERATIONS_PER_CLIENT} operations at once, targets picked at random (seed ${SEED}) so clients race on the same objects`,
      // Operations that found no target (nothing to delete yet) were skipped, not counted.
      operations: Object.values(ledger.outcomes).reduce((sum, n) => sum + n, 0),
      requests: entries.length,
      byStatus: statuses,
      lost: 0,
      duplicates: 0,
      notes: {
        ...ledger.outcomes,
        "groups at the end": groups.length,
        "identities at the end": identities.length,
        orphans: orphans.length,
        "updates not reflected": mismatched.length,
      },
      durationMs: Date.now() - started,
    });
  });
});
