/**
 * Growth with size, on the real Pulumi engine: the
 * lifecycle of an organisation of 100 to 1,000 resources (`up`, no-op `up`, an update of
 * a few, `refresh`, `destroy`): requests against the API's floor, wall time, how both
 * grow, the engine's default parallelism against `parallel: 1`, pulumi-irm's time over a
 * do-nothing provider's on the same graph, and the provider host's cold start. Without a
 * Pulumi CLI (`npm run pulumi:install`) the suite says so and is skipped: it never falls
 * back to the small in-repo engine.
 */

import * as fs from "node:fs";
import * as path from "node:path";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { Agent } from "undici";
import type { LogEntry } from "../../harness/emulator";
import { startProviderHost } from "../../harness/provider-host";
import { type ColdStartMarks, coldStart } from "../lib/cold-start";
import { type EmulatorProcess, startEmulatorProcess } from "../lib/emulator-process";
import { bareOk } from "../lib/http";
import {
  openRealEngine,
  type RealBenchStack,
  type RealEngine,
  type RealRun,
} from "../lib/real-engine";
import type { BenchResults, Measurement, Section } from "../lib/report";
import { createBenchStack, FIXTURES_DIR } from "../lib/stack";
import { linearFit, median, now, quantile } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

const PROGRAM_DIR = path.join(FIXTURES_DIR, "org-real");
/** The last full run on the small in-repo engine, kept for comparison. */
const NOOP_RUNTIME_DIR = path.join(FIXTURES_DIR, "noop-provider");
const SMALL_ENGINE_RESULTS = path.join(__dirname, "..", "results", "64e4809.json");

type Operation = "up" | "noop" | "update" | "refresh" | "destroy";
type Variant = "irm" | "noop";

interface OperationSpec {
  id: Operation;
  label: string;
  /** The request each resource the run changes or reads costs at the floor. */
  method?: "POST" | "PATCH" | "GET" | "DELETE";
  /** The engine step each resource gets. */
  step: string;
}

const OPERATIONS: OperationSpec[] = [
  { id: "up", label: "`up` (create everything)", method: "POST", step: "create" },
  { id: "noop", label: "no-op `up`", step: "same" },
  { id: "update", label: "`up` updating a few", method: "PATCH", step: "update" },
  { id: "refresh", label: "`refresh`", method: "GET", step: "refresh" },
  { id: "destroy", label: "`destroy`", method: "DELETE", step: "delete" },
];
/** Operations also run with `parallel: 1`: the ones sending a request per resource. */
const SERIAL_OPERATIONS: Operation[] = ["up", "refresh", "destroy"];
/** Teams changed by the update: each team's group, identity and binding, one field each. */
const EDITED_TEAMS = 2;
/** As in the small engine's figures: the upper span's marginal time over the lower's. */
const LINEARITY_GOAL = 1.5;

interface Samples {
  ms: number[];
  /** The most requests any run of it sent, and what they were. */
  requests: number;
  floorRequests: number;
  requestDetail: string;
  failedRequests: number;
}

function emptySamples(): Samples {
  return { ms: [], requests: -1, floorRequests: 0, requestDetail: "", failedRequests: 0 };
}

/**
 * Per size: samples by variant and operation: `irm`, `noop`, `serial` (irm with
 * parallel 1), `unsaved` (irm with PULUMI_SKIP_CHECKPOINTS).
 */
export type SizeResults = Record<"irm" | "noop" | "serial" | "unsaved", Record<Operation, Samples>>;

export function emptySize(): SizeResults {
  const byOperation = () =>
    Object.fromEntries(OPERATIONS.map((op) => [op.id, emptySamples()])) as Record<
      Operation,
      Samples
    >;
  return { irm: byOperation(), noop: byOperation(), serial: byOperation(), unsaved: byOperation() };
}

