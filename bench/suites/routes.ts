/**
 * The routes benchmark (issue 38): one organisation (teams of a group, a child group, a
 * GitHub Actions identity and its `viewer` binding) through every face the package offers
 * (`lib/faces.ts`), on the real Pulumi engine, in interleaved rounds: each round takes
 * every size and, for each, every face through create, no-op preview, no-op `up`, an
 * update of five descriptions and destroy, on a fresh stack. Figures are medians over the
 * rounds: wall time and CPU of the whole process tree per operation (`lib/process-cpu.ts`),
 * CPU by kind of process, requests by method from the emulator's log, and the checkpoint's
 * bytes per resource after the create.
 *
 * `IRM_BENCH_ROUTES_SIZES` (resources, comma-separated; default 100,400, quick 20) and
 * `IRM_BENCH_ROUTES_ROUNDS` (default 3, quick 1) bound the run; `IRM_BENCH_ROUTES_FACES`
 * (face ids, comma-separated; default every face) picks faces.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Agent } from "undici";
import type { LogEntry } from "../../harness/emulator";
import { type EmulatorProcess, startEmulatorProcess } from "../lib/emulator-process";
import { FACES, type Face } from "../lib/faces";
import { bareOk } from "../lib/http";
import { type ProcessKind, processSeconds, sampleKinds } from "../lib/process-cpu";
import {
  createPythonBenchStack,
  noCliSection,
  openRealEngine,
  type RealBenchStack,
  type RealEngine,
} from "../lib/real-engine";
import type { Measurement, Section } from "../lib/report";
import { FIXTURES_DIR } from "../lib/stack";
import { median, now } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

const PROGRAM_DIR = path.join(FIXTURES_DIR, "routes");
const RESOURCES_PER_TEAM = 4;
const EDITED = 5;

type OperationId = "create" | "preview" | "noop-up" | "update" | "destroy";

interface OperationSpec {
  id: OperationId;
  label: string;
  /** The request floor: one per resource created or deleted, one PATCH per edited team. */
  floor(resources: number): number;
}

const OPERATIONS: OperationSpec[] = [
  { id: "create", label: "create (`up --yes`)", floor: (n) => n },
  { id: "preview", label: "no-op `preview`", floor: () => 0 },
  { id: "noop-up", label: "no-op `up --yes`", floor: () => 0 },
  { id: "update", label: `update ${EDITED} descriptions (\`up --yes\`)`, floor: () => EDITED },
  { id: "destroy", label: "`destroy --yes`", floor: (n) => n },
];

const KINDS: Array<ProcessKind | "unsampled"> = [
  "program",
  "language host",
  "provider host",
  "plugin",
  "cli",
  "other",
  "unsampled",
];

interface Sample {
  wallMs: number;
  cpuSeconds: number;
  byKind: Record<string, number>;
  requests: LogEntry[];
}

type Samples = Map<string, Sample[]>;

function key(face: string, size: number, operation: OperationId): string {
  return `${face}/${size}/${operation}`;
}

async function viewerRoleUid(emu: EmulatorProcess): Promise<string> {
  const dispatcher = new Agent();
  try {
    const answer = await bareOk<{ roles: Array<{ uid: string }> }>(
      dispatcher,
      "GET",
      `${emu.url}/iam/v2beta1/roles?name=viewer`,
      emu.token,
    );
    return answer.roles[0].uid;
  } finally {
    await dispatcher.close();
  }
}

/** The faces `ids` (comma-separated face ids; every face when unset) names, in run order. */
export function pickFaces(all: Face[], ids: string | undefined): Face[] {
  if (ids === undefined || ids.trim() === "") return all;
  const wanted = ids.split(",").map((id) => id.trim());
  const unknown = wanted.filter((id) => !all.some((face) => face.id === id));
  if (unknown.length > 0) {
    throw new Error(
      `IRM_BENCH_ROUTES_FACES: no face ${unknown.join(", ")} (faces: ${all.map((f) => f.id).join(", ")})`,
    );
  }
  return all.filter((face) => wanted.includes(face.id));
}

