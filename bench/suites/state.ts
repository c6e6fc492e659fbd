/**
 * What the provider text costs, on the real Pulumi engine: the package of the last
 * release that stored the 2 KB closure-serialized text (`OLD_TEXT_RELEASE`, packed from
 * that commit), this checkout's package (a 100-byte text) and the do-nothing provider of
 * the new shape (`bench/fixtures/org-real/noop.ts`), in turns, on the same graph
 * (`bench/fixtures/org-real`) at each size: bytes of state per resource, every field of
 * a Group's entry in the checkpoint, and the wall time of `up`, a no-op `up`, `refresh`
 * and `destroy`, with their growth between sizes. Without a Pulumi CLI the suite says so
 * and is skipped.
 *
 * Sizes: `IRM_BENCH_STATE_SIZES` (default 100,300,1000; `--quick` 20,50), rounds:
 * `IRM_BENCH_STATE_ROUNDS` (default 1).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Agent } from "undici";
import {
  installPackage,
  OLD_TEXT_RELEASE,
  packCommit,
} from "../../harness/real-engine/install-layouts";
import { type EmulatorProcess, startEmulatorProcess } from "../lib/emulator-process";
import { bareOk } from "../lib/http";
import { openRealEngine, type RealBenchStack, type RealRun } from "../lib/real-engine";
import type { Measurement, Section } from "../lib/report";
import { FIXTURES_DIR } from "../lib/stack";
import { median, now } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

const PROGRAM_DIR = path.join(FIXTURES_DIR, "org-real");
const NOOP_RUNTIME_DIR = path.join(FIXTURES_DIR, "noop-provider");
const SECTION_ID = "state";
const TITLE = "4e. The provider text: state and wall time, older package, this one, do-nothing";

type Variant = "old" | "new" | "noop";
type Operation = "up" | "noop" | "refresh" | "destroy";

const VARIANTS: Variant[] = ["old", "new", "noop"];
const VARIANT_LABEL: Record<Variant, string> = {
  old: `pulumi-irm ${OLD_TEXT_RELEASE.slice(0, 7)} (2 KB text)`,
  new: "pulumi-irm (this commit)",
  noop: "do-nothing provider, new shape",
};
const OPERATIONS: Array<{
  id: Operation;
  label: string;
  run: "up" | "refresh" | "destroy";
  step: string;
}> = [
  { id: "up", label: "`up` (create everything)", run: "up", step: "create" },
  { id: "noop", label: "no-op `up`", run: "up", step: "same" },
  { id: "refresh", label: "`refresh`", run: "refresh", step: "refresh" },
  { id: "destroy", label: "`destroy`", run: "destroy", step: "delete" },
];

/** A Group's entry in the checkpoint at most this long (compact JSON). */
const GROUP_GOAL_BYTES = 1800;
/** This package's `up` of the largest size over the older package's, at most. */
const UP_GOAL_RATIO = 0.5;
/** This package's `up` over the do-nothing provider's, at most. */
const NOOP_GOAL_RATIO = 1.1;

interface SizeResult {
  ms: Record<Variant, Record<Operation, number[]>>;
  /** Compact JSON bytes of every resource of the stack after `up`, over their count. */
  bytesPerResource: Record<Variant, number>;
  /** One Group's entry, by variant (the first round's). */
  group: Partial<Record<Variant, Record<string, unknown>>>;
}

function emptySize(): SizeResult {
  const ops = () =>
    Object.fromEntries(OPERATIONS.map((op) => [op.id, [] as number[]])) as Record<
      Operation,
      number[]
    >;
  return {
    ms: { old: ops(), new: ops(), noop: ops() },
    bytesPerResource: { old: 0, new: 0, noop: 0 },
    group: {},
  };
}

