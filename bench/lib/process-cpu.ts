/**
 * CPU of a command's whole process tree (Linux `/proc`), and its share by kind of process.
 *
 * The command runs under `sh -c`, which waits for it and then prints its own
 * `/proc/<pid>/stat`: the `cutime` and `cstime` fields there are the user and system CPU
 * of every descendant that was waited for (the CLI waits for its plugins and language
 * host, the language host for the program), so the total is exact. The share by kind
 * comes from sampling the tree every `SAMPLE_MS`: each process's last sampled CPU,
 * grouped by what its command line says it is. A process's CPU after its last sample is
 * missed there and counted as `unsampled` (total minus the kinds), so the kinds never
 * add up to more than the total.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";

/** What a process of a run is, from its command line. */
export type ProcessKind =
  | "cli"
  | "language host"
  | "program"
  | "provider host"
  | "plugin"
  | "other";

export interface TreeCpu {
  /** User + system CPU of the whole tree, seconds (exact, from the waiting shell). */
  totalSeconds: number;
  /** Sampled CPU by kind, seconds; `unsampled` is the rest of the total. */
  byKind: Record<ProcessKind | "unsampled", number>;
}

export interface TreeRun {
  code: number;
  /** The tail of stdout and stderr, for error messages. */
  output: string;
  cpu: TreeCpu;
}

const SAMPLE_MS = 100;
/** Clock ticks per second of `/proc/<pid>/stat` times (`getconf CLK_TCK`: 100 on Linux). */
const TICKS = 100;
/** Printed by the wrapping shell after the command; never output of the command itself. */
const MARK = "__irm_bench_tree_cpu__";

/**
 * Which kind of process a command line is: `plugin` is the package's native provider
 * plugin (`pulumi-resource-irm`, run by node), `provider host` the dynamic provider's
 * host (and any other provider plugin); a YAML language host is a `language host`.
 */
export function kindOf(cmdline: string): ProcessKind {
  if (/pulumi-resource-irm(\0|\s|$)/.test(cmdline)) return "plugin";
  if (/dynamic-provider|pulumi-resource-/.test(cmdline)) return "provider host";
  if (/pulumi-language-|language-host\.cjs/.test(cmdline)) return "language host";
  // `.../@pulumi/pulumi/cmd/run`, as a folder or its `index.js`; arguments end in NUL.
  if (/[/\\]cmd[/\\]run(\0|\s|$|[/\\])/.test(cmdline)) return "program";
  const argv0 = cmdline.split("\0")[0] ?? "";
  if (/(^|\/)pulumi$/.test(argv0)) return "cli";
  return "other";
}

interface StatLine {
  ppid: number;
  cpuTicks: number;
  childTicks: number;
}

/** Fields of `/proc/<pid>/stat` after the command name (which may hold spaces). */
function readStat(pid: number): StatLine | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  return parseStat(text);
}

function parseStat(text: string): StatLine | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  // After ") ": state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17).
  const fields = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const at = (n: number) => Number(fields[n - 3]);
  return { ppid: at(4), cpuTicks: at(14) + at(15), childTicks: at(16) + at(17) };
}

function readCmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "");
  } catch {
    return "";
  }
}

/** Every live descendant of `root` with its CPU so far, in ticks. */
function sampleTree(root: number): Map<number, number> {
  const parents = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) parents.set(Number(entry), { ppid: stat.ppid, ticks: stat.cpuTicks });
  }
  const inTree = new Map<number, number>();
  const isDescendant = (pid: number): boolean => {
    let current: number | undefined = pid;
    for (let depth = 0; current !== undefined && depth < 64; depth++) {
      if (current === root) return true;
      current = parents.get(current)?.ppid;
    }
    return false;
  };
  for (const [pid, { ticks }] of parents) {
    if (pid !== root && isDescendant(pid)) inTree.set(pid, ticks);
  }
  return inTree;
}

function emptyKinds(): TreeCpu["byKind"] {
  return {
    cli: 0,
    "language host": 0,
    program: 0,
    "provider host": 0,
    plugin: 0,
    other: 0,
    unsampled: 0,
  };
}

/**
 * Samples the descendants of the process `root()` names every `SAMPLE_MS` until
 * `stop()`, which answers each one's last sampled CPU, in seconds, by kind (`unsampled`
 * left 0 for the caller, who knows the total).
 */
export function sampleKinds(root: () => number | undefined): { stop(): TreeCpu["byKind"] } {
  const last = new Map<number, { ticks: number; kind: ProcessKind }>();
  const sample = () => {
    const pid = root();
    if (pid === undefined) return;
    for (const [child, ticks] of sampleTree(pid)) {
      const known = last.get(child);
      if (known) known.ticks = ticks;
      else last.set(child, { ticks, kind: kindOf(readCmdline(child)) });
    }
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      const byKind = emptyKinds();
      for (const { ticks, kind } of last.values()) byKind[kind] += ticks / TICKS;
      return byKind;
    },
  };
}

/**
 * CPU a live process has spent (user + system, seconds): `own`, and `tree` with its
 * waited-for descendants'. The difference of two readings of `tree` is the CPU of its
 * tree between them, when every descendant started in between was waited for.
 */
export function processSeconds(pid: number): { own: number; tree: number } {
  const stat = readStat(pid);
  if (!stat) throw new Error(`no process ${pid}`);
  return { own: stat.cpuTicks / TICKS, tree: (stat.cpuTicks + stat.childTicks) / TICKS };
}

/** Runs `command args` in `cwd` with `env`, and measures the CPU of its process tree. */
export function runMeasuringTree(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<TreeRun> {
  return new Promise((resolve, reject) => {
    // `"$0" "$@"` runs the command exactly as given; the shell's own stat comes after it.
    const script = `"$0" "$@"; rc=$?; echo; echo ${MARK}; cat /proc/$$/stat; exit $rc`;
    const child = spawn("sh", ["-c", script, command, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let tail = "";
    const keep = (chunk: string) => {
      tail = (tail + chunk).slice(-20_000);
    };
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      // Only the end is needed: the shell's line comes last.
      stdout = (stdout + chunk).slice(-4_000);
      keep(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", keep);
    const sampler = sampleKinds(() => child.pid);
    const timer = setTimeout(() => child.kill("SIGTERM"), options.timeoutMs);
    child.once("error", (error) => {
      sampler.stop();
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      const byKind = sampler.stop();
      clearTimeout(timer);
      const statText = stdout.slice(stdout.lastIndexOf(MARK) + MARK.length).trim();
      const stat = stdout.includes(MARK) ? parseStat(statText) : undefined;
      const totalSeconds = (stat?.childTicks ?? 0) / TICKS;
      const sampled = Object.values(byKind).reduce((sum, value) => sum + value, 0);
      byKind.unsampled = Math.max(0, totalSeconds - sampled);
      resolve({
        code: code ?? (signal ? 128 : 1),
        output: tail,
        cpu: { totalSeconds, byKind },
      });
    });
  });
}
