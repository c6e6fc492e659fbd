/**
 * Issue 13: `irm-export`. Requests of an export against their floor (one listing per
 * collection and page of 200: ceil(n / 200) each) and its wall time, for the demo
 * organisation (the objects of `examples/org-hierarchy`, made through the SDK, plus a
 * custom role) and a seeded organisation of 1,000 objects; then the generated
 * project's first `up` (adoption: no write) and a no-op `up`, through the mini engine
 * with the package installed as users install it.
 */
import * as fs from "node:fs";
import { type ExportResult, exportOrganisation, requestFloor } from "../../exporter/index";
import type { LogEntry } from "../../harness/emulator";
import { scratchDir } from "../../harness/installed-package";
import { createDemoOrganisation } from "../../harness/orgs/demo-org";
import { seedOrganisation } from "../../harness/orgs/seeded-org";
import { type EmulatorProcess, startEmulatorProcess } from "../lib/emulator-process";
import { againstFloor, type Measurement, type Section } from "../lib/report";
import { collectionOf, createBenchStack } from "../lib/stack";
import { median, now } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

interface Case {
  id: string;
  label: string;
  /** Builds the organisation in a fresh emulator. */
  prepare(emulator: EmulatorProcess, context: SuiteContext): Promise<void>;
}

const CASES: Case[] = [
  {
    id: "demo",
    label: "demo organisation",
    async prepare(emulator) {
      await createDemoOrganisation(emulator);
    },
  },
  {
    id: "seeded-1000",
    label: "seeded organisation of 1,000 objects",
    async prepare(emulator) {
      await seedOrganisation(emulator, 1000);
    },
  },
];

/** Requests of one export, by collection, from the emulator's log. */
function byCollection(entries: LogEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of entries) {
    const collection = collectionOf(entry);
    counts[collection] = (counts[collection] ?? 0) + 1;
  }
  return counts;
}

async function runCase(testCase: Case, context: SuiteContext): Promise<Measurement[]> {
  const emulator = await startEmulatorProcess();
  const measurements: Measurement[] = [];
  const out = scratchDir(`bench-export-${testCase.id}-generated`);
  try {
    context.log(`export ${testCase.id}: preparing`);
    await testCase.prepare(emulator, context);
    const settings = { baseUrl: emulator.url, token: emulator.token, env: {} };

    // Wall time of read + generate (a dry run writes nothing), several times.
    const times: number[] = [];
    let result: ExportResult | undefined;
    let logged: LogEntry[] = [];
    for (let run = 0; run < context.pick(5, 1); run++) {
      await emulator.clearRequests();
      const start = now();
      result = await exportOrganisation({ dryRun: true, settings });
      times.push(now() - start);
      logged = await emulator.requests();
    }
    const exported = result!;
    const floor = requestFloor(exported.live);
    const counts = byCollection(logged);
    const listings = Object.keys(floor).reduce((sum, k) => sum + (exported.requests[k] ?? 0), 0);
    const least = Object.values(floor).reduce((a, b) => a + b, 0);
    const objects =
      exported.counts.groups + exported.counts.identities + exported.counts.roleBindings;
    measurements.push(
      againstFloor(
        `${testCase.id}-listing-requests`,
        `${testCase.label}: listing requests of an export (${objects} objects declared)`,
        listings,
        least,
        "requests",
        `by collection ${Object.entries(floor)
          .map(([k, v]) => `${k} ${exported.requests[k] ?? 0}/${v}`)
          .join(", ")}; the emulator logged ${JSON.stringify(counts)} including the group search`,
      ),
      {
        id: `${testCase.id}-find-requests`,
        label: `${testCase.label}: requests to find the organisation (no --group)`,
        value: exported.requests.group ?? 0,
        unit: "requests",
        detail:
          "first and last visible group in uid order (page size 1), to tell whether the token sees one organisation; with --group it is one GET",
      },
      {
        id: `${testCase.id}-export-ms`,
        label: `${testCase.label}: export wall time (read and generate)`,
        value: median(times),
        unit: "ms",
        detail: `median of ${times.length}; ${Object.values(exported.files)
          .reduce((n, f) => n + f.length, 0)
          .toLocaleString("en-US")} characters generated`,
      },
    );

    // The generated project, deployed: adoption, then a no-op up.
    await exportOrganisation({ outDir: out, settings });
    const stack = createBenchStack({
      scratchName: `bench-export-${testCase.id}`,
      programDir: out,
      emulator,
    });
    try {
      context.log(`export ${testCase.id}: adopting ${objects} objects`);
      const adoption = await stack.up();
      const adoptionWrites = adoption.requests.filter((e) => e.method !== "GET").length;
      const noop = await stack.up();
      const noopWrites = noop.requests.filter((e) => e.method !== "GET").length;
      measurements.push(
        againstFloor(
          `${testCase.id}-adoption-writes`,
          `${testCase.label}: write requests of the generated project's first up`,
          adoptionWrites,
          0,
          "requests",
          `${adoption.requests.length} GETs for ${objects} adopted objects and ${exported.program.lookups.length} role lookups (adoption reads each object, and a binding's role); ${adoption.result.state.resources.length} resources in state; ${(adoption.ms / 1000).toFixed(1)} s`,
        ),
        againstFloor(
          `${testCase.id}-noop-writes`,
          `${testCase.label}: write requests of the second up`,
          noopWrites,
          0,
          "requests",
          `${noop.result.steps.filter((s) => s.op !== "same").length} changes; ${(noop.ms / 1000).toFixed(1)} s`,
        ),
      );
    } finally {
      stack.removeProject();
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    await emulator.close();
  }
  return measurements;
}

export const exportSuite: Suite = {
  name: "export",
  async run(context) {
    const measurements: Measurement[] = [];
    for (const testCase of CASES) measurements.push(...(await runCase(testCase, context)));
    const section: Section = {
      id: "export",
      title: "Exporting an existing organisation (irm-export)",
      method:
        "`exportOrganisation` (the function behind `irm-export`) against an emulator in its own process, for the demo organisation (the objects `examples/org-hierarchy` declares, plus a custom role and its binding, made through the SDK) and a seeded one of 1,000 objects (groups by `POST /emulator/seed` `generate` in departments, one identity and one binding per group through the SDK). Requests come from the exporter's count and the emulator's log; the floor is one listing per collection and page of 200 (groups, identities and role bindings with `uidp.descendants_of`, roles unfiltered). Then the generated project is deployed by the mini engine with the package installed as users install it: its first `up` adopts, its second changes nothing.",
      measurements,
      notes: [
        "No per-object GET during the export: every object comes from a listing page.",
        "Finding the organisation without --group costs two one-item listings on top of the floor.",
        "The adoption `up` sends no write: only GETs (the provider's adoption reads the object it takes over, and a binding's role) and the role lookups.",
      ],
    };
    return [section];
  },
};