async function builtInRoles(emu: EmulatorProcess): Promise<{ viewer: string; editor: string }> {
  const dispatcher = new Agent();
  try {
    const uidOf = async (name: string) =>
      (
        await bareOk<{ roles: Array<{ uid: string }> }>(
          dispatcher,
          "GET",
          `${emu.url}/iam/v2beta1/roles?name=${name}`,
          emu.token,
        )
      ).roles[0].uid;
    return { viewer: await uidOf("viewer"), editor: await uidOf("editor") };
  } finally {
    await dispatcher.close();
  }
}

function checkSteps(run: RealRun, step: string, size: number, label: string): void {
  const others = Object.entries(run.steps).filter(([op]) => op !== step);
  const refreshChanged = step === "refresh" && Object.keys(run.summary).some((op) => op !== "same");
  if (run.steps[step] !== size || others.length > 0 || refreshChanged) {
    throw new Error(
      `${label}: steps ${JSON.stringify(run.steps)}, summary ${JSON.stringify(run.summary)}, expected ${size} ${step}`,
    );
  }
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "");

/** Each field of a checkpoint entry and its bytes (key and separators included), largest first. */
function fieldBytes(entry: Record<string, unknown>): Array<[string, number]> {
  const fields: Array<[string, number]> = [];
  for (const [key, value] of Object.entries(entry)) {
    if ((key === "inputs" || key === "outputs") && value && typeof value === "object") {
      const { __provider, ...rest } = value as Record<string, unknown>;
      fields.push([`${key}.__provider`, __provider === undefined ? 0 : bytes(__provider) + 15]);
      fields.push([`${key} (the rest)`, bytes(key) + 1 + bytes(rest)]);
    } else {
      fields.push([key, bytes(key) + 2 + bytes(value)]);
    }
  }
  return fields.sort((a, b) => b[1] - a[1]);
}

async function run(context: SuiteContext): Promise<Section[]> {
  const engine = openRealEngine();
  if (!engine) {
    context.log("state: no Pulumi CLI found (npm run pulumi:install provides one): skipped");
    return [
      {
        id: SECTION_ID,
        title: TITLE,
        method:
          "**Skipped in this run: no Pulumi CLI was found.** This suite runs only on the real engine.",
        measurements: [],
        notes: [],
      },
    ];
  }
  const sizes = process.env.IRM_BENCH_STATE_SIZES
    ? process.env.IRM_BENCH_STATE_SIZES.split(",").map(Number)
    : context.pick([100, 300, 1_000], [20, 50]);
  if (sizes.length < 1 || sizes.some((size) => !Number.isInteger(size) || size < 3)) {
    throw new Error(
      "IRM_BENCH_STATE_SIZES: sizes in resources (at least 3), comma-separated, ascending",
    );
  }
  const rounds = Number(process.env.IRM_BENCH_STATE_ROUNDS ?? 1);
  const results = new Map(sizes.map((size) => [size, emptySize()]));
  const failures: string[] = [];
  const started = now();
  fs.cpSync(NOOP_RUNTIME_DIR, path.join(engine.base, "node_modules", "irm-noop-1"), {
    recursive: true,
  });
  context.log(`state: packing pulumi-irm as ${OLD_TEXT_RELEASE.slice(0, 7)} shipped it`);
  const oldDir = path.join(engine.base, "packages", "old");
  fs.mkdirSync(oldDir, { recursive: true });
  const tarball = packCommit(OLD_TEXT_RELEASE, oldDir);
  fs.mkdirSync(path.join(oldDir, "extract"));
  execFileSync("tar", ["-xzf", tarball, "-C", path.join(oldDir, "extract")]);
  const oldPackage = path.join(oldDir, "extract", "package");
  const emu = await startEmulatorProcess();
  try {
    const roles = await builtInRoles(emu);
    for (let round = 0; round < rounds; round++) {
      for (const size of sizes) {
        // Variants take turns (their order rotates by round and size): a change in the
        // machine's load weighs on all alike.
        const shift = (round + sizes.indexOf(size)) % VARIANTS.length;
        const order = [...VARIANTS.slice(shift), ...VARIANTS.slice(0, shift)];
        for (const variant of order) {
          const label = `round ${round + 1} of ${rounds}, ${size} resources, ${variant}`;
          context.log(`state: ${label}`);
          const result = results.get(size)!;
          let stack: RealBenchStack | undefined;
          try {
            stack = await engine.createStack({
              name: `state-${variant}-${size}`,
              programDir: PROGRAM_DIR,
              emulator: emu,
              projectConfig: {
                resources: String(size),
                provider: variant === "noop" ? "noop" : "irm",
                rootGroupUid: emu.rootGroupUid,
                roleUid: roles.viewer,
                editedRoleUid: roles.editor,
                edited: "0",
              },
            });
            if (variant === "old") installPackage(stack.dir, oldPackage, "npm");
            for (const operation of OPERATIONS) {
              const outcome = await stack.run(operation.run);
              checkSteps(outcome, operation.step, size, `${label}, ${operation.id}`);
              result.ms[variant][operation.id].push(outcome.ms);
              if (operation.id === "up") {
                const resources = await stack.exportResources();
                result.bytesPerResource[variant] =
                  resources.reduce((sum, r) => sum + bytes(r), 0) / resources.length;
                result.group[variant] ??= resources.find((r) => String(r.type).endsWith(":Group"));
              }
            }
          } catch (error) {
            failures.push(`${label}: ${(error as Error).message.slice(0, 2000)}`);
            context.log(`state: FAILED ${failures[failures.length - 1]}`);
            await stack?.run("destroy").catch(() => undefined);
          } finally {
            stack?.dispose();
          }
        }
      }
    }
  } finally {
    await emu.close();
    engine.close();
  }
  return [render(sizes, rounds, results, failures, (now() - started) / 1000)];
}

