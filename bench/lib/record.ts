/**
 * Recording a partial run into the figures of record (`npm run bench -- --only <suites>
 * --record`): the suites it ran replace their sections in `bench/results/latest.json`,
 * and every other section keeps the run that measured it. A full run takes about an
 * hour on the shared machine; this lets a change to one suite's figures be recorded
 * without it, and without hiding that the page then mixes runs.
 */
import type { BenchResults, RunInfo, Section, SectionRun } from "./report";

/** A run's own fields, without its sections. */
export function runInfo(results: BenchResults): RunInfo {
  const { sections: _sections, ...info } = results;
  return info;
}

/** Each section stamped with the run that measured it and the suite that wrote it. */
export function stampSections(info: RunInfo, suite: string, sections: Section[]): Section[] {
  const run: SectionRun = { ...info, suite };
  return sections.map((section) => ({ ...section, run }));
}

/**
 * Results whose every section carries its run. Sections of older files have none: they
 * were measured by the run the file describes, and their suite is `suiteOf(section id)`.
 */
export function withSectionRuns(
  results: BenchResults,
  suiteOf: (sectionId: string) => string | undefined,
): BenchResults {
  const info = runInfo(results);
  return {
    ...results,
    sections: results.sections.map((section) =>
      section.run ? section : { ...section, run: { ...info, suite: suiteOf(section.id) } },
    ),
  };
}

export interface RecordOptions {
  /** Every suite in the order the full run runs them (the page's order). */
  suiteOrder: string[];
  /** The suite of a section of an older file, from its id; undefined when none claims it. */
  suiteOf(sectionId: string): string | undefined;
}

/**
 * `recorded` (a run limited by `--only`, its sections stamped) put into `base` (the
 * figures of record, or undefined when there are none yet): each suite it ran loses its
 * old sections and takes the new ones, at the place of the first old one or, for a suite
 * `base` lacks, before the first section of a suite that runs after it. The file keeps
 * describing `base`'s run at the top; without a base, the recorded run is the file.
 */
export function recordPartialRun(
  base: BenchResults | undefined,
  recorded: BenchResults,
  options: RecordOptions,
): BenchResults {
  if (recorded.quick) {
    throw new Error("a quick run is a smoke test: its figures cannot be recorded (drop --quick)");
  }
  if (!recorded.only) {
    throw new Error("only a run limited with --only is recorded into earlier results");
  }
  const suites = recorded.only;
  const unknown = suites.filter((suite) => !options.suiteOrder.includes(suite));
  if (unknown.length > 0) throw new Error(`unknown suite(s) ${unknown.join(", ")}`);
  const unstamped = recorded.sections.filter(
    (section) => !section.run?.suite || !suites.includes(section.run.suite),
  );
  if (unstamped.length > 0) {
    throw new Error(
      `section(s) ${unstamped.map((s) => s.id).join(", ")} do not name a suite of the run`,
    );
  }
  if (!base) return recorded;
  if (base.quick) throw new Error("the results to record into are a quick run's");

  const order = (suite: string | undefined) =>
    suite === undefined ? -1 : options.suiteOrder.indexOf(suite);
  const sections = withSectionRuns(base, options.suiteOf).sections;
  for (const suite of [...suites].sort((a, b) => order(a) - order(b))) {
    const fresh = recorded.sections.filter((section) => section.run?.suite === suite);
    const first = sections.findIndex((section) => section.run?.suite === suite);
    let at: number;
    if (first >= 0) {
      at = first;
      for (let i = sections.length - 1; i >= 0; i--) {
        if (sections[i].run?.suite === suite) sections.splice(i, 1);
      }
    } else {
      // A suite the base lacks goes before the first section of a later suite.
      const later = sections.findIndex((section) => order(section.run?.suite) > order(suite));
      at = later >= 0 ? later : sections.length;
    }
    sections.splice(at, 0, ...fresh);
  }
  return { ...base, sections };
}