/** `groups POST×34, roles GET×1`: requests by collection and method, in first-seen order. */
function requestSummary(entries: LogEntry[]): string {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    const match = entry.path.match(/^\/[a-z]+\/v2beta1\/([A-Za-z]+)/);
    const key = `${match ? match[1] : entry.path} ${entry.method}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts.size === 0
    ? "no request"
    : [...counts].map(([key, count]) => `${key}×${count}`).join(", ");
}

/** Updated resources when the first `EDITED_TEAMS` teams change (a team is 3 resources). */
function updatedCount(size: number): number {
  return Math.min(size, EDITED_TEAMS * 3);
}

function expectedSteps(operation: OperationSpec, size: number): Record<string, number> {
  if (operation.id === "update") {
    const updated = updatedCount(size);
    return updated === size ? { update: size } : { update: updated, same: size - updated };
  }
  return { [operation.step]: size };
}

function checkRun(run: RealRun, operation: OperationSpec, size: number, variant: string): void {
  const expected = expectedSteps(operation, size);
  const same =
    Object.keys(expected).length === Object.keys(run.steps).length &&
    Object.entries(expected).every(([op, count]) => run.steps[op] === count);
  // A refresh that found a difference would be an `update` in the engine's summary.
  const refreshChanged =
    operation.id === "refresh" && Object.keys(run.summary).some((op) => op !== "same");
  if (!same || refreshChanged) {
    throw new Error(
      `${variant} ${operation.id} of ${size}: steps ${JSON.stringify(run.steps)}, ` +
        `summary ${JSON.stringify(run.summary)}, expected ${JSON.stringify(expected)}`,
    );
  }
}

function record(samples: Samples, run: RealRun, floor: number, variant: Variant): void {
  samples.ms.push(run.ms);
  samples.floorRequests = variant === "noop" ? 0 : floor;
  if (run.requests.length > samples.requests) {
    samples.requests = run.requests.length;
    samples.requestDetail = requestSummary(run.requests);
  }
  samples.failedRequests += run.requests.filter((entry) => entry.status !== 200).length;
}

function floorOf(operation: OperationSpec, size: number): number {
  if (!operation.method) return 0;
  return operation.id === "update" ? updatedCount(size) : size;
}

interface Roles {
  viewer: string;
  editor: string;
}

async function builtInRoles(emu: EmulatorProcess): Promise<Roles> {
  const dispatcher = new Agent();
  try {
    const uidOf = async (name: string) => {
      const answer = await bareOk<{ roles: Array<{ uid: string }> }>(
        dispatcher,
        "GET",
        `${emu.url}/iam/v2beta1/roles?name=${name}`,
        emu.token,
      );
      return answer.roles[0].uid;
    };
    return { viewer: await uidOf("viewer"), editor: await uidOf("editor") };
  } finally {
    await dispatcher.close();
  }
}

async function newStack(
  engine: RealEngine,
  emu: EmulatorProcess,
  roles: Roles,
  size: number,
  variant: Variant,
  env?: Record<string, string>,
): Promise<RealBenchStack> {
  return engine.createStack({
    env,
    name: `bench-${variant}-${size}`,
    programDir: PROGRAM_DIR,
    emulator: emu,
    projectConfig: {
      resources: String(size),
      provider: variant,
      rootGroupUid: emu.rootGroupUid,
      roleUid: roles.viewer,
      editedRoleUid: roles.editor,
      edited: "0",
    },
  });
}

/** A fresh stack through every operation at the engine's default parallelism. */
async function fullCycle(
  stack: RealBenchStack,
  size: number,
  variant: Variant,
  into: Record<Operation, Samples>,
): Promise<void> {
  for (const operation of OPERATIONS) {
    if (operation.id === "update") await stack.setConfig({ edited: String(EDITED_TEAMS) });
    const run = await stack.run(
      operation.id === "refresh" || operation.id === "destroy" ? operation.id : "up",
    );
    checkRun(run, operation, size, variant);
    record(into[operation.id], run, floorOf(operation, size), variant);
  }
}

/** `up`, `refresh` and `destroy` of a fresh stack with `parallel: 1`. */
async function serialCycle(
  stack: RealBenchStack,
  size: number,
  into: Record<Operation, Samples>,
): Promise<void> {
  for (const id of SERIAL_OPERATIONS) {
    const operation = OPERATIONS.find((op) => op.id === id)!;
    const run = await stack.run(id === "refresh" || id === "destroy" ? id : "up", {
      parallel: 1,
    });
    checkRun(run, operation, size, "irm parallel 1");
    record(into[id], run, floorOf(operation, size), "irm");
  }
}

/** `up` and `destroy` of a fresh stack whose engine skips intermediate checkpoints. */
async function checkpointCycle(
  stack: RealBenchStack,
  size: number,
  into: Record<Operation, Samples>,
): Promise<void> {
  for (const id of ["up", "destroy"] as const) {
    const operation = OPERATIONS.find((op) => op.id === id)!;
    const run = await stack.run(id);
    checkRun(run, operation, size, "irm without checkpoints");
    record(into[id], run, floorOf(operation, size), "irm");
  }
}

interface ColdStartResults {
  /** `launcher-irm`, `node-irm`, `launcher-noop`, ...: marks of every sample. */
  samples: Record<string, ColdStartMarks[]>;
  providerBytes: Record<Variant, number>;
  /** JSON length of the group's whole entry in the real engine's state. */
  resourceBytes: Record<Variant, number>;
}

/**
 * Cold starts of the provider host in a one-group project of each provider: through the
 * launcher the engine runs (`pulumi-resource-pulumi-nodejs`, which first resolves
 * `@pulumi/pulumi` with a `node -e` of its own) and through `node <entry>` directly,
 * taking turns sample after sample.
 */
async function coldStarts(
  engine: RealEngine,
  emu: EmulatorProcess,
  roles: Roles,
  samples: number,
): Promise<ColdStartResults> {
  const results: ColdStartResults = {
    samples: {},
    providerBytes: { irm: 0, noop: 0 },
    resourceBytes: { irm: 0, noop: 0 },
  };
  const stacks: Array<{ variant: Variant; stack: RealBenchStack }> = [];
  try {
    const targets: Array<{ name: string; run: () => Promise<ColdStartMarks> }> = [];
    for (const variant of ["irm", "noop"] as const) {
      const stack = await newStack(engine, emu, roles, 1, variant);
      stacks.push({ variant, stack });
      await stack.run("up");
      const [group] = await stack.exportResources();
      const inputs = group.inputs as Record<string, unknown>;
      results.providerBytes[variant] = String(inputs.__provider).length;
      results.resourceBytes[variant] = JSON.stringify(group).length;
      const entry = require.resolve("@pulumi/pulumi/cmd/dynamic-provider", {
        paths: [stack.dir],
      });
      const common = {
        cwd: stack.dir,
        env: {
          ...process.env,
          PATH: `${engine.cli.bin}${path.delimiter}${process.env.PATH ?? ""}`,
          PULUMI_NODEJS_PROJECT: "org-real",
        },
        config: {
          "irm:apiUrl": emu.url,
          "irm:token": { [specialSigKey]: specialSecretSig, value: emu.token },
        },
        urn: String(group.urn),
        inputs,
      };
      targets.push(
        {
          name: `launcher-${variant}`,
          run: () =>
            coldStart({
              ...common,
              command: path.join(engine.cli.bin, "pulumi-resource-pulumi-nodejs"),
              args: [],
            }),
        },
        {
          name: `node-${variant}`,
          run: () => coldStart({ ...common, command: process.execPath, args: [entry] }),
        },
      );
    }
    for (let sample = 0; sample < samples; sample++) {
      for (const target of targets) {
        results.samples[target.name] ??= [];
        results.samples[target.name].push(await target.run());
      }
    }
  } finally {
    for (const { stack } of stacks) {
      await stack.run("destroy").catch(() => undefined);
      stack.dispose();
    }
  }
  return results;
}

/**
 * The provider alone, without program or engine: `count` creates of a group through the
 * provider host, then as many deletes. The median of the last hundred over that of the
 * first hundred shows whether the provider's (and the emulator's) cost per operation
 * grows with the organisation. (The serialized provider comes from a one-group stack on
 * the real engine; nothing else of it is used.)
 */
async function providerOnlyGrowth(
  engine: RealEngine,
  emu: EmulatorProcess,
  count: number,
  roleUid: string,
): Promise<{ create: number[]; remove: number[] }> {
  const stack = await createBenchStack(engine, {
    name: "bench-org-scale-host",
    programDir: path.join(FIXTURES_DIR, "org-scale"),
    emulator: emu,
    projectConfig: { resources: "1", rootGroupUid: emu.rootGroupUid, roleUid },
  });
  await stack.up();
  const [group] = stack.resources;
  const host = await startProviderHost({ cwd: stack.dir, projectName: stack.projectName });
  const create: number[] = [];
  const remove: number[] = [];
  try {
    await host.configure({ "irm:apiUrl": emu.url, "irm:token": emu.token }, ["irm:token"]);
    const created: Array<{ id: string; properties: Record<string, unknown> }> = [];
    for (let i = 0; i < count; i++) {
      const start = now();
      created.push(await host.create(group.urn, { ...group.inputs, name: `host-scale-${i}` }));
      create.push(now() - start);
    }
    for (const item of created.reverse()) {
      const start = now();
      await host.delete(item.id, group.urn, item.properties);
      remove.push(now() - start);
    }
  } finally {
    await host.close();
    await stack.destroy();
    stack.dispose();
  }
  return { create, remove };
}

function sizeLabel(size: number): string {
  return `${size.toLocaleString("en-US")} resources`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** Marginal ms per resource over the lower and the upper span of sizes, and their ratio. */
function growthOf(series: Array<{ x: number; y: number }>): {
  lower: number;
  upper: number;
  growth: number;
} {
  const slope = (a: { x: number; y: number }, b: { x: number; y: number }) =>
    (b.y - a.y) / (b.x - a.x);
  const lower = slope(series[0], series[1]);
  const upper = slope(series[series.length - 2], series[series.length - 1]);
  return { lower, upper, growth: upper / lower };
}

export interface SmallEngineFigures {
  shortCommit: string;
  startedAt: string;
  byId: Map<string, Measurement>;
  method: string;
}

export function smallEngineFigures(): SmallEngineFigures | undefined {
  if (!fs.existsSync(SMALL_ENGINE_RESULTS)) return undefined;
  const results = JSON.parse(fs.readFileSync(SMALL_ENGINE_RESULTS, "utf8")) as BenchResults;
  const section = results.sections.find((s) => s.id === "lifecycle");
  if (!section) return undefined;
  return {
    shortCommit: results.shortCommit,
    startedAt: results.startedAt.slice(0, 16).replace("T", " "),
    byId: new Map(section.measurements.map((m) => [m.id, m])),
    method: section.method,
  };
}

async function run(context: SuiteContext): Promise<Section[]> {
  const engine = openRealEngine();
  if (!engine) {
    context.log("lifecycle: no Pulumi CLI found (npm run pulumi:install provides one): skipped");
    return [
      {
        id: "lifecycle",
        title: "4. Lifecycle of an organisation on the real engine, 100 to 1,000 resources",
        method:
          "**Skipped in this run: no Pulumi CLI was found** (`PULUMI_CLI_DIR`, the cache of " +
          "`npm run pulumi:install`, `PATH`). This suite runs only on the real engine; it does not " +
          "fall back to the small in-repo engine.",
        measurements: [],
        notes: [],
      },
    ];
  }
  context.log(`lifecycle: Pulumi CLI ${engine.cli.version} from ${engine.cli.source}`);
  // The do-nothing provider's runtime goes beside pulumi-irm in the installed base.
  fs.cpSync(NOOP_RUNTIME_DIR, path.join(engine.base, "node_modules", "irm-noop-1"), {
    recursive: true,
  });
  const sizes = process.env.IRM_BENCH_LIFECYCLE_SIZES
    ? process.env.IRM_BENCH_LIFECYCLE_SIZES.split(",").map(Number)
    : context.pick([100, 550, 1_000], [10, 40, 70]);
  if (sizes.length < 2 || sizes.some((size) => !Number.isInteger(size) || size < 1)) {
    throw new Error(`IRM_BENCH_LIFECYCLE_SIZES: sizes in resources, comma-separated, ascending`);
  }
  const rounds = Number(process.env.IRM_BENCH_LIFECYCLE_ROUNDS ?? context.pick(2, 1));
  const serialRounds = Math.min(rounds, Number(process.env.IRM_BENCH_SERIAL_ROUNDS ?? 1));
  const serialMax = Number(process.env.IRM_BENCH_SERIAL_MAX ?? Number.POSITIVE_INFINITY);
  const budgetSeconds = Number(
    process.env.IRM_BENCH_LIFECYCLE_BUDGET_S ?? Number.POSITIVE_INFINITY,
  );
  const coldSamples = context.pick(10, 3);
  const results = new Map(sizes.map((size) => [size, emptySize()]));
  const failures: string[] = [];
  const skipped: string[] = [];
  const emu = await startEmulatorProcess();
  let cold: ColdStartResults | undefined;
  let hostOnly: { create: number[]; remove: number[] } = { create: [], remove: [] };
  const suiteStart = now();
  const largest = sizes[sizes.length - 1];
  try {
    const roles = await builtInRoles(emu);
    /** One cycle on a fresh stack; a failure is recorded and the suite goes on. */
    const cycle = async (
      label: string,
      size: number,
      variant: Variant,
      body: (stack: RealBenchStack) => Promise<void>,
      env?: Record<string, string>,
    ) => {
      if ((now() - suiteStart) / 1000 > budgetSeconds) {
        skipped.push(label);
        context.log(`lifecycle: skipped (time budget spent): ${label}`);
        return;
      }
      context.log(`lifecycle: ${label}`);
      const stack = await newStack(engine, emu, roles, size, variant, env);
      try {
        await body(stack);
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message}`);
        context.log(`lifecycle: FAILED ${failures[failures.length - 1].slice(0, 2000)}`);
        await stack.run("destroy").catch(() => undefined);
      } finally {
        stack.dispose();
      }
    };
    for (let round = 0; round < rounds; round++) {
      // Sizes and providers take turns, so a change in the machine's load weighs on all alike.
      const order = round % 2 === 0 ? sizes : [...sizes].reverse();
      for (const size of order) {
        const variants: Variant[] = round % 2 === 0 ? ["irm", "noop"] : ["noop", "irm"];
        for (const variant of variants) {
          await cycle(
            `round ${round + 1} of ${rounds}, ${size} resources, ${variant}`,
            size,
            variant,
            (stack) => fullCycle(stack, size, variant, results.get(size)![variant]),
          );
        }
      }
      if (round === 0) {
        // What the engine's state writes after each step cost: the same up and destroy
        // with PULUMI_SKIP_CHECKPOINTS (state written once, at the end of the run).
        await cycle(
          `${largest} resources, irm without intermediate checkpoints`,
          largest,
          "irm",
          (stack) => checkpointCycle(stack, largest, results.get(largest)!.unsaved),
          { PULUMI_SKIP_CHECKPOINTS: "true" },
        );
      }
      if (round < serialRounds) {
        for (const size of sizes.filter((size) => size <= serialMax)) {
          await cycle(
            `round ${round + 1}, ${size} resources, irm with parallel 1`,
            size,
            "irm",
            (stack) => serialCycle(stack, size, results.get(size)!.serial),
          );
        }
      }
    }
    context.log("lifecycle: provider host cold starts");
    cold = await coldStarts(engine, emu, roles, coldSamples);
    context.log(`lifecycle: ${largest} creates and deletes through the provider host alone`);
    hostOnly = await providerOnlyGrowth(engine, emu, largest, roles.viewer);
  } finally {
    await emu.close();
    engine.close();
  }
  const suiteSeconds = (now() - suiteStart) / 1000;
  return render({
    context,
    engine,
    sizes,
    rounds,
    serialRounds,
    serialMax,
    results,
    failures,
    skipped,
    cold,
    hostOnly,
    suiteSeconds,
  });
}

