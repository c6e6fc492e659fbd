/**
 * Issue 37's preview figure: the org-hierarchy example (13 resources and the stack, on a fresh stack)
 * previewed through each face in the same run: the dynamic face from TypeScript
 * (`examples/org-hierarchy`, its recommended setup), the native plugin from YAML
 * (`examples/org-hierarchy-yaml`) and from Python (`examples/org-hierarchy-python`, the
 * Automation API's inline program as `harness/python/` runs it). Faces interleave in each
 * round; the figure is the median wall time of a `preview`, against the issue's goals
 * (YAML under 2 s, Python under 4 s on 2 cores).
 *
 * `IRM_BENCH_EXAMPLE_PREVIEW_ROUNDS` (default 5, quick 2) bounds the run.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { LogEntry } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";
import type { PythonStack } from "../../harness/python/python-stack";
import { describeRequest, lookupsApart } from "../../harness/request-names";
import { type EmulatorProcess, startEmulatorProcess } from "../lib/emulator-process";
import {
  createPythonBenchStack,
  noCliSection,
  openRealEngine,
  type RealBenchStack,
} from "../lib/real-engine";
import type { Measurement, Section } from "../lib/report";
import { median, now } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

const EXAMPLES = path.join(REPO_ROOT, "examples");
const TITLE = "8. The org-hierarchy example's preview, per face";

/** One preview: its wall seconds and its requests, the lookups' apart from the resources'. */
interface PreviewRun {
  seconds: number;
  lookups: string[];
  resources: string[];
}

interface PreviewFace {
  id: string;
  label: string;
  /** Median wall goal, seconds (issue 37), when it has one. */
  goal?: number;
  preview(): Promise<PreviewRun>;
  dispose(): Promise<void>;
}

/** The emulator's log of one preview, described and split (`lookupsApart`). */
function splitRequests(entries: LogEntry[]): { lookups: string[]; resources: string[] } {
  return lookupsApart(entries.map((entry) => describeRequest(entry, new Map())));
}

/** A CLI face (dynamic TypeScript, native YAML): one stack, timed `pulumi preview`s. */
function cliFace(id: string, label: string, stack: RealBenchStack, goal?: number): PreviewFace {
  return {
    id,
    label,
    goal,
    async preview() {
      const run = await stack.run("preview");
      if ((run.steps.create ?? 0) !== 13) {
        throw new Error(`${id}: preview steps ${JSON.stringify(run.steps)}`);
      }
      return { seconds: run.ms / 1000, ...splitRequests(run.requests) };
    },
    async dispose() {
      stack.dispose();
    },
  };
}

function pythonFace(stack: PythonStack, emu: EmulatorProcess): PreviewFace {
  return {
    id: "native-python",
    label: "native plugin, Python (Automation API inline program)",
    goal: 4,
    async preview() {
      await emu.clearRequests();
      const start = now();
      const answer = await stack.step("preview");
      const seconds = (now() - start) / 1000;
      // The Automation API's summary counts the stack too.
      if (!answer.ok || (answer.changes?.create ?? 0) !== 14) {
        throw new Error(`native-python: preview ${answer.error ?? JSON.stringify(answer.changes)}`);
      }
      return { seconds, ...splitRequests(await emu.requests()) };
    },
    dispose: () => stack.dispose(),
  };
}

