/**
 * The emulator. Median page latency of scoped lists in an
 * organisation of 1,000 groups, then of 100,000 (same process, same queries: the
 * ratio shows whether a page costs the page or the organisation), and requests per
 * second under 50 concurrent clients.
 */
import { Agent } from "undici";
import {
  BENCH_KEEP_ALIVE_MS,
  type EmulatorProcess,
  startEmulatorProcess,
} from "../lib/emulator-process";
import { bareOk } from "../lib/http";
import type { Measurement, Section } from "../lib/report";
import { median, now, quantile } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

const SMALL_ORG = 1_000;
const LARGE_ORG = 100_000;
const TEAM_SIZE = 50;
const CONCURRENT_CLIENTS = 50;
/** The project's goal: a page in the large organisation costs less than twice one in the small. */
const LATENCY_RATIO_GOAL = 2;

interface GroupPage {
  groups: Array<{ uid: string }>;
  nextPageToken?: string;
  totalCount: string;
}

interface Query {
  id: string;
  label: string;
  /** Path and query, built once per organisation size (cursors belong to their state). */
  build(emu: EmulatorProcess, org: OrgLayout, dispatcher: Agent): Promise<string>;
}

interface OrgLayout {
  teamUid: string;
  /** A group name that exists exactly once. */
  knownName: string;
}

const root = (emu: EmulatorProcess) => encodeURIComponent(emu.rootGroupUid);

const QUERIES: Query[] = [
  {
    id: "descendants-first-page",
    label: "descendants of the organisation, first page of 200",
    build: async (emu) => `/iam/v2beta1/groups?uidp.descendants_of=${root(emu)}&page_size=200`,
  },
  {
    id: "descendants-cursor-page",
    label: "descendants of the organisation, a page by cursor from the middle",
    build: async (emu, _org, dispatcher) => {
      const base = `/iam/v2beta1/groups?uidp.descendants_of=${root(emu)}&page_size=200`;
      const first = await bareOk<GroupPage>(dispatcher, "GET", `${emu.url}${base}`, emu.token);
      const middle = Math.floor(Number(first.totalCount) / 2);
      const atMiddle = await bareOk<GroupPage>(
        dispatcher,
        "GET",
        `${emu.url}${base}&skip=${middle}`,
        emu.token,
      );
      if (!atMiddle.nextPageToken) throw new Error("no cursor in the middle of the organisation");
      return `${base}&page_token=${encodeURIComponent(atMiddle.nextPageToken)}`;
    },
  },
  {
    id: "children-first-page",
    label: "children of the organisation, first page of 200",
    build: async (emu) => `/iam/v2beta1/groups?uidp.children_of=${root(emu)}&page_size=200`,
  },
  {
    id: "team-children",
    label: `children of a team of ${TEAM_SIZE} groups`,
    build: async (_emu, org) =>
      `/iam/v2beta1/groups?uidp.children_of=${encodeURIComponent(org.teamUid)}&page_size=200`,
  },
  {
    id: "name-filter",
    label: "one group by exact name among the organisation's descendants",
    build: async (emu, org) =>
      `/iam/v2beta1/groups?uidp.descendants_of=${root(emu)}&name=${encodeURIComponent(org.knownName)}`,
  },
  {
    id: "descendants-by-name",
    label: "descendants of the organisation ordered by name, first page of 200",
    build: async (emu) =>
      `/iam/v2beta1/groups?uidp.descendants_of=${root(emu)}&page_size=200&order_by=name`,
  },
  {
    id: "descendants-by-name-cursor",
    label: "descendants ordered by name, next page by cursor",
    build: async (emu, _org, dispatcher) => {
      const base = `/iam/v2beta1/groups?uidp.descendants_of=${root(emu)}&page_size=200&order_by=name`;
      const first = await bareOk<GroupPage>(dispatcher, "GET", `${emu.url}${base}`, emu.token);
      if (!first.nextPageToken) throw new Error("no second page ordered by name");
      return `${base}&page_token=${encodeURIComponent(first.nextPageToken)}`;
    },
  },
];

async function countGroups(emu: EmulatorProcess, dispatcher: Agent): Promise<number> {
  const page = await bareOk<GroupPage>(
    dispatcher,
    "GET",
    `${emu.url}/iam/v2beta1/groups?uidp.descendants_of=${root(emu)}&page_size=1`,
    emu.token,
  );
  return Number(page.totalCount);
}