interface RenderInput {
  context: SuiteContext;
  engine: RealEngine;
  sizes: number[];
  rounds: number;
  serialRounds: number;
  serialMax: number;
  results: Map<number, SizeResults>;
  failures: string[];
  skipped: string[];
  cold: ColdStartResults | undefined;
  hostOnly: { create: number[]; remove: number[] };
  suiteSeconds: number;
}

function render(input: RenderInput): Section[] {
  const { sizes, results, rounds, serialRounds, serialMax } = input;
  const sections: Section[] = [];
  const has = (s: Samples) => s.ms.length > 0;

  // 4. Requests, wall time, growth, parallelism.
  const lifecycle: Measurement[] = [];
  const requestMisses: string[] = [];
  for (const size of sizes) {
    const byVariant = results.get(size)!;
    for (const operation of OPERATIONS) {
      const samples = byVariant.irm[operation.id];
      if (!has(samples)) continue;
      const ms = median(samples.ms);
      lifecycle.push({
        id: `${operation.id}-${size}-ms`,
        label: `${operation.label}, ${sizeLabel(size)}: wall time`,
        value: ms / 1000,
        unit: "s",
        detail:
          `median of ${samples.ms.length} (${samples.ms.map((v) => (v / 1000).toFixed(1)).join(", ")} s); ` +
          `${(ms / size).toFixed(1)} ms per resource including the fixed start-up`,
      });
      const floor = floorOf(operation, size);
      const met = samples.requests <= floor;
      if (!met)
        requestMisses.push(`${operation.label}, ${sizeLabel(size)}: ${samples.requestDetail}`);
      lifecycle.push({
        id: `${operation.id}-${size}-requests`,
        label: `${operation.label}, ${sizeLabel(size)}: requests`,
        value: samples.requests,
        unit: "requests",
        floor,
        ratio:
          floor === 0
            ? samples.requests === 0
              ? 1
              : Number.POSITIVE_INFINITY
            : samples.requests / floor,
        goal: "ratio 1.0",
        met,
        detail:
          `${samples.requestDetail}` +
          (operation.method
            ? `; floor: one ${operation.method} per resource ${operation.id === "update" ? "changed" : "in the stack"}`
            : "") +
          (samples.failedRequests > 0 ? `; ${samples.failedRequests} not answered 200` : ""),
      });
    }
  }
  const complete = (variant: "irm" | "noop" | "serial", op: Operation) =>
    sizes.every((size) => has(results.get(size)![variant][op]));
  const growthNotes: string[] = [];
  for (const operation of OPERATIONS) {
    if (!complete("irm", operation.id) || sizes.length < 3) continue;
    const points = sizes.map((size) => ({
      x: size,
      y: median(results.get(size)!.irm[operation.id].ms),
    }));
    const fit = linearFit(points);
    const { lower, upper, growth } = growthOf(points);
    const runs = Math.min(...sizes.map((size) => results.get(size)!.irm[operation.id].ms.length));
    const perRun = Array.from(
      { length: runs },
      (_, i) =>
        growthOf(sizes.map((size) => ({ x: size, y: results.get(size)!.irm[operation.id].ms[i] })))
          .growth,
    );
    lifecycle.push({
      id: `${operation.id}-linearity`,
      label: `${operation.label}: marginal time per resource, upper span of sizes over lower span`,
      value: growth,
      unit: "×",
      ratio: growth,
      goal: `0 < ratio < ${LINEARITY_GOAL} (linear; not positive: noise swamped it)`,
      met: growth > 0 && growth < LINEARITY_GOAL,
      detail:
        `${lower.toFixed(2)} ms/resource from ${points[0].x} to ${points[1].x}, ` +
        `${upper.toFixed(2)} ms/resource from ${points[points.length - 2].x} to ${points[points.length - 1].x}; ` +
        `least squares: ${fit.slope.toFixed(2)} ms/resource + ${(fit.intercept / 1000).toFixed(2)} s fixed, r² ${fit.r2.toFixed(4)}` +
        (perRun.length > 1 ? `; run by run: ${perRun.map((g) => g.toFixed(2)).join(", ")}` : ""),
    });
    if (operation.id !== "update") {
      growthNotes.push(
        `${operation.label} ${fit.slope.toFixed(1)} ms per resource + ${(fit.intercept / 1000).toFixed(1)} s`,
      );
    }
  }
  const parallelRows: string[] = [];
  for (const size of sizes) {
    const byVariant = results.get(size)!;
    for (const id of SERIAL_OPERATIONS) {
      const serial = byVariant.serial[id];
      const parallel = byVariant.irm[id];
      if (!has(serial) || !has(parallel)) continue;
      const operation = OPERATIONS.find((op) => op.id === id)!;
      const ratio = median(serial.ms) / median(parallel.ms);
      lifecycle.push({
        id: `${id}-${size}-serial-over-parallel`,
        label: `${operation.label}, ${sizeLabel(size)}: \`parallel: 1\` over the default parallelism`,
        value: ratio,
        unit: "×",
        ratio,
        detail:
          `parallel 1: ${seconds(median(serial.ms))} (median of ${serial.ms.length}, ${serial.requestDetail}); ` +
          `default: ${seconds(median(parallel.ms))} (median of ${parallel.ms.length})`,
      });
      parallelRows.push(`${id} ${size}: ${ratio.toFixed(2)}×`);
    }
  }
  const checkpointRows: string[] = [];
  for (const size of sizes) {
    const byVariant = results.get(size)!;
    for (const id of ["up", "destroy"] as const) {
      const unsaved = byVariant.unsaved[id];
      const saved = byVariant.irm[id];
      if (!has(unsaved) || !has(saved)) continue;
      const operation = OPERATIONS.find((op) => op.id === id)!;
      const ratio = median(saved.ms) / median(unsaved.ms);
      lifecycle.push({
        id: `${id}-${size}-checkpoints-over-none`,
        label: `${operation.label}, ${sizeLabel(size)}: with the engine's state written after every step over without (\`PULUMI_SKIP_CHECKPOINTS\`)`,
        value: ratio,
        unit: "×",
        ratio,
        detail:
          `default: ${seconds(median(saved.ms))} (median of ${saved.ms.length}); ` +
          `PULUMI_SKIP_CHECKPOINTS=true: ${seconds(median(unsaved.ms))} (${unsaved.ms.length} run, ${unsaved.requestDetail})`,
      });
      checkpointRows.push(
        `${id} of ${size.toLocaleString("en-US")}: ${seconds(median(saved.ms))} against ${seconds(median(unsaved.ms))} (${ratio.toFixed(1)}×)`,
      );
    }
  }
  const window = Math.min(100, Math.floor(input.hostOnly.create.length / 2));
  if (window > 0) {
    for (const [id, label, samples] of [
      ["host-create-growth", "create", input.hostOnly.create],
      ["host-delete-growth", "delete", input.hostOnly.remove],
    ] as const) {
      // Deletes run newest first: their "first" hundred met the largest organisation.
      const early = median(samples.slice(0, window));
      const late = median(samples.slice(-window));
      const growth = id === "host-delete-growth" ? early / late : late / early;
      const emptyOrg = id === "host-delete-growth" ? late : early;
      const fullOrg = id === "host-delete-growth" ? early : late;
      lifecycle.push({
        id,
        label: `provider host alone: one ${label} with ${samples.length.toLocaleString("en-US")} groups in the organisation over one with a few`,
        value: growth,
        unit: "×",
        ratio: growth,
        goal: `0 < ratio < ${LINEARITY_GOAL} (constant cost per operation)`,
        met: growth > 0 && growth < LINEARITY_GOAL,
        detail: `median of ${window} ${label}s each: ${emptyOrg.toFixed(2)} ms with the organisation nearly empty, ${fullOrg.toFixed(2)} ms with ${samples.length.toLocaleString("en-US")} groups in it`,
      });
    }
  }
  const requestRows = lifecycle.filter((m) => m.id.endsWith("-requests"));
  const growthRows = lifecycle.filter((m) => m.id.endsWith("-linearity"));
  const lifecycleNotes = [
    requestMisses.length === 0
      ? "Requests are at the floor at every size: one POST per resource for `up`, none for a no-op `up`, " +
        "one PATCH per changed resource for the update, one GET per resource for `refresh`, one DELETE per resource for `destroy`."
      : `Requests above the floor (what each run sent is in the detail column): ${requestMisses.join("; ")}.`,
    ...(requestMisses.some((miss) => miss.includes("roles GET"))
      ? [
          "The `roles GET` requests are the provider reading a binding's role to keep a built-in role's name in the " +
            "binding's outputs (`builtInRoleName`, `provider/handlers/role-binding.ts`); it remembers the answer per " +
            "client for the life of the provider host, so a run reads each role it binds about once, not once per " +
            "binding (the counts above). They are not among the API's floor of one write per resource.",
        ]
      : []),
    growthRows.length === 0
      ? "No growth ratio: a size is missing (see the failures below) or fewer than three sizes ran."
      : growthRows.every((m) => m.met)
        ? `Wall time grows linearly with the organisation: the marginal time per resource between the two largest sizes is at most ${LINEARITY_GOAL}× that between the two smallest (${growthNotes.join("; ")}, from the least-squares lines).`
        : [
            growthRows.some((m) => m.value >= LINEARITY_GOAL)
              ? `Wall time grows faster than linearly for: ${growthRows
                  .filter((m) => m.value >= LINEARITY_GOAL)
                  .map((m) => `${m.label} (${m.value.toFixed(2)}×)`)
                  .join("; ")}.`
              : "",
            growthRows.some((m) => m.value <= 0)
              ? `No growth ratio could be told from the noise for: ${growthRows
                  .filter((m) => m.value <= 0)
                  .map(
                    (m) =>
                      `${m.label} (${m.value.toFixed(2)}×: the time fell from one size to the next)`,
                  )
                  .join("; ")}.`
              : "",
            growthRows.some((m) => m.met)
              ? `Linear (ratio under ${LINEARITY_GOAL}): ${growthRows
                  .filter((m) => m.met)
                  .map((m) => `${m.label} (${m.value.toFixed(2)}×)`)
                  .join("; ")}.`
              : "",
            rounds > 1
              ? "The detail column gives the ratio of each round alone, so a one-round jump (load on the shared machine) can be told from a steady rise."
              : "One round only: no spread from run to run to tell a jump from load on the shared machine from a steady rise.",
          ]
            .filter((text) => text !== "")
            .join(" "),
    parallelRows.length === 0
      ? "No `parallel: 1` figures in this run."
      : `With \`parallel: 1\` the engine applies one step at a time: ${parallelRows.join(", ")} the default parallelism's time (the CLI's default is 8 at once). ` +
        "Where the ratio is near 1 the run is likely bound by what does not overlap (the program registering resources one after another, the engine's own bookkeeping, one CPU for the program, the engine, the provider host and the emulator together), not by waiting for the API.",
    ...(checkpointRows.length > 0
      ? [
          "With the default file backend the engine writes the whole state (its checkpoint) after every step that " +
            "changes it, so a create or delete of the n-th resource also writes n resources' state: the run's writes grow " +
            "with the square of its size. Skipping those intermediate writes (`PULUMI_SKIP_CHECKPOINTS=true`, state written " +
            `once at the end; a crash mid-run then loses what the run did) measured: ${checkpointRows.join("; ")}. ` +
            "A no-op `up` and a `refresh` that finds nothing changed write nothing per step, which is likely why they stay fast. " +
            (input.cold
              ? `Of a Group's ${input.cold.resourceBytes.irm.toLocaleString("en-US")} B in this engine's state, ${Math.round((200 * input.cold.providerBytes.irm) / input.cold.resourceBytes.irm)}% is the two copies of the provider text (\`__provider\`, ${input.cold.providerBytes.irm.toLocaleString("en-US")} B each), so its size weighs on every one of these writes.`
              : ""),
        ]
      : []),
    ...(input.skipped.length > 0
      ? [
          `**Skipped for the suite's time budget (\`IRM_BENCH_LIFECYCLE_BUDGET_S\`)**: ${input.skipped.join("; ")}.`,
        ]
      : []),
    ...(input.failures.length > 0
      ? [
          `**${input.failures.length} cycle(s) failed** and are left out of the figures: ${input.failures
            .map((f) => f.split("\n")[0].slice(0, 300))
            .join(" | ")}`,
        ]
      : []),
  ];
  sections.push({
    id: "lifecycle",
    title: `4. Lifecycle of an organisation on the real engine, ${sizes[0].toLocaleString("en-US")} to ${sizes[sizes.length - 1].toLocaleString("en-US")} resources`,
    method:
      `The real Pulumi engine: CLI ${input.engine.cli.version} (${input.engine.cli.source}, built by \`npm run pulumi:install\`), ` +
      "each run one `pulumi up|refresh|destroy --yes --skip-preview` process timed from spawn to exit, with a `file://` " +
      "backend, in a project folder below the package as `npm pack` + `npm install` ship it; the emulator runs in its own process. " +
      "`bench/fixtures/org-real` declares exactly N resources in teams of three (a group, its CI identity, the identity's " +
      "binding on the group; departments of ten teams, so groups nest and most resources wait for another's uid). " +
      `Each cycle is a fresh stack: \`up\`, a no-op \`up\`, an \`up\` changing ${EDITED_TEAMS} teams (${updatedCount(sizes[sizes.length - 1])} resources: ` +
      "two descriptions and a binding's role), `refresh`, `destroy`. " +
      `Sizes ${sizes.join(", ")}, ${rounds} round(s) in which each size runs once with pulumi-irm and once with the ` +
      `do-nothing provider of section 4b, in turns; after the first ${serialRounds} round(s) ${Number.isFinite(serialMax) ? `each size up to ${serialMax.toLocaleString("en-US")}` : "each size"} also runs \`up\`, \`refresh\` ` +
      "and `destroy` of a fresh stack with `parallel: 1`, and after the first round the largest size runs `up` and `destroy` " +
      "of a fresh stack with `PULUMI_SKIP_CHECKPOINTS=true`. Requests come from the emulator's request log of each run " +
      "(the most any round sent); engine steps from the run's event log are checked against what was asked " +
      "(a run that did anything else fails its cycle). Wall time includes the CLI's start, the Node.js language host " +
      "and the program (TypeScript, transpile only), the provider host's start and every step. Growth: the marginal " +
      "time per resource between the two largest sizes over that between the two smallest (spans of equal length; " +
      "1.0 is a straight line and the fixed start-up cancels out). The provider-host-alone rows time " +
      "creates and deletes straight through the host (no program, no engine).",
    measurements: lifecycle,
    notes: lifecycleNotes,
  });

  // 4b. Our time over the do-nothing provider's.
  const share: Measurement[] = [];
  const shareNotes: string[] = [];
  const perOperationRatios: Record<string, string[]> = {};
  for (const size of sizes) {
    const byVariant = results.get(size)!;
    for (const operation of OPERATIONS) {
      const ours = byVariant.irm[operation.id];
      const theirs = byVariant.noop[operation.id];
      if (!has(ours) || !has(theirs)) continue;
      const ratio = median(ours.ms) / median(theirs.ms);
      perOperationRatios[operation.id] ??= [];
      perOperationRatios[operation.id].push(ratio.toFixed(2));
      share.push({
        id: `${operation.id}-${size}-over-noop`,
        label: `${operation.label}, ${sizeLabel(size)}: pulumi-irm over the do-nothing provider`,
        value: ratio,
        unit: "×",
        ratio,
        detail:
          `pulumi-irm ${seconds(median(ours.ms))}, do-nothing ${seconds(median(theirs.ms))} ` +
          `(medians of ${ours.ms.length} and ${theirs.ms.length}; ${((median(ours.ms) - median(theirs.ms)) / size).toFixed(1)} ms per resource apart); ` +
          `do-nothing requests: ${theirs.requestDetail}`,
      });
    }
  }
  if (input.cold) {
    share.push({
      id: "provider-bytes-irm-noop",
      label: "provider text (`__provider`) of a Group: pulumi-irm over the do-nothing provider",
      value: input.cold.providerBytes.irm / input.cold.providerBytes.noop,
      unit: "×",
      detail: `${input.cold.providerBytes.irm} B against ${input.cold.providerBytes.noop} B (a Group's whole entry in state: ${input.cold.resourceBytes.irm} B against ${input.cold.resourceBytes.noop} B); stored twice per resource in state and sent with every call to the host`,
    });
  }
  for (const operation of OPERATIONS) {
    const ratios = perOperationRatios[operation.id];
    if (ratios) shareNotes.push(`${operation.label}: ${ratios.join(", ")}`);
  }
  const doNothingRequests = sizes.every((size) =>
    OPERATIONS.every((op) => {
      const samples = results.get(size)!.noop[op.id];
      return !has(samples) || samples.requests === 0;
    }),
  );
  sections.push({
    id: "lifecycle-provider-share",
    title: "4b. The provider's share of an `up`: pulumi-irm over a do-nothing provider",
    method:
      "`bench/fixtures/org-real/noop.ts` is a dynamic provider of the same shape as pulumi-irm's: the same type tokens " +
      "(`pulumi-nodejs:dynamic/irm:Group`, `…/irm:Identity`, `…/irm:RoleBinding`), the same inputs and outputs, a diff " +
      "over the same fields with the same replacements; ids and outputs are made locally and it sends no request. The " +
      "same program (`org-real:provider` picks the classes) declares the same graph on it, in the same run, cycle for " +
      "cycle in turns with pulumi-irm (section 4). Each figure is pulumi-irm's median wall time over the do-nothing " +
      "provider's for the same operation and size: what is left above 1 is our provider's own cost (its requests to the " +
      "emulator, validation, the SDK, loading the package in the host).",
    measurements: share,
    notes: [
      `Ratios by size (${sizes.join(", ")}): ${shareNotes.join("; ")}.`,
      doNothingRequests
        ? "The do-nothing provider sent no request in any run (checked in the emulator's log), so its time is the engine's, the program's and the host's alone."
        : "**The do-nothing provider's runs show requests in the emulator's log**: see the detail column.",
      "Both run on the same two shared cores, so the emulator answering pulumi-irm's requests also takes CPU from the engine and the program; the ratio is likely an upper bound of what the requests cost on a machine where the API is elsewhere.",
    ],
  });

  // 4c. Cold start.
  if (input.cold) {
    const cold: Measurement[] = [];
    const marks: Array<[keyof ColdStartMarks, string]> = [
      ["port", "port line on stdout"],
      ["pluginInfo", "first gRPC answer (`GetPluginInfo`)"],
      ["configure", "`Configure` answered"],
      ["check", "first `Check` of a Group answered (provider loaded)"],
    ];
    for (const [target, samples] of Object.entries(input.cold.samples)) {
      const [how, variant] = target.split("-");
      const who =
        how === "launcher"
          ? "`pulumi-resource-pulumi-nodejs` (the launcher the engine runs)"
          : "`node <@pulumi/pulumi>/cmd/dynamic-provider`";
      for (const [mark, label] of marks) {
        if (variant === "noop" && mark !== "check") continue;
        const values = samples.map((s) => s[mark]);
        cold.push({
          id: `cold-${target}-${mark}`,
          label: `${who}, ${variant === "irm" ? "pulumi-irm" : "do-nothing provider"}: spawn to ${label}`,
          value: median(values),
          unit: "ms",
          detail: `median of ${values.length}; p95 ${quantile(values, 0.95).toFixed(0)} ms; min ${Math.min(...values).toFixed(0)} ms`,
        });
      }
    }
    const medianOf = (target: string, mark: keyof ColdStartMarks) => {
      const samples = input.cold?.samples[target];
      return samples && samples.length > 0 ? median(samples.map((s) => s[mark])) : Number.NaN;
    };
    const launcherExtra =
      medianOf("launcher-irm", "pluginInfo") - medianOf("node-irm", "pluginInfo");
    const loadIrm = medianOf("node-irm", "check") - medianOf("node-irm", "configure");
    const loadNoop = medianOf("node-noop", "check") - medianOf("node-noop", "configure");
    sections.push({
      id: "provider-cold-start",
      title: "4c. Provider host cold start",
      method:
        "The engine starts one dynamic-provider host per run (`up`, `refresh`, `destroy`) before the first step of a " +
        "dynamic resource can be applied. Here the host is started in the project folder of a one-group stack " +
        "(the package installed as users install it) through the launcher that `npm run pulumi:install` puts beside " +
        "the CLI, and through `node <entry>` directly, in turns sample after sample; each mark is milliseconds " +
        "from spawn: the port line on stdout, the answer to `GetPluginInfo` (the first gRPC answer), to `Configure` " +
        "(the emulator's URL and token), and to the first `Check` of a Group with its inputs from state (the host " +
        "deserializes `__provider` and loads what it requires: for pulumi-irm the package's runtime and the SDK; undici loads with the first request, which a `Check` of an unchanged parent does not send).",
      measurements: cold,
      notes: [
        `The launcher costs ${launcherExtra.toFixed(0)} ms more than \`node <entry>\` to the first answer (median against median): it first runs a \`node -e\` of its own to resolve \`@pulumi/pulumi\` from the project folder, then \`exec node\` on the entry, so two Node.js starts instead of one.`,
        `Loading the provider on the first \`Check\` (after \`Configure\`): ${loadIrm.toFixed(0)} ms for pulumi-irm, ${loadNoop.toFixed(0)} ms for the do-nothing provider (medians, \`node <entry>\`); the difference is likely requiring the package's runtime and its dependencies.`,
        "The engine pays this once per run and per host, not per resource; the wall times of section 4 include it.",
      ],
    });
  }

  // 4d. Against the small engine's figures.
  const small = smallEngineFigures();
  if (small) sections.push(againstSmallEngine(small, sizes, results, requestRows));
  return sections;
}

