/**
 * `irm-export`. Requests of an export against their floor (one listing per collection
 * and page of 200: ceil(n / 200) each, seven collections) and its wall time, for the
 * demo organisation (the objects of `examples/org-hierarchy` plus custom roles,
 * identity providers, an identity of every kind, an account association and an invite,
 * made through the SDK) and a seeded organisation of 1,000 objects (with a custom role
 * and an association per department, half the identities by pattern); then the
 * generated project's first `up` (adoption: no write but each client secret sent once)
 * and a no-op `up`, with the package installed as users install it, on the real engine
 * (skipped without a CLI).
 */
import * as fs from "node:fs";
import { type ExportResult, exportOrganisation, requestFloor } from "../../exporter/index";
import { countOf } from "../../exporter/project";
import type { LogEntry } from "../../harness/emulator";
import { scratchDir } from "../../harness/installed-package";
import { createDemoOrganisation, DEMO_CLIENT_SECRET } from "../../harness/orgs/demo-org";
import { seedOrganisation } from "../../harness/orgs/seeded-org";
import { type EmulatorProcess, startEmulatorProcess } from "../lib/emulator-process";
import { openRealEngine } from "../lib/real-engine";
import { againstFloor, type Measurement, type Section } from "../lib/report";
import { collectionOf } from "../lib/stack";
import { median, now } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

interface Case {
  id: string;
  label: string;
  /** Builds the organisation in a fresh emulator; answers client secrets by provider uid. */
  prepare(emulator: EmulatorProcess, context: SuiteContext): Promise<Record<string, string>>;
}

const CASES: Case[] = [
  {
    id: "demo",
    label: "demo organisation",
    async prepare(emulator) {
      const demo = await createDemoOrganisation(emulator);
      return { [demo["acme-sso"]]: DEMO_CLIENT_SECRET };
    },
  },
  {
    id: "seeded-1000",
    label: "seeded organisation of 1,000 objects",
    async prepare(emulator) {
      await seedOrganisation(emulator, 1000);
      return {};
    },
  },
];

/** What one deploy of the generated project measured. */
interface Deploy {
  ms: number;
  requests: LogEntry[];
  changes: number;
  resources: number;
}

/**
 * The generated project's adoption `up` and a second `up`, on the real engine;
 * undefined when there is no CLI.
 */
