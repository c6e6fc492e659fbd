/**
 * Benchmark results: the JSON kept for comparison across commits and the markdown
 * page (`docs/benchmarks.md`) rendered from it.
 */
import { round } from "./stats";

/** One figure, beside its floor or goal when it has one. */
export interface Measurement {
  /** Stable key within its section, so results of two commits can be compared. */
  id: string;
  label: string;
  value: number;
  unit: string;
  /** The least the API allows, in the same unit as `value`. */
  floor?: number;
  /** `value / floor`, or the ratio the goal is stated in. */
  ratio?: number;
  /** The goal in words (`ratio 1.0`, `< 2048 B`, `ratio < 2`). */
  goal?: string;
  /** Whether the goal is met; absent for figures that only inform. */
  met?: boolean;
  /** Spread, sample counts, or what the figure is made of. */
  detail?: string;
}

export interface Section {
  id: string;
  title: string;
  /**
   * The run that measured this section. A full run stamps every section with itself;
   * `--only <suites> --record` puts sections of a later run beside those of an earlier
   * one, and the page then says per section when it was measured. Absent in older
   * results (their sections were all measured by the run the file describes).
   */
  run?: SectionRun;
  /** How the figures were measured. */
  method: string;
  measurements: Measurement[];
  /** Findings: causes of misses, why a floor cannot be reached. */
  notes: string[];
}

/** The machine a run was measured on. */
export interface Machine {
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
}

/** What identifies a run and the conditions it was measured in. */
export interface RunInfo {
  commit: string;
  shortCommit: string;
  /** Tracked files the figures depend on that had uncommitted changes (empty: none). */
  uncommitted: string[];
  startedAt: string;
  durationSeconds: number;
  quick: boolean;
  machine: Machine;
  /**
   * The machine's load averages (1, 5 and 15 minutes) when the run started and when it
   * ended: how busy the shared machine was besides the benchmark. Absent in older results.
   */
  load?: { start: number[]; end: number[] };
  /** The suites the run was limited to (`--only`); absent for a run of every suite. */
  only?: string[];
}

/** The run a section comes from, and the suite that wrote it (unknown for some older results). */
export interface SectionRun extends RunInfo {
  suite?: string;
}

/**
 * A run's figures. The top-level fields describe the run the file was written by; a file
 * that recorded a later partial run (`--record`) keeps its earlier run's fields there,
 * and each section's `run` says where its own figures come from.
 */
export interface BenchResults extends RunInfo {
  sections: Section[];
}

/** A measurement against a floor: ratio value/floor, goal `ratio 1.0`. */
export function againstFloor(
  id: string,
  label: string,
  value: number,
  floor: number,
  unit: string,
  detail?: string,
): Measurement {
  const ratio = floor === 0 ? (value === 0 ? 1 : Number.POSITIVE_INFINITY) : value / floor;
  return { id, label, value, unit, floor, ratio, goal: "ratio 1.0", met: value <= floor, detail };
}

function formatNumber(value: number | undefined): string {
  if (value === undefined) return "";
  if (!Number.isFinite(value)) return "∞";
  return round(value).toLocaleString("en-US", { maximumFractionDigits: 3 });
}