/** Median latency of each query, sampled round-robin so noise spreads evenly. */
async function sampleLatencies(
  emu: EmulatorProcess,
  paths: string[],
  dispatcher: Agent,
  warmup: number,
  samples: number,
): Promise<number[][]> {
  const results = paths.map(() => [] as number[]);
  for (let round = 0; round < warmup + samples; round++) {
    for (const [index, path] of paths.entries()) {
      const start = now();
      await bareOk(dispatcher, "GET", `${emu.url}${path}`, emu.token);
      if (round >= warmup) results[index].push(now() - start);
    }
  }
  return results;
}

interface LoadResult {
  requestsPerSecond: number;
  completed: number;
  failures: number;
  medianMs: number;
  p99Ms: number;
  connectionsOpened: number;
}

/**
 * `clients` independent clients (one undici Agent and connection each) send `path`
 * back to back for `durationMs` (and at most `maxRequests` in all).
 */
async function load(
  emu: EmulatorProcess,
  path: string,
  clients: number,
  durationMs: number,
  maxRequests: number,
): Promise<LoadResult> {
  const agents = Array.from(
    { length: clients },
    () => new Agent({ connections: 1, keepAliveTimeout: BENCH_KEEP_ALIVE_MS }),
  );
  const before = await emu.connections();
  const latencies: number[] = [];
  let failures = 0;
  let started = 0;
  const begin = now();
  const deadline = begin + durationMs;
  await Promise.all(
    agents.map(async (agent) => {
      while (now() < deadline && started < maxRequests) {
        started++;
        const sent = now();
        try {
          await bareOk(agent, "GET", `${emu.url}${path}`, emu.token);
          latencies.push(now() - sent);
        } catch {
          failures++;
        }
      }
    }),
  );
  const elapsedMs = now() - begin;
  const after = await emu.connections();
  await Promise.all(agents.map((agent) => agent.close()));
  return {
    requestsPerSecond: (latencies.length / elapsedMs) * 1000,
    completed: latencies.length,
    failures,
    medianMs: median(latencies),
    p99Ms: quantile(latencies, 0.99),
    connectionsOpened: after.opened - before.opened,
  };
}