/** The real engine's figures beside the small engine's recorded ones, where both exist. */
export function againstSmallEngine(
  small: SmallEngineFigures,
  sizes: number[],
  results: Map<number, SizeResults>,
  requestRows: Measurement[],
): Section {
  const compared: Measurement[] = [];
  const ratios: string[] = [];
  const requestChanges: string[] = [];
  const requestSame: string[] = [];
  const lines: string[] = [];
  const compareOps = ["up", "noop", "destroy"] as const;
  for (const size of sizes) {
    for (const id of compareOps) {
      const before = small.byId.get(`${id}-${size}-ms`);
      const samples = results.get(size)!.irm[id];
      if (!before || samples.ms.length === 0) continue;
      const after = median(samples.ms) / 1000;
      const operation = OPERATIONS.find((op) => op.id === id)!;
      compared.push({
        id: `${id}-${size}-real-over-small`,
        label: `${operation.label}, ${sizeLabel(size)}: real engine over the small engine`,
        value: after / before.value,
        unit: "×",
        detail: `real engine ${after.toFixed(2)} s, small engine ${before.value.toFixed(2)} s (${before.detail ?? ""})`,
      });
      ratios.push(`${id} ${size}: ${(after / before.value).toFixed(2)}×`);
      const requestsBefore = small.byId.get(`${id}-${size}-requests`);
      const requestsAfter = requestRows.find((m) => m.id === `${id}-${size}-requests`);
      if (requestsBefore && requestsAfter) {
        if (requestsBefore.value === requestsAfter.value) requestSame.push(`${id} ${size}`);
        else
          requestChanges.push(
            `${id} of ${size}: ${requestsBefore.value} on the small engine, ${requestsAfter.value} now (${requestsAfter.detail ?? ""})`,
          );
      }
    }
  }
  // Least-squares lines through each run's own per-size medians (the sizes may differ).
  const smallSizes = [...small.byId.keys()]
    .map((key) => key.match(/^up-(\d+)-ms$/)?.[1])
    .filter((size): size is string => size !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const sameSizes = smallSizes.join(",") === sizes.join(",");
  for (const id of compareOps) {
    const smallPoints = smallSizes.map((size) => ({
      x: size,
      y: (small.byId.get(`${id}-${size}-ms`)?.value ?? Number.NaN) * 1000,
    }));
    const realPoints = sizes.map((size) => {
      const ms = results.get(size)!.irm[id].ms;
      return { x: size, y: ms.length > 0 ? median(ms) : Number.NaN };
    });
    if (
      smallPoints.length < 3 ||
      realPoints.length < 3 ||
      [...smallPoints, ...realPoints].some((p) => Number.isNaN(p.y))
    )
      continue;
    const before = linearFit(smallPoints);
    const after = linearFit(realPoints);
    const operation = OPERATIONS.find((op) => op.id === id)!;
    compared.push(
      {
        id: `${id}-slope-real-and-small`,
        label: `${operation.label}: time per resource (least-squares slope), real engine`,
        value: after.slope,
        unit: "ms",
        detail:
          `small engine ${before.slope.toFixed(2)} ms; real over small ${(after.slope / before.slope).toFixed(2)}×` +
          (sameSizes
            ? ""
            : `; fitted over each run's own sizes (real ${sizes.join(", ")}; small ${smallSizes.join(", ")})`),
      },
      {
        id: `${id}-fixed-real-and-small`,
        label: `${operation.label}: fixed time per run (least-squares intercept), real engine`,
        value: after.intercept / 1000,
        unit: "s",
        detail: `small engine ${(before.intercept / 1000).toFixed(2)} s`,
      },
    );
    lines.push(
      `${operation.label}: ${after.slope.toFixed(1)} ms per resource + ${(after.intercept / 1000).toFixed(1)} s per run on the real engine, ` +
        `${before.slope.toFixed(1)} ms + ${(before.intercept / 1000).toFixed(1)} s on the small engine`,
    );
    const growthBefore = small.byId.get(`${id}-linearity`);
    const { growth } = growthOf(realPoints);
    if (growthBefore) {
      compared.push({
        id: `${id}-linearity-real-and-small`,
        label: `${operation.label}: growth ratio on the real engine`,
        value: growth,
        unit: "×",
        detail:
          `small engine ${growthBefore.value.toFixed(2)}×` +
          (sameSizes
            ? ""
            : ` (over ${smallSizes.join(", ")}; real engine over ${sizes.join(", ")})`),
      });
    }
  }
  const notes: string[] = [];
  if (compared.length === 0) {
    notes.push(
      `No figure to compare: this run's sizes (${sizes.join(", ")}) are too few or none of them has a figure of the small engine's.`,
    );
  } else {
    if (ratios.length > 0) {
      notes.push(`Wall time, real engine over small engine: ${ratios.join(", ")}.`);
    }
    if (lines.length > 0) {
      notes.push(
        `${lines.join("; ")}.` +
          (sameSizes
            ? ""
            : ` Each line is fitted over its own run's sizes (real engine ${sizes.join(", ")}, small engine ${smallSizes.join(", ")}); where a run's time grows faster than linearly its slope depends on the range of sizes.`),
      );
    }
    if (requestChanges.length > 0) notes.push(`Requests changed: ${requestChanges.join("; ")}.`);
    else if (requestSame.length > 0)
      notes.push(
        `Requests did not change for \`up\`, no-op \`up\` and \`destroy\` at the sizes both runs have (${[...new Set(requestSame.map((key) => key.split(" ")[1]))].join(", ")}): the provider sends the same requests whichever engine calls it.`,
      );
    notes.push(
      "Where the real engine takes longer, the likely causes are what the small engine left out: a CLI process and a " +
        "Node.js language host per run, the program run as a separate process talking to the engine over gRPC, the " +
        "engine writing state to the file backend as steps complete, and a provider host started per run (section 4c). " +
        "Against that it overlaps independent steps (8 at once), which the small engine never did; section 4's " +
        "`parallel: 1` rows show what that overlap is worth here.",
    );
  }
  return {
    id: "lifecycle-against-small-engine",
    title: "4d. What changed against the small engine's figures",
    method:
      `${sameSizes ? "The same sizes as measured" : `This run's sizes (${sizes.join(", ")}) beside those measured (${smallSizes.join(", ")})`} on the project's small in-repo engine (\`tests/support/lifecycle\`) in the full run of ` +
      `\`${small.shortCommit}\` (${small.startedAt} UTC, kept in \`bench/results/${path.basename(SMALL_ENGINE_RESULTS)}\`): ` +
      "program under mocks in the test process, steps applied one at a time, no CLI, no language host, no file backend. " +
      "Its program (`bench/fixtures/org-scale`) declares the same teams of three as `org-real`; it had no update or " +
      "refresh row. Each figure is this run's real-engine median beside (or over) the small engine's recorded one. The two " +
      "runs were made at different times on the same shared machine, under different loads, so only large differences mean much.",
    measurements: compared,
    notes,
  };
}

export const lifecycleSuite: Suite = {
  name: "lifecycle",
  sectionIds: [
    "lifecycle",
    "lifecycle-provider-share",
    "provider-cold-start",
    "lifecycle-against-small-engine",
  ],
  run,
};
