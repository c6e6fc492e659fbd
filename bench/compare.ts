/**
 * Compares two benchmark result files figure by figure:
 *
 *   node --import tsx bench/compare.ts bench/results/<old>.json [bench/results/latest.json]
 *
 * Prints a markdown table of every figure present in both, with the change, and
 * lists figures that appear in only one of them. Timings on a shared machine move
 * by tens of percent between runs; request counts and sizes do not.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { BenchResults, Measurement } from "./lib/report";
import { round } from "./lib/stats";

function load(file: string): BenchResults {
  return JSON.parse(fs.readFileSync(file, "utf8")) as BenchResults;
}

function figures(results: BenchResults): Map<string, Measurement> {
  const byKey = new Map<string, Measurement>();
  for (const section of results.sections) {
    for (const measurement of section.measurements) {
      byKey.set(`${section.id}.${measurement.id}`, measurement);
    }
  }
  return byKey;
}

function change(before: number, after: number): string {
  if (before === after) return "=";
  if (before === 0) return "new non-zero";
  const percent = ((after - before) / Math.abs(before)) * 100;
  return `${percent > 0 ? "+" : ""}${round(percent, 1)}%`;
}

function main(): void {
  const [oldFile, newFile = path.join(__dirname, "results", "latest.json")] = process.argv.slice(2);
  if (!oldFile) {
    process.stderr.write("usage: node --import tsx bench/compare.ts OLD.json [NEW.json]\n");
    process.exit(2);
  }
  const before = load(oldFile);
  const after = load(newFile);
  const oldFigures = figures(before);
  const newFigures = figures(after);
  const lines = [
    `Comparing \`${before.shortCommit}\` (${before.startedAt}) with \`${after.shortCommit}\` (${after.startedAt})`,
    "",
    "| figure | before | after | change | goal met before → after |",
    "| --- | ---: | ---: | ---: | --- |",
  ];
  for (const [key, next] of newFigures) {
    const previous = oldFigures.get(key);
    if (!previous) continue;
    const met = (m: Measurement) => (m.met === undefined ? "" : m.met ? "yes" : "no");
    lines.push(
      `| ${next.label} | ${round(previous.value)} ${previous.unit} | ${round(next.value)} ${next.unit} | ` +
        `${change(previous.value, next.value)} | ${met(previous)}${previous.met === undefined ? "" : " → "}${met(next)} |`,
    );
  }
  const added = [...newFigures.keys()].filter((key) => !oldFigures.has(key));
  const removed = [...oldFigures.keys()].filter((key) => !newFigures.has(key));
  if (added.length > 0) lines.push("", `Only in the new results: ${added.join(", ")}`);
  if (removed.length > 0) lines.push("", `Only in the old results: ${removed.join(", ")}`);
  process.stdout.write(`${lines.join("\n")}\n`);
}

main();
