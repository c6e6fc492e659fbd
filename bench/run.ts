/**
 * `npm run bench [-- --quick] [-- --only a,b [--record]]`: measures what users pay for
 * each operation and how it grows, writes `docs/benchmarks.md` and the JSON
 * results (`bench/results/latest.json` and `bench/results/<short sha>.json`).
 *
 * Kept out of the test suite: timings on a shared machine are noisy, so figures are
 * medians of several runs and ratios compare figures taken in the same run.
 * `--quick` is a smoke run with fewer repetitions and sizes; it writes its results
 * under `bench/results/quick.json` only, so the committed page always comes from
 * full-length runs. `--only` runs some suites and writes `bench/results/partial.json`;
 * with `--record` their sections also replace those suites' sections in
 * `bench/results/latest.json` and the page is rendered again from it, each section
 * naming the run that measured it (`lib/record.ts`).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { recordPartialRun, stampSections } from "./lib/record";
import { type BenchResults, type RunInfo, renderMarkdown, type Section } from "./lib/report";
import type { SuiteContext } from "./lib/suite";
import { SUITES, suiteOfSection } from "./suites/index";

const REPO_ROOT = path.resolve(__dirname, "..");
const RESULTS_DIR = path.join(REPO_ROOT, "bench", "results");
const DOC_FILE = path.join(REPO_ROOT, "docs", "benchmarks.md");
/** What the figures depend on; uncommitted changes here mark the results as not from the commit. */
const MEASURED_PATHS = [
  "sdk",
  "provider",
  "emulator",
  "exporter",
  "bench",
  "harness",
  "examples",
  "package.json",
  "package-lock.json",
];

function git(...args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  } catch {
    return "";
  }
}

/** Tracked files under MEASURED_PATHS with uncommitted changes (`git status --porcelain`). */
function uncommittedFiles(): string[] {
  let status: string;
  try {
    status = execFileSync(
      "git",
      // The results themselves are rewritten by every run and are no input to it.
      [
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ...MEASURED_PATHS,
        ":(exclude)bench/results",
      ],
      { cwd: REPO_ROOT, encoding: "utf8" },
    );
  } catch {
    return [];
  }
  // Each line is two status letters, a space, then the path.
  return status
    .split("\n")
    .filter((line) => line.length > 3)
    .map((line) => line.slice(3));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      only: { type: "string" },
      record: { type: "boolean", default: false },
    },
    strict: true,
  });
  const quick = values.quick ?? false;
  const record = values.record ?? false;
  // Refused before anything runs: a run of an hour must not end in a usage error.
  if (record && (quick || values.only === undefined)) {
    throw new Error(
      "--record takes --only <suites> and no --quick: a full run always records, a quick one never",
    );
  }
  const only = values.only?.split(",").map((name) => name.trim());
  const unknown = only?.filter((name) => !SUITES.some((suite) => suite.name === name)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `unknown suite(s) ${unknown.join(", ")}; known: ${SUITES.map((s) => s.name).join(", ")}`,
    );
  }
  const selected = SUITES.filter((suite) => !only || only.includes(suite.name));

  const startedAt = new Date();
  const loadAtStart = os.loadavg();
  const context: SuiteContext = {
    quick,
    log: (message) => process.stderr.write(`[bench ${new Date().toISOString()}] ${message}\n`),
    pick: (full, short) => (quick ? short : full),
  };
  const bySuite: Array<{ suite: string; sections: Section[] }> = [];
  for (const suite of selected) {
    const suiteStart = Date.now();
    context.log(`suite ${suite.name}: start`);
    bySuite.push({ suite: suite.name, sections: await suite.run(context) });
    context.log(`suite ${suite.name}: done in ${((Date.now() - suiteStart) / 1000).toFixed(1)} s`);
  }

  const commit = git("rev-parse", "HEAD") || "unknown";
  const info: RunInfo = {
    commit,
    shortCommit: commit.slice(0, 7),
    // Only the code the figures depend on: other work in progress elsewhere does not count.
    uncommitted: uncommittedFiles(),
    startedAt: startedAt.toISOString(),
    durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
    quick,
    machine: {
      node: process.versions.node,
      platform: `${os.platform()} ${os.arch()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? "unknown",
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    },
    load: { start: loadAtStart, end: os.loadavg() },
    ...(only ? { only: selected.map((suite) => suite.name) } : {}),
  };
  const results: BenchResults = {
    ...info,
    sections: bySuite.flatMap(({ suite, sections }) => stampSections(info, suite, sections)),
  };

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const json = (value: BenchResults) => `${JSON.stringify(value, null, 2)}\n`;
  const partial = only !== undefined;
  if (quick || partial) {
    // Smoke runs and partial runs replace the figures of record only when asked to.
    const file = path.join(RESULTS_DIR, quick ? "quick.json" : "partial.json");
    fs.writeFileSync(file, json(results));
    if (!record) {
      process.stdout.write(renderMarkdown(results));
      context.log(`wrote ${path.relative(REPO_ROOT, file)} (docs/benchmarks.md left as it was)`);
      return;
    }
    const latestFile = path.join(RESULTS_DIR, "latest.json");
    const base = fs.existsSync(latestFile)
      ? (JSON.parse(fs.readFileSync(latestFile, "utf8")) as BenchResults)
      : undefined;
    const merged = recordPartialRun(base, results, {
      suiteOrder: SUITES.map((suite) => suite.name),
      suiteOf: (sectionId) => suiteOfSection(sectionId),
    });
    fs.writeFileSync(latestFile, json(merged));
    fs.writeFileSync(DOC_FILE, renderMarkdown(merged));
    context.log(
      `wrote ${path.relative(REPO_ROOT, file)}, and recorded ${info.only?.join(", ")} into ` +
        "bench/results/latest.json and docs/benchmarks.md",
    );
    return;
  }
  fs.writeFileSync(path.join(RESULTS_DIR, "latest.json"), json(results));
  fs.writeFileSync(path.join(RESULTS_DIR, `${results.shortCommit}.json`), json(results));
  fs.writeFileSync(DOC_FILE, renderMarkdown(results));
  context.log(
    `wrote docs/benchmarks.md, bench/results/latest.json and bench/results/${results.shortCommit}.json`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