function metCell(met: boolean | undefined): string {
  if (met === undefined) return "";
  return met ? "yes" : "**no**";
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function formatWhen(startedAt: string): string {
  return startedAt.replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

function formatLoad(values: number[]): string {
  return values.map((v) => v.toFixed(2)).join(", ");
}

/** `commit \`abc1234\`` plus the uncommitted files the figures depend on, if any. */
function formatCommit(run: RunInfo): string {
  return (
    `commit \`${run.shortCommit}\`` +
    (run.uncommitted.length > 0
      ? ` plus uncommitted changes to ${run.uncommitted.map((file) => `\`${file}\``).join(", ")}`
      : "")
  );
}

/** `full run`, `quick run`, or the suites an `--only` run was limited to. */
function formatScope(run: RunInfo): string {
  if (run.quick) return "**quick run** (fewer repetitions and sizes)";
  if (run.only)
    return `run of ${run.only.map((name) => `\`${name}\``).join(", ")} only (\`--only\`)`;
  return "full run";
}

function formatMachine(machine: Machine): string {
  return (
    `Node ${machine.node}, ${machine.platform}, ${machine.cpus} CPU (${machine.cpuModel}), ` +
    `${machine.memoryGiB} GiB`
  );
}

/**
 * Whether a section's figures come from another run than the one the file describes
 * (a later `--only ... --record`). Sections without a run came from the file's own run.
 */
export function measuredApart(results: RunInfo, section: Section): boolean {
  const run = section.run;
  return (
    run !== undefined && (run.commit !== results.commit || run.startedAt !== results.startedAt)
  );
}

/** The line under a section's title that says which run measured it, when not the page's. */
export function sectionRunLine(results: RunInfo, section: Section): string | undefined {
  const run = section.run;
  if (!run || !measuredApart(results, section)) return undefined;
  const machine =
    formatMachine(run.machine) === formatMachine(results.machine)
      ? ""
      : `; machine: ${formatMachine(run.machine)}`;
  const load = run.load
    ? `; load average (1, 5, 15 min; ${run.machine.cpus} CPU) ${formatLoad(run.load.start)} when it started, ` +
      `${formatLoad(run.load.end)} when it ended`
    : "; load average not recorded";
  return (
    `_Measured by another run than the one above: ${formatWhen(run.startedAt)}, ${formatCommit(run)}, ` +
    `${formatScope(run)}, ${Math.round(run.durationSeconds)} s${load}${machine}._`
  );
}

export function renderMarkdown(results: BenchResults): string {
  const lines: string[] = [];
  const apart = results.sections.filter((section) => measuredApart(results, section));
  const files = results.quick
    ? "`bench/results/quick.json`"
    : results.only
      ? "`bench/results/partial.json`"
      : apart.length > 0
        ? `\`bench/results/latest.json\` (\`bench/results/${results.shortCommit}.json\` keeps the run described ` +
          "below as it measured every section)"
        : `\`bench/results/latest.json\` and \`bench/results/${results.shortCommit}.json\``;
  lines.push("# Benchmarks");
  lines.push("");
  lines.push(
    "What users pay for each operation of `pulumi-irm`, and how it grows, each figure beside",
    "the floor the API allows or the project's goal for it. Generated by `npm run bench`",
    "(`bench/run.ts`); do not edit by hand. The same figures are in",
    `${files}.`,
  );
  lines.push("");
  lines.push(
    `- Run: ${formatWhen(results.startedAt)}, ${formatCommit(results)}, ${formatScope(results)}, ` +
      `${Math.round(results.durationSeconds)} s.`,
  );
  lines.push(
    `- Machine: ${formatMachine(results.machine)}; ` +
      "shared with other work, so timings carry noise: medians of several runs, and every ratio " +
      "compares figures measured in the same run.",
  );
  if (results.load) {
    lines.push(
      `- Load average (1, 5, 15 min; ${results.machine.cpus} CPU): ${formatLoad(results.load.start)} when the run ` +
        `started, ${formatLoad(results.load.end)} when it ended (the benchmark's own processes included).`,
    );
  }
  if (apart.length > 0) {
    lines.push(
      `- Recorded later by \`--only ... --record\`: ${apart.map((section) => section.title).join("; ")}. ` +
        "Each says under its title which run measured it (time, commit, load); its figures are from that " +
        "run, not the one above, and ratios compare figures of one run only.",
    );
  }
  lines.push("");

  const goals = results.sections.flatMap((section) =>
    section.measurements
      .filter((m) => m.met !== undefined)
      .map((m) => ({ section, measurement: m })),
  );
  const missed = goals.filter((g) => g.measurement.met === false);
  lines.push("## Summary");
  lines.push("");
  lines.push(
    `${goals.length - missed.length} of ${goals.length} figures with a floor or goal meet it.` +
      (missed.length > 0
        ? " Misses (each explained in its section):"
        : " No figure misses its goal."),
  );
  if (missed.length > 0) {
    lines.push("");
    for (const { section, measurement } of missed) {
      lines.push(
        `- ${section.title}: ${measurement.label} — ${formatNumber(measurement.value)} ${measurement.unit}` +
          (measurement.ratio !== undefined ? ` (ratio ${formatNumber(measurement.ratio)})` : "") +
          (measurement.goal ? `, goal ${measurement.goal}` : ""),
      );
    }
  }
  lines.push("");

  for (const section of results.sections) {
    lines.push(`## ${section.title}`);
    lines.push("");
    const runLine = sectionRunLine(results, section);
    if (runLine) lines.push(runLine, "");
    lines.push(section.method);
    lines.push("");
    lines.push("| measurement | measured | floor | ratio | goal | met | detail |");
    lines.push("| --- | ---: | ---: | ---: | --- | --- | --- |");
    for (const m of section.measurements) {
      lines.push(
        `| ${escapeCell(m.label)} | ${formatNumber(m.value)} ${m.unit} | ` +
          `${m.floor === undefined ? "" : `${formatNumber(m.floor)} ${m.unit}`} | ` +
          `${formatNumber(m.ratio)} | ${escapeCell(m.goal ?? "")} | ${metCell(m.met)} | ` +
          `${escapeCell(m.detail ?? "")} |`,
      );
    }
    lines.push("");
    if (section.notes.length > 0) {
      for (const note of section.notes) lines.push(`- ${note}`);
      lines.push("");
    }
  }
  lines.push("## Running the benchmarks");
  lines.push("");
  lines.push(
    "- `npm run bench` builds the package, runs every suite and rewrites this page, `bench/results/latest.json`",
    "  and `bench/results/<short sha>.json`. Commit the three together. The lifecycle suite runs on the real",
    "  Pulumi engine (the CLI of `npm run pulumi:install`; without one it is skipped and says so) and takes most",
    "  of the time (its state writes grow with the square of the stack's size; see section 4).",
    "  `IRM_BENCH_LIFECYCLE_ROUNDS` (default 2) and `IRM_BENCH_SERIAL_ROUNDS` (default 1) set its rounds,",
    "  `IRM_BENCH_SERIAL_MAX` the largest size run with `parallel: 1`, `IRM_BENCH_LIFECYCLE_BUDGET_S` a time after",
    "  which it starts no new cycle (the page lists what it skipped).",
    "- The state suite (section 4e) packs the package of the last release with the 2 KB provider text from its",
    "  commit and runs it, this package and the do-nothing provider in turns at 100, 300 and 1,000 resources:",
    "  `npm run bench -- --only state --record` (about an hour on a quiet machine; `IRM_BENCH_STATE_SIZES`",
    "  and `IRM_BENCH_STATE_ROUNDS` set its sizes and rounds).",
    "- The routes suite runs one organisation through every face of the package (`bench/lib/faces.ts`) in",
    "  interleaved rounds: `IRM_BENCH_ROUTES_SIZES=100,400 npm run bench -- --only routes --record`",
    "  (`IRM_BENCH_ROUTES_ROUNDS`, default 3, sets the rounds).",
    "- `npm run bench -- --quick` is a smoke run (fewer repetitions and sizes): it prints the page and",
    "  writes `bench/results/quick.json` only. `--only operations,lifecycle,state,sdk-listing,emulator,grpc,export,routes` runs",
    "  some suites and writes `bench/results/partial.json` only. Neither replaces the figures of record.",
    "- `npm run bench -- --only <suites> --record` also puts those suites' sections, as this run measured them,",
    "  in place of theirs in `bench/results/latest.json` and rewrites this page from it: the other sections",
    "  keep the run that measured them. Every section carries its run (commit, time, machine, load), and the",
    "  page names the run under the title of each section not measured by the run at the top.",
    "- `node --import tsx bench/compare.ts bench/results/<old sha>.json` compares a commit's figures with",
    "  the latest ones.",
    "- Benchmarks are not tests: they never run under `npm test`, and nothing here is asserted in CI.",
  );
  lines.push("");
  return `${lines.join("\n").trimEnd()}\n`;
}