async function run(context: SuiteContext): Promise<Section[]> {
  const warmup = context.pick(20, 5);
  const samples = context.pick(150, 30);
  const loadMs = context.pick(4_000, 1_500);
  const emu = await startEmulatorProcess();
  const dispatcher = new Agent({ connections: 1, keepAliveTimeout: BENCH_KEEP_ALIVE_MS });
  try {
    const seeded = await emu.seed({
      groups: [{ parentUid: emu.rootGroupUid, name: "bench-team" }],
    });
    const teamUid = seeded.groups[0];
    await emu.seed({
      generate: { kind: "groups", count: TEAM_SIZE, parentUid: teamUid, namePrefix: "member" },
    });
    const existing = await countGroups(emu, dispatcher);
    await emu.seed({
      generate: {
        kind: "groups",
        count: SMALL_ORG - existing,
        parentUid: emu.rootGroupUid,
        namePrefix: "small",
      },
    });
    const org: OrgLayout = { teamUid, knownName: "small-042" };
    if ((await countGroups(emu, dispatcher)) !== SMALL_ORG) throw new Error("small org size");

    context.log(`emulator: page latency with ${SMALL_ORG} groups`);
    const smallPaths = await Promise.all(QUERIES.map((q) => q.build(emu, org, dispatcher)));
    const small = await sampleLatencies(emu, smallPaths, dispatcher, warmup, samples);

    await emu.seed({
      generate: {
        kind: "groups",
        count: LARGE_ORG - SMALL_ORG,
        parentUid: emu.rootGroupUid,
        namePrefix: "large",
      },
    });
    if ((await countGroups(emu, dispatcher)) !== LARGE_ORG) throw new Error("large org size");
    context.log(`emulator: page latency with ${LARGE_ORG} groups`);
    const largePaths = await Promise.all(QUERIES.map((q) => q.build(emu, org, dispatcher)));
    const large = await sampleLatencies(emu, largePaths, dispatcher, warmup, samples);

    const latency: Measurement[] = QUERIES.map((query, index) => {
      const smallMs = median(small[index]);
      const largeMs = median(large[index]);
      const ratio = largeMs / smallMs;
      return {
        id: query.id,
        label: query.label,
        value: largeMs,
        unit: "ms",
        ratio,
        goal: `ratio < ${LATENCY_RATIO_GOAL}`,
        met: ratio < LATENCY_RATIO_GOAL,
        detail: `median of ${samples}: ${smallMs.toFixed(3)} ms at ${SMALL_ORG.toLocaleString("en-US")} groups, ${largeMs.toFixed(3)} ms at ${LARGE_ORG.toLocaleString("en-US")}`,
      };
    });

    context.log(`emulator: ${CONCURRENT_CLIENTS} concurrent clients`);
    const loads: Array<{ id: string; label: string; path: string }> = [
      {
        id: "get-group",
        label: "get one group by uid",
        path: `/iam/v2beta1/groups/${encodeURIComponent(teamUid)}`,
      },
      {
        id: "team-list",
        label: `list the children of a team of ${TEAM_SIZE}`,
        path: `/iam/v2beta1/groups?uidp.children_of=${encodeURIComponent(teamUid)}`,
      },
      {
        id: "org-page",
        label: "first page of 200 of the organisation's descendants",
        path: `/iam/v2beta1/groups?uidp.descendants_of=${root(emu)}&page_size=200`,
      },
    ];
    const throughput: Measurement[] = [];
    // An untimed burst first, so the first load measured does not pay for warming up.
    await load(emu, loads[0].path, CONCURRENT_CLIENTS, 500, 1_000_000);
    for (const entry of loads) {
      const result = await load(emu, entry.path, CONCURRENT_CLIENTS, loadMs, 1_000_000);
      throughput.push({
        id: `rps-${entry.id}`,
        label: `${entry.label}, ${CONCURRENT_CLIENTS} concurrent clients, ${LARGE_ORG.toLocaleString("en-US")} groups`,
        value: result.requestsPerSecond,
        unit: "req/s",
        detail:
          `${result.completed} answered in ${(loadMs / 1000).toFixed(1)} s, ${result.failures} failed; ` +
          `latency median ${result.medianMs.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms`,
      });
      throughput.push({
        id: `connections-${entry.id}`,
        label: `connections opened by ${CONCURRENT_CLIENTS} clients (${entry.label})`,
        value: result.connectionsOpened,
        unit: "connections",
        floor: CONCURRENT_CLIENTS,
        ratio: result.connectionsOpened / CONCURRENT_CLIENTS,
        goal: "ratio 1.0",
        met: result.connectionsOpened <= CONCURRENT_CLIENTS && result.failures === 0,
      });
    }

    return [
      {
        id: "emulator-latency",
        title: "6a. Emulator: page latency, 1,000 vs 100,000 groups",
        method:
          `The emulator runs in its own process (\`dist/emulator/cli.js\`). One organisation grows from ${SMALL_ORG.toLocaleString("en-US")} ` +
          `to ${LARGE_ORG.toLocaleString("en-US")} groups (a team of ${TEAM_SIZE} inside it); each query is sent ${samples} times ` +
          `(after ${warmup} warm-up rounds) over one kept-alive connection with a bare undici call, queries interleaved, ` +
          "at each size. Measured: the median latency at 100,000 groups; ratio: that median over the median at 1,000.",
        measurements: latency,
        notes: [
          "Scoped lists by uid read a contiguous range of a sorted uid index (descendants), a per-parent index " +
            "(children) or a name index, then binary-search the cursor: a page costs the page. Lists ordered by " +
            "name or time scanned every record of the scope for each page until this benchmark found it (43 ms " +
            "per page at 100,000 groups against 1.2 ms at 1,000); the emulator now keeps a sorted index per " +
            "order field, built on first use and kept current by every change.",
        ],
      },
      {
        id: "emulator-load",
        title: "6b. Emulator: requests per second under 50 concurrent clients",
        method:
          `${CONCURRENT_CLIENTS} clients (one undici Agent and one connection each) send the same request back to back for ` +
          `${(loadMs / 1000).toFixed(1)} s against the emulator process holding ${LARGE_ORG.toLocaleString("en-US")} groups; ` +
          "the load generator runs in the benchmark process, so both share the machine's two cores. " +
          "The issue sets no goal for the rate; the connection count checks that each client kept one connection.",
        measurements: throughput,
        notes: [
          "Every request is authenticated: the emulator verifies the token's signature on each one, as the " +
            "service does, and that is a fixed cost per request beside the list itself.",
        ],
      },
    ];
  } finally {
    await dispatcher.close();
    await emu.close();
  }
}

export const emulatorSuite: Suite = {
  name: "emulator",
  sectionIds: ["emulator-latency", "emulator-load"],
  run,
};