function render(
  sizes: number[],
  rounds: number,
  results: Map<number, SizeResult>,
  failures: string[],
  seconds: number,
): Section {
  const measurements: Measurement[] = [];
  const notes: string[] = [];
  const first = results.get(sizes[0])!;
  const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

  // A Group's entry, field by field.
  const newGroup = first.group.new;
  const oldGroup = first.group.old;
  if (newGroup) {
    const total = bytes(newGroup);
    measurements.push({
      id: "group-entry",
      label: "one Group's entry in a real checkpoint (compact JSON), this package",
      value: total,
      unit: "B",
      goal: `≤ ${GROUP_GOAL_BYTES} B`,
      met: total <= GROUP_GOAL_BYTES,
      detail: oldGroup ? `older package: ${bytes(oldGroup).toLocaleString("en-US")} B` : "",
    });
    const oldFields = new Map(oldGroup ? fieldBytes(oldGroup) : []);
    for (const [field, size] of fieldBytes(newGroup)) {
      measurements.push({
        id: `group-field-${field}`,
        label: `a Group's \`${field}\``,
        value: size,
        unit: "B",
        detail: oldFields.has(field) ? `older package: ${oldFields.get(field)} B` : "",
      });
    }
  }
  for (const size of sizes) {
    const result = results.get(size)!;
    for (const variant of VARIANTS) {
      if (result.bytesPerResource[variant] === 0) continue;
      measurements.push({
        id: `bytes-${variant}-${size}`,
        label: `state per resource, ${size.toLocaleString("en-US")} resources, ${VARIANT_LABEL[variant]}`,
        value: Math.round(result.bytesPerResource[variant]),
        unit: "B",
      });
    }
  }
  const largest = sizes[sizes.length - 1];
  for (const operation of OPERATIONS) {
    for (const size of sizes) {
      const ms = results.get(size)!.ms;
      if (ms.new[operation.id].length === 0) continue;
      const mine = median(ms.new[operation.id]);
      const detail = VARIANTS.filter((v) => ms[v][operation.id].length > 0)
        .map((v) => `${VARIANT_LABEL[v]} ${sec(median(ms[v][operation.id]))}`)
        .join("; ");
      if (ms.old[operation.id].length > 0) {
        const ratio = mine / median(ms.old[operation.id]);
        const goal = operation.id === "up" && size === largest;
        measurements.push({
          id: `${operation.id}-${size}-new-over-old`,
          label: `${operation.label}, ${size.toLocaleString("en-US")} resources: this package over the older one`,
          value: ratio,
          unit: "×",
          ratio,
          ...(goal ? { goal: `ratio ≤ ${UP_GOAL_RATIO}`, met: ratio <= UP_GOAL_RATIO } : {}),
          detail,
        });
      }
      if (ms.noop[operation.id].length > 0) {
        const ratio = mine / median(ms.noop[operation.id]);
        const goal = operation.id === "up";
        measurements.push({
          id: `${operation.id}-${size}-new-over-noop`,
          label: `${operation.label}, ${size.toLocaleString("en-US")} resources: this package over the do-nothing provider`,
          value: ratio,
          unit: "×",
          ratio,
          ...(goal ? { goal: `ratio ≤ ${NOOP_GOAL_RATIO}`, met: ratio <= NOOP_GOAL_RATIO } : {}),
          detail,
        });
      }
    }
    // Growth: the marginal time per resource over the upper span of sizes against the lower.
    if (sizes.length >= 3) {
      for (const variant of VARIANTS) {
        const point = (size: number) => median(results.get(size)!.ms[variant][operation.id]);
        if (sizes.some((size) => results.get(size)!.ms[variant][operation.id].length === 0))
          continue;
        const slope = (a: number, b: number) => (point(b) - point(a)) / (b - a);
        const lower = slope(sizes[0], sizes[1]);
        const upper = slope(sizes[sizes.length - 2], largest);
        measurements.push({
          id: `${operation.id}-growth-${variant}`,
          label: `${operation.label}: marginal time per resource, upper span over lower, ${VARIANT_LABEL[variant]}`,
          value: upper / lower,
          unit: "×",
          ratio: upper / lower,
          detail: `${lower.toFixed(2)} ms/resource from ${sizes[0]} to ${sizes[1]}, ${upper.toFixed(2)} ms/resource from ${sizes[sizes.length - 2]} to ${largest}`,
        });
      }
    }
  }
  if (failures.length > 0)
    notes.push(`Failed cycles (left out of the figures): ${failures.join(" | ")}`);
  if (newGroup) {
    const trace = fieldBytes(newGroup).find(([field]) => field === "stackTrace");
    if (trace) {
      const ours = (newGroup.stackTrace as Array<{ sourcePosition?: string }> | undefined) ?? [];
      const packageFrames = ours.filter((frame) =>
        frame.sourcePosition?.includes("/node_modules/pulumi-irm/"),
      ).length;
      notes.push(
        `The engine stores \`stackTrace\` (${trace[1]} B in this Group) and \`sourcePosition\` for every resource: the frames of \`new Error().stack\` taken in \`@pulumi/pulumi\`'s \`Resource\` constructor, less its own, \`CustomResource\`'s and the constructor that calls it, as the program registered the resource. Pulumi v3.248 has no setting that leaves them out. Frames of this package among them: ${packageFrames} (its classes construct through a bound \`pulumi.CustomResource\`, so the class's own constructor is the one skipped, and \`sourcePosition\` is the program's line).`,
      );
    }
  }
  return {
    id: SECTION_ID,
    title: TITLE,
    method: `The real engine (\`pulumi up|refresh|destroy --yes --skip-preview\`, one process each, timed from spawn to exit, \`file://\` backend) on \`bench/fixtures/org-real\` (teams of a group, its CI identity and the identity's binding). Each cycle is a fresh stack: \`up\`, a no-op \`up\`, \`refresh\`, \`destroy\`; after the \`up\` the stack is exported (\`pulumi stack export\`) and its resources measured as compact JSON. Variants, in turns at each size: ${VARIANTS.map((v) => VARIANT_LABEL[v]).join(", ")}. Sizes ${sizes.join(", ")}; ${rounds} round(s); ${Math.round(seconds)} s in all.`,
    measurements,
    notes,
  };
}

export const stateSuite: Suite = { name: "state", sectionIds: [SECTION_ID], run };