/** `POST×400, DELETE×0`: requests by method. */
export function byMethod(requests: LogEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of requests) counts[entry.method] = (counts[entry.method] ?? 0) + 1;
  return counts;
}

function describeMethods(requests: LogEntry[]): string {
  const counts = Object.entries(byMethod(requests));
  return counts.length === 0
    ? "no request"
    : counts.map(([method, count]) => `${method}×${count}`).join(", ");
}

/** A runner: one face through every operation on a fresh stack of `size` resources. */
type Cycle = (
  engine: RealEngine,
  emu: EmulatorProcess,
  face: Face,
  size: number,
  roleUid: string,
  samples: Samples,
  stateBytes: Map<string, number[]>,
) => Promise<void>;

/**
 * Every operation in order through `record` (one run, kept), the checkpoint's bytes per
 * resource after the create, and the edit as a user makes it (the program's text);
 * `live.created` says whether the stack holds resources (for the runner's clean-up).
 */
async function operations(
  face: Face,
  size: number,
  dir: string,
  stateBytes: Map<string, number[]>,
  record: (operation: OperationId, kind: "up" | "preview" | "destroy") => Promise<void>,
  checkpointBytes: () => number,
  live: { created: boolean },
): Promise<void> {
  await record("create", "up");
  live.created = true;
  const bytes = stateBytes.get(`${face.id}/${size}`) ?? [];
  bytes.push(checkpointBytes() / size);
  stateBytes.set(`${face.id}/${size}`, bytes);
  await record("preview", "preview");
  await record("noop-up", "up");
  face.edit(dir, size / RESOURCES_PER_TEAM, EDITED);
  await record("update", "up");
  await record("destroy", "destroy");
  live.created = false;
}

const PYTHON_PROGRAM_DIR = path.join(FIXTURES_DIR, "routes-python");

/**
 * The Python face through every operation on a fresh stack: one driver process
 * (`harness/python/`) runs each operation with the Automation API (its `up` and `destroy`
 * skip the preview a CLI user's `--yes` runs first). CPU of the tree is the driver's own
 * plus its waited-for descendants' (the CLI, which waits for its plugins), read before
 * and after each operation; the driver itself, where the inline program runs, counts as
 * `program`.
 */
const pythonCycle: Cycle = async (engine, emu, face, size, roleUid, samples, stateBytes) => {
  const teams = size / RESOURCES_PER_TEAM;
  const stack = await createPythonBenchStack(engine, emu, {
    name: "routes",
    programDir: PYTHON_PROGRAM_DIR,
    config: { teams: String(teams), rootGroupUid: emu.rootGroupUid, roleUid },
  });
  const live = { created: false };
  try {
    const record = async (operation: OperationId, op: "up" | "preview" | "destroy") => {
      await emu.clearRequests();
      const before = processSeconds(stack.pid);
      const start = now();
      const sampler = sampleKinds(() => stack.pid);
      const answer = await stack.step(op);
      const byKind = sampler.stop();
      const ms = now() - start;
      const after = processSeconds(stack.pid);
      const cpuSeconds = after.tree - before.tree;
      if (!answer.ok) throw new Error(`routes ${face.id} ${size} ${operation}: ${answer.error}`);
      const steps = answer.changes ?? {};
      const expected = operation === "create" ? "create" : operation === "update" ? "update" : "";
      // The Automation API's summary counts the stack itself, created by the first `up`.
      const want = operation === "update" ? EDITED : size + 1;
      if (expected && (steps[expected] ?? 0) !== want) {
        throw new Error(`routes ${face.id} ${size} ${operation}: steps ${JSON.stringify(steps)}`);
      }
      // The driver's own CPU (exact) is the program's; the rest no sample saw is unsampled.
      byKind.program += after.own - before.own;
      const kinds = Object.values(byKind).reduce((sum, value) => sum + value, 0);
      byKind.unsampled = Math.max(0, cpuSeconds - kinds);
      const list = samples.get(key(face.id, size, operation)) ?? [];
      list.push({ wallMs: ms, cpuSeconds, byKind: { ...byKind }, requests: await emu.requests() });
      samples.set(key(face.id, size, operation), list);
    };
    const file = path.join(stack.backend, ".pulumi", "stacks", "routes", "dev.json");
    await operations(face, size, stack.dir, stateBytes, record, () => fs.statSync(file).size, live);
  } finally {
    if (live.created) await stack.step("destroy").catch(() => undefined);
    await stack.dispose();
  }
};

