/**
 * Figures of the reliability scenarios: what was injected, how many operations ran,
 * what was lost. Each scenario writes one JSON file; `render-doc.ts` turns the files of
 * one run into `docs/reliability.md`, so the numbers there come from a real run.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { LogEntry } from "../../../harness/emulator";
import { REPO_ROOT, SCRATCH_ROOT } from "../../../harness/installed-package";

/** Where a run's figures go; `RELIABILITY_FIGURES_DIR` overrides it. */
export const FIGURES_DIR =
  process.env.RELIABILITY_FIGURES_DIR ?? path.join(SCRATCH_ROOT, "reliability-figures");

export interface ScenarioFigures {
  /** Stable key, also the file name. */
  id: string;
  /** One line naming the scenario. */
  title: string;
  /** What was injected, in words (rates, counts, sizes). */
  injected: string;
  /** Operations the clients asked for (creates, updates, deletes, reads, steps). */
  operations: number;
  /** HTTP requests the emulator saw (from its request log), when that is meaningful. */
  requests?: number;
  /** Requests per outcome, e.g. `{ "200": 310, "503": 61, "dropped": 4 }`. */
  byStatus?: Record<string, number>;
  /** Objects the clients were told exist but the service does not have (must be 0). */
  lost: number;
  /** Objects present more than once (must be 0). */
  duplicates: number;
  /** The engine the deployment ran on (`engineLabel`); absent for SDK-only scenarios. */
  engine?: string;
  /** Anything else worth recording (retries seen, waits honoured, ...). */
  notes?: Record<string, number | string>;
  /** Wall time of the scenario, for the record (never asserted). */
  durationMs: number;
}

/** The commit the run tested, marked `+changes` when the work tree differed from it. */
function testedCommit(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
    const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? "+changes" : ""}`;
  } catch {
    return "unknown";
  }
}

/** Writes one scenario's figures; a later run of the same scenario replaces them. */
export function recordFigures(figures: ScenarioFigures): void {
  fs.mkdirSync(FIGURES_DIR, { recursive: true });
  const recorded = { ...figures, recordedAt: new Date().toISOString(), commit: testedCommit() };
  fs.writeFileSync(
    path.join(FIGURES_DIR, `${figures.id}.json`),
    `${JSON.stringify(recorded, null, 2)}\n`,
  );
}

/** Counts request-log entries per status; a dropped connection (status 0) is `dropped`. */
export function countByStatus(entries: LogEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of entries) {
    const key = entry.status === 0 ? "dropped" : String(entry.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