async function deploy(
  testCase: Case,
  out: string,
  emulator: EmulatorProcess,
  /** Client secrets by config key. */
  secrets: Record<string, string>,
  context: SuiteContext,
): Promise<[Deploy, Deploy] | undefined> {
  const engine = openRealEngine();
  if (!engine) {
    context.log(`export ${testCase.id}: no Pulumi CLI (npm run pulumi:install): deploy skipped`);
    return undefined;
  }
  try {
    const stack = await engine.createStack({
      name: `bench-export-${testCase.id}`,
      programDir: out,
      emulator,
      projectConfig: {},
    });
    try {
      await stack.setConfig(secrets, { secret: true });
      const runs: Deploy[] = [];
      for (let i = 0; i < 2; i++) {
        const run = await stack.run("up");
        runs.push({
          ms: run.ms,
          requests: run.requests,
          changes: Object.entries(run.steps)
            .filter(([op]) => op !== "same")
            .reduce((n, [, count]) => n + count, 0),
          resources: (await stack.exportResources()).length,
        });
      }
      return [runs[0], runs[1]];
    } finally {
      stack.dispose();
    }
  } finally {
    engine.close();
  }
}

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
    const clientSecrets = await testCase.prepare(emulator, context);
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
    const c = exported.counts;
    const objects =
      c.groups +
      c.customRoles +
      c.identities +
      c.identityProviders +
      c.externalGroupRoleMappings +
      c.accountAssociations +
      c.roleBindings;
    measurements.push(
      againstFloor(
        `${testCase.id}-listing-requests`,
        `${testCase.label}: listing requests of an export (${objects} objects declared)`,
        listings,
        least,
        "requests",
        `by collection ${Object.entries(floor)
          .map(([k, v]) => `${k} ${exported.requests[k] ?? 0}/${v}`)
          .join(
            ", ",
          )}; the emulator logged ${JSON.stringify(counts)} including the group search and the group's own association`,
      ),
      {
        id: `${testCase.id}-find-requests`,
        label: `${testCase.label}: requests to find the organisation (no --group) and read its own account association`,
        value: (exported.requests.group ?? 0) + (exported.requests.accountAssociation ?? 0),
        unit: "requests",
        detail:
          "first and last visible group in uid order (page size 1), to tell whether the token sees one organisation (with --group it is one GET); one GET of the group's own account association, which has the group's uid and so is not in the listing below it",
      },
      {
        id: `${testCase.id}-export-ms`,
        label: `${testCase.label}: export wall time (read and generate)`,
        value: median(times),
        unit: "ms",
        detail: `median of ${times.length}; ${Object.values(exported.files)
          .reduce((n, f) => n + f.length, 0)
          .toLocaleString(
            "en-US",
          )} characters generated; ${countOf(exported.skippedInvites, "group invite", "group invites")} skipped`,
      },
    );

    // The generated project, deployed: adoption, then a no-op up.
    await exportOrganisation({ outDir: out, settings });
    context.log(`export ${testCase.id}: adopting ${objects} objects (real engine)`);
    // Each secret under the config key the export names for its provider.
    const secretConfig: Record<string, string> = {};
    for (const secret of exported.clientSecrets) {
      const value = clientSecrets[secret.uid];
      if (value !== undefined) secretConfig[secret.configKey] = value;
    }
    const runs = await deploy(testCase, out, emulator, secretConfig, context);
    if (runs) {
      const [adoption, noop] = runs;
      const adoptionWrites = adoption.requests.filter((e) => e.method !== "GET").length;
      const noopWrites = noop.requests.filter((e) => e.method !== "GET").length;
      const secretsSent = Object.keys(secretConfig).length;
      measurements.push(
        againstFloor(
          `${testCase.id}-adoption-writes`,
          `${testCase.label}: write requests of the generated project's first up (real engine)`,
          adoptionWrites,
          secretsSent,
          "requests",
          `${secretsSent} client secret${secretsSent === 1 ? "" : "s"} set in config, each sent once (the API never answers one); ${adoption.requests.length - adoptionWrites} GETs for ${objects} adopted objects and ${exported.program.lookups.length} role lookups (adoption reads each object, and a binding's role); ${adoption.resources} resources in state; ${(adoption.ms / 1000).toFixed(1)} s`,
        ),
        againstFloor(
          `${testCase.id}-noop-writes`,
          `${testCase.label}: write requests of the second up (real engine)`,
          noopWrites,
          0,
          "requests",
          `${noop.changes} changes; ${(noop.ms / 1000).toFixed(1)} s`,
        ),
      );
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
        "`exportOrganisation` (the function behind `irm-export`) against an emulator in its own process, for the demo organisation (the objects `examples/org-hierarchy` declares, plus custom roles, two identity providers, an identity of every kind, an account association and a group invite, made through the SDK) and a seeded one of 1,000 objects (groups by `POST /emulator/seed` `generate` in departments, one identity and one binding per group through the SDK, half the identities by subject pattern, a custom role and an account association per department). Requests come from the exporter's count and the emulator's log; the floor is one listing per collection and page of 200 (groups, identities, role bindings, identity providers, account associations and group invites with `uidp.descendants_of`, roles unfiltered). Then the generated project is deployed on the real engine with the package installed as users install it (the demo with its one client secret in config): its first `up` adopts, its second changes nothing.",
      measurements,
      notes: [
        "No per-object GET during the export: every object comes from a listing page.",
        "Finding the organisation without --group costs two one-item listings on top of the floor.",
        "The adoption `up` sends no write but one PATCH of `oidc.client_secret` per client secret set in config (the API never answers a secret, so it cannot be compared): otherwise only GETs (the provider's adoption reads the object it takes over, and a binding's role) and the role lookups.",
        "Group invites are counted and skipped: an invite's code cannot be read back.",
      ],
    };
    return [section];
  },
};