/**
 * Empties the ts-node cache folder, as on a CI runner that starts each pipeline on a fresh
 * machine: the command's first program run compiles (and type-checks where the setup asks
 * it); the second program run of the same `up` (its update after its preview) finds it.
 */
export function freshRunner(cacheDir: string): void {
  for (const entry of fs.readdirSync(cacheDir)) {
    fs.rmSync(path.join(cacheDir, entry), { recursive: true, force: true });
  }
}

/** One face through every operation on a fresh stack of `size` resources. */
const cycle: Cycle = async (engine, emu, face, size, roleUid, samples, stateBytes) => {
  const teams = size / RESOURCES_PER_TEAM;
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-routes-ts-node-"));
  const stack: RealBenchStack = await engine.createStack({
    name: `routes-${face.id}-${size}`,
    programDir: PROGRAM_DIR,
    emulator: emu,
    projectConfig: { teams: String(teams), rootGroupUid: emu.rootGroupUid, roleUid },
    // The ts-node bundled with `@pulumi/pulumi` keeps what it compiled (and type-checked)
    // in a cache keyed by the source text, in the OS temp folder by default. Every face
    // runs as a CI pipeline's fresh runner runs `pulumi up`: the cache is emptied before
    // each command (`freshRunner`), so no command, and no face, warms another's.
    env: { ...face.env, TS_NODE_CACHE_DIRECTORY: cacheDir },
    prepare: (dir) => face.prepare(dir, teams),
  });
  const live = { created: false };
  try {
    const record = async (operation: OperationId, kind: "up" | "preview" | "destroy") => {
      freshRunner(cacheDir);
      const run = await stack.run(kind, { withPreview: kind !== "preview", cpu: true });
      const expected = operation === "create" ? "create" : operation === "update" ? "update" : "";
      if (expected && (run.steps[expected] ?? 0) !== (operation === "update" ? EDITED : size)) {
        throw new Error(
          `routes ${face.id} ${size} ${operation}: steps ${JSON.stringify(run.steps)}`,
        );
      }
      const list = samples.get(key(face.id, size, operation)) ?? [];
      list.push({
        wallMs: run.ms,
        cpuSeconds: run.cpu?.totalSeconds ?? Number.NaN,
        byKind: { ...(run.cpu?.byKind ?? {}) },
        requests: run.requests,
      });
      samples.set(key(face.id, size, operation), list);
    };
    await operations(face, size, stack.dir, stateBytes, record, () => stack.stateBytes(), live);
  } finally {
    if (live.created) await stack.run("destroy").catch(() => undefined);
    stack.dispose();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
};

const seconds = (value: number) => `${value.toFixed(2)} s`;

function report(
  faces: Face[],
  sizes: number[],
  samples: Samples,
  stateBytes: Map<string, number[]>,
): Measurement[] {
  const measurements: Measurement[] = [];
  for (const size of sizes) {
    for (const face of faces) {
      for (const operation of OPERATIONS) {
        const list = samples.get(key(face.id, size, operation.id));
        if (!list || list.length === 0) continue;
        const wall = median(list.map((s) => s.wallMs)) / 1000;
        const cpu = median(list.map((s) => s.cpuSeconds));
        const kinds = KINDS.map(
          (kind) => `${kind} ${seconds(median(list.map((s) => s.byKind[kind] ?? 0)))}`,
        ).join(", ");
        const id = `${face.id}-${size}-${operation.id}`;
        const label = `${face.label}, ${size} resources: ${operation.label}`;
        measurements.push({
          id: `${id}-wall`,
          label: `${label}: wall`,
          value: wall,
          unit: "s",
          detail: `median of ${list.length} (${list.map((s) => (s.wallMs / 1000).toFixed(1)).join(", ")} s)`,
        });
        measurements.push({
          id: `${id}-cpu`,
          label: `${label}: CPU of the process tree`,
          value: cpu,
          unit: "s",
          detail: `median by kind: ${kinds}`,
        });
        const requests = list[list.length - 1].requests;
        const floor = operation.floor(size);
        measurements.push({
          id: `${id}-requests`,
          label: `${label}: requests`,
          value: requests.length,
          unit: "requests",
          floor,
          ratio:
            floor === 0
              ? requests.length === 0
                ? 1
                : Number.POSITIVE_INFINITY
              : requests.length / floor,
          goal: "ratio 1.0",
          met: requests.length <= floor,
          detail: describeMethods(requests),
        });
      }
      const bytes = stateBytes.get(`${face.id}/${size}`);
      if (bytes && bytes.length > 0) {
        measurements.push({
          id: `${face.id}-${size}-state-bytes`,
          label: `${face.label}, ${size} resources: checkpoint bytes per resource after create`,
          value: Math.round(median(bytes)),
          unit: "B",
          detail:
            "the file backend's checkpoint (`.pulumi/stacks/routes/dev.json`) over the resources the program declares",
        });
      }
    }
    // The native plugin's own CPU per engine pass: a no-op preview is one pass (an `up`
    // is two: its preview and the update, each starting the plugin).
    for (const face of faces) {
      const list = samples.get(key(face.id, size, "preview"));
      if (!face.id.startsWith("native-") || !list?.length) continue;
      const plugin = median(list.map((s) => s.byKind.plugin ?? 0));
      measurements.push({
        id: `${face.id}-${size}-plugin-cpu-per-pass`,
        label: `${face.label}, ${size} resources: the plugin process's CPU per engine pass (no-op preview)`,
        value: plugin,
        unit: "s",
        goal: "≤ 0.3 s",
        met: plugin <= 0.3,
        detail: `sampled every 100 ms from /proc (up to 0.1 s after the last sample is counted as unsampled); median of ${list.length}`,
      });
    }
    // The recommended setup against the README's, same run, same size.
    for (const operation of ["noop-up", "update"] as const) {
      const ours = samples.get(key("dynamic-recommended", size, operation));
      const theirs = samples.get(key("dynamic-readme", size, operation));
      if (!ours?.length || !theirs?.length) continue;
      for (const [what, of] of [
        ["wall", (s: Sample) => s.wallMs],
        ["CPU", (s: Sample) => s.cpuSeconds],
      ] as const) {
        const ratio = median(ours.map(of)) / median(theirs.map(of));
        measurements.push({
          id: `recommended-over-readme-${size}-${operation}-${what.toLowerCase()}`,
          label: `${size} resources, ${OPERATIONS.find((o) => o.id === operation)?.label}: ${what} of the recommended setup over the README's`,
          value: ratio,
          unit: "×",
          ratio,
          goal: "ratio ≤ 0.6",
          met: ratio <= 0.6,
        });
      }
    }
  }
  return measurements;
}

const TITLE = "7. Routes: one organisation through each face of the package";

async function run(context: SuiteContext): Promise<Section[]> {
  const engine = openRealEngine();
  if (!engine) return noCliSection(context, "routes", TITLE);
  const sizes = (process.env.IRM_BENCH_ROUTES_SIZES ?? context.pick("100,400", "20"))
    .split(",")
    .map(Number);
  if (
    sizes.some((size) => !Number.isInteger(size) || size < 4 || size % RESOURCES_PER_TEAM !== 0)
  ) {
    throw new Error("IRM_BENCH_ROUTES_SIZES: resources, comma-separated, each a multiple of 4");
  }
  const rounds = Number(process.env.IRM_BENCH_ROUTES_ROUNDS ?? context.pick(3, 1));
  const chosen = pickFaces(FACES, process.env.IRM_BENCH_ROUTES_FACES);
  const faces = chosen.filter((face) => face.unavailable() === undefined);
  const notRun = FACES.filter((face) => !faces.includes(face)).map(
    (face) =>
      `${face.label}: not run (${face.unavailable() ?? "not among IRM_BENCH_ROUTES_FACES"})`,
  );
  const samples: Samples = new Map();
  const stateBytes = new Map<string, number[]>();
  const emu = await startEmulatorProcess();
  try {
    const roleUid = await viewerRoleUid(emu);
    for (let round = 1; round <= rounds; round++) {
      for (const size of sizes) {
        for (const face of faces) {
          context.log(`routes: round ${round}/${rounds}, ${size} resources, ${face.id}`);
          const run = face.runner === "python-automation" ? pythonCycle : cycle;
          await run(engine, emu, face, size, roleUid, samples, stateBytes);
        }
      }
    }
  } finally {
    await emu.close();
    engine.close();
  }
  return [
    {
      id: "routes",
      title: TITLE,
      method: `\`bench/fixtures/routes\`: teams of four resources (a group under the root, a child group, a GitHub Actions identity and its \`viewer\` binding) at ${sizes.join(" and ")} resources, on the real Pulumi engine (CLI ${engine.cli.version}, file backend, default parallelism), each face (\`bench/lib/faces.ts\`) on a fresh stack per round through create, no-op \`preview\`, no-op \`up\`, an update of ${EDITED} descriptions (an edit of the program's text, as a user makes it) and \`destroy\`, as a user runs them (\`up --yes\` and \`destroy --yes\` preview first). ${rounds} interleaved round(s): every face and size in each round; figures are medians. CPU is user + system time of the whole process tree (exact, from the shell that waits for the CLI); by kind it is sampled every 100 ms from \`/proc\` (what a process spent after its last sample is \`unsampled\`). Requests come from the emulator's log; state is the checkpoint file's size over the resources. Every command runs as a CI pipeline runs \`pulumi up\` on a fresh runner (the conditions of issue 38's figures): the ts-node bundled with \`@pulumi/pulumi\`, which caches what it compiled in the OS temp folder keyed by the source text, starts each command with an empty cache, so each command's first program run compiles, and type-checks where the setup asks it; the second program run of an \`up\` (the update after its preview) finds the text compiled. Every TypeScript face has the same policy. The native faces load the installed package's plugin folder; its process is the kind \`plugin\` (the dynamic provider's host is \`provider host\`), and its CPU in a no-op preview (one engine pass) is the plugin's CPU per pass. The YAML face's program is written out per size (YAML has no loop). The Python face runs the program as the Automation API's inline program in one driver process per stack (\`harness/python/\`; the CLI built from Go modules has no Python host): its \`up\` and \`destroy\` skip the preview a CLI user's \`--yes\` runs, and its CPU is the driver's tree read before and after each operation, the driver's own counted as \`program\`.`,
      measurements: report(faces, sizes, samples, stateBytes),
      notes: [
        "Wall time on a shared machine carries the load of other work; CPU and requests are steadier, and every ratio compares figures of this run only.",
        ...notRun,
      ],
    },
  ];
}

export const routesSuite: Suite = { name: "routes", sectionIds: ["routes"], run };