async function run(context: SuiteContext): Promise<Section[]> {
  const engine = openRealEngine();
  if (!engine) return noCliSection(context, "example-preview", TITLE);
  const rounds = Number(process.env.IRM_BENCH_EXAMPLE_PREVIEW_ROUNDS ?? context.pick(5, 2));
  const emu: EmulatorProcess = await startEmulatorProcess();
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-example-ts-node-"));
  const faces: PreviewFace[] = [];
  const runs = new Map<string, PreviewRun[]>();
  try {
    const config = { rootGroupUid: emu.rootGroupUid };
    const dynamic = await engine.createStack({
      name: "example-dynamic",
      programDir: path.join(EXAMPLES, "org-hierarchy"),
      emulator: emu,
      projectConfig: config,
      env: { PULUMI_NODEJS_TRANSPILE_ONLY: undefined, TS_NODE_CACHE_DIRECTORY: cacheDir },
    });
    faces.push(cliFace("dynamic-typescript", "dynamic, TypeScript (the example's setup)", dynamic));
    const yaml = await engine.createStack({
      name: "example-yaml",
      programDir: path.join(EXAMPLES, "org-hierarchy-yaml"),
      emulator: emu,
      projectConfig: config,
      // The example names the plugin as a user's project does; here the installed base's.
      prepare: (dir) => {
        const file = path.join(dir, "Pulumi.yaml");
        const text = fs.readFileSync(file, "utf8");
        const moved = text.replace(
          "path: ./node_modules/pulumi-irm/plugin",
          "path: ../node_modules/pulumi-irm/plugin",
        );
        if (moved === text)
          throw new Error("example-preview: the YAML example names no plugin path");
        fs.writeFileSync(file, moved);
      },
    });
    faces.push(cliFace("native-yaml", "native plugin, YAML", yaml, 2));
    const python = await createPythonBenchStack(engine, emu, {
      name: "org-hierarchy-python",
      programDir: path.join(EXAMPLES, "org-hierarchy-python"),
      config,
    });
    faces.push(pythonFace(python, emu));
    for (let round = 1; round <= rounds; round++) {
      for (const face of faces) {
        context.log(`example-preview: round ${round}/${rounds}, ${face.id}`);
        const list = runs.get(face.id) ?? [];
        list.push(await face.preview());
        runs.set(face.id, list);
      }
    }
  } finally {
    for (const face of faces) await face.dispose().catch(() => undefined);
    await emu.close();
    engine.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
  const measurements: Measurement[] = faces.flatMap((face) => {
    const list = runs.get(face.id) ?? [];
    const seconds = list.map((run) => run.seconds);
    const value = median(seconds);
    const last = list[list.length - 1];
    const resources = median(list.map((run) => run.resources.length));
    return [
      {
        id: `example-preview-${face.id}`,
        label: `${face.label}: preview of the org-hierarchy example (13 creates)`,
        value,
        unit: "s",
        ...(face.goal === undefined ? {} : { goal: `< ${face.goal} s`, met: value < face.goal }),
        detail: `median of ${seconds.length} (${seconds.map((s) => s.toFixed(1)).join(", ")} s)`,
      },
      {
        id: `example-preview-${face.id}-resource-requests`,
        label: `${face.label}: requests of the resources in a preview (the lookups' apart)`,
        value: resources,
        unit: "requests",
        goal: "0",
        met: resources === 0,
        detail: last
          ? `resources: ${last.resources.join(", ") || "none"}; the program's ${last.lookups.length} lookups: ${last.lookups.join(", ")}`
          : "no run",
      },
    ];
  });
  return [
    {
      id: "example-preview",
      title: TITLE,
      method: `The org-hierarchy example (13 resources and the stack, 4 lookups) on a fresh stack, previewed ${rounds} time(s) per face in interleaved rounds on the real engine (CLI ${engine.cli.version}, file backend): the dynamic face from TypeScript (\`examples/org-hierarchy\`, transpile only as the example sets up), the native plugin from YAML (\`pulumi preview\`) and from Python (the Automation API's \`preview\` of an inline program in a running driver, \`harness/python/\`: no Python start-up per preview). Wall time from the command's start to its end; the goals are issue 37's. Requests come from the emulator's log of each preview: the program's lookups (Lists, what the program asks for) apart from the resources' (their checks' reads by uid).`,
      measurements,
      notes: [
        "Wall time on a shared machine carries the load of other work; compare faces of the same run.",
      ],
    },
  ];
}

export const examplePreviewSuite: Suite = {
  name: "example-preview",
  sectionIds: ["example-preview"],
  run,
};
