/**
 * irm-export on a seeded organisation: 200 objects here (IRM_EXPORT_TEST_SIZE to change
 * it; the 1,000-object case runs in `npm run bench -- --only export`, which keeps
 * `npm test` light), with a custom role and an account association per department and
 * identities matched by pattern (harness/orgs/seeded-org.ts). Requests are at their
 * floor: one listing per collection and page, the new collections included. The
 * project adopts every object through the real provider host with no write, and then
 * has nothing to change (what `pulumi up` and `pulumi preview` of it do; adoption on the
 * engine itself: tests/engine/export-adoption.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportOrganisation, requestFloor } from "../../exporter/index";
import { README_CONCURRENCY } from "../../exporter/read";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type SeededOrganisation, seedOrganisation } from "../../harness/orgs/seeded-org";
import { type PropertyMap, startProviderHost } from "../../harness/provider-host";
import { IrmClient } from "../../sdk/index";
import {
  createExportedProject,
  type ExportedProject,
  liveUids,
  typeCheck,
  writes,
} from "../support/export";
import { type Registered, registerUnderMocks } from "../support/provider-program";

const SIZE = Number(process.env.IRM_EXPORT_TEST_SIZE ?? 200);

describe(`irm-export on a seeded organisation of ${SIZE} objects`, { shuffle: false }, () => {
  let emulator: TestEmulator;
  let exported: ExportedProject;
  let seeded: SeededOrganisation;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    seeded = await seedOrganisation(emulator, SIZE);
    exported = await createExportedProject(emulator, "export-seeded");
  }, 300_000);

  afterAll(async () => {
    await emulator?.close();
    exported?.project.remove();
  });

  it("reads with one listing per collection and page, the floor", () => {
    const { result } = exported;
    const { counts } = result;
    const declared = counts.groups + counts.identities + counts.roleBindings;
    // The seeded objects and the emulator's second identity with its binding: not the
    // identity the token acts as, nor its binding.
    expect(declared).toBe(SIZE + 2);
    expect(counts.customRoles).toBe(seeded.customRoles);
    expect(counts.accountAssociations).toBe(seeded.accountAssociations);
    expect(counts.identityProviders).toBe(0);
    const { group, accountAssociation, readme, ...listings } = result.requests;
    expect(listings).toEqual(requestFloor(result.live));
    expect(Object.keys(listings)).toHaveLength(10);
    expect(group).toBe(2);
    // The root's own association (it has none): one GET.
    expect(accountAssociation).toBe(1);
    // One README GET per repo (the emulator's three samples), none more.
    expect(counts.repos).toBe(3);
    expect(readme).toBe(3);
  });

  it("gives names that repeat across departments unique, qualified resource names", () => {
    const index = exported.result.files["index.ts"];
    const names = [...index.matchAll(/new irm\.(\w+)\("([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(new Set(names).size).toBe(names.length);
    // `team-01` exists in every department: each is qualified by its department.
    expect(index).toMatch(/new irm\.Group\("department-\d+-team-0*1", \{/);
    expect(index).toMatch(/new irm\.Identity\("department-\d+-team-0*1-ci-bot", \{/);
    expect(index).toMatch(
      /new irm\.RoleBinding\("department-\d+-team-0*1-ci-bot-(viewer|deployer)", \{/,
    );
    // Each department's `deployer` is declared, qualified, and bound by variable.
    expect(index).toMatch(
      /const department0*1Deployer = new irm\.Role\("department-0*1-deployer", \{/,
    );
    expect(index).toMatch(/roleUid: department0*1Deployer\.uid,/);
    expect(index).toContain('subjectPattern: "repo:acme/');
  });

  it("type-checks against the installed package", async () => {
    const checked = await typeCheck(exported.project.dir);
    expect(checked.output).toBe("");
  }, 300_000);

  it("adopts every object through the provider host with no write, then has nothing to change", async () => {
    // What `pulumi up` then `pulumi preview` of the project do, without the engine
    // (adoption on the engine, for every kind: tests/engine/export-adoption.test.ts):
    // the program, compiled as the language host compiles it, runs under
    // `runtime.setMocks` to give each resource's inputs (a resource's uid is its
    // adoptUid, so references carry the live uids); the real provider host checks and
    // creates each, in the program's order, and a second check and diff of each against
    // what the create stored finds no change.
    const { result, project } = exported;
    const compiled = ts.transpileModule(result.files["index.ts"], {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    });
    const programFile = path.join(project.dir, "index.js");
    fs.writeFileSync(programFile, compiled.outputText);
    const declared = Object.values(result.counts).reduce((sum, n) => sum + n, 0);
    const run = await registerUnderMocks(
      project,
      () => {
        project.require(programFile);
        return [];
      },
      { "irm:apiUrl": emulator.url, "irm:token": emulator.token },
      ["irm:token"],
      { expected: declared, uidOf: (inputs) => inputs.adoptUid as string | undefined },
    );
    expect(run.registered).toHaveLength(declared);
    const host = await startProviderHost({ cwd: project.dir, projectName: "export-seeded" });
    try {
      await host.configure({ "irm:apiUrl": emulator.url, "irm:token": emulator.token }, [
        "irm:token",
      ]);
      const urn = (r: Registered) => `urn:pulumi:dev::export-seeded::${r.type}::${r.name}`;
      await emulator.clearRequests();
      const adopted: Array<{ r: Registered; id: string; inputs: PropertyMap; outs: PropertyMap }> =
        [];
      // All at once, as the engine runs steps whose inputs are known in parallel.
      await Promise.all(
        run.registered.map(async (r) => {
          const checked = await host.check(urn(r), {}, r.inputs);
          expect(checked.failures, r.name).toEqual([]);
          const created = await host.create(urn(r), checked.inputs);
          expect(created.id, r.name).toBe(r.inputs.adoptUid);
          adopted.push({ r, id: created.id, inputs: checked.inputs, outs: created.properties });
        }),
      );
      expect(writes(await emulator.requests())).toEqual([]);
      expect(adopted.map((a) => a.id).sort()).toEqual(await liveUids(emulator));

      // What a second up would plan: nothing, and no write.
      await emulator.clearRequests();
      await Promise.all(
        adopted.map(async ({ r, id, inputs, outs }) => {
          const checked = await host.check(urn(r), inputs, r.inputs);
          expect(checked.failures, r.name).toEqual([]);
          const diff = await host.diff(id, urn(r), outs, checked.inputs);
          expect(diff.changes, r.name).toBe("none");
        }),
      );
      expect(writes(await emulator.requests())).toEqual([]);
    } finally {
      await host.close();
    }
  }, 300_000);
});

describe("irm-export of identity providers over more than one page", { shuffle: false }, () => {
  let emulator: TestEmulator;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await seedOrganisation(emulator, 30, { identityProviders: 210 });
  }, 300_000);

  afterAll(async () => {
    await emulator?.close();
  });

  it("lists them in two pages, the floor, and declares each with an optional secret (PKCE)", async () => {
    await emulator.clearRequests();
    const result = await exportOrganisation({
      dryRun: true,
      settings: { baseUrl: emulator.url, token: emulator.token },
    });
    expect(result.counts.identityProviders).toBe(210);
    expect(result.requests.identityProviders).toBe(2);
    // The exporter's tally comes from its own page callback; the emulator's log is the
    // server's count, so a request sent outside that callback (a retry, a repeated
    // page) would show here.
    const served = (await emulator.requests()).filter((r) => r.method === "GET");
    const tallied = Object.values(result.requests).reduce((sum, n) => sum + n, 0);
    expect(served).toHaveLength(tallied);
    expect(served.filter((r) => r.path.endsWith("/identityProviders"))).toHaveLength(2);
    const { group, accountAssociation, readme, ...listings } = result.requests;
    expect(listings).toEqual(requestFloor(result.live));
    expect(readme).toBe(result.counts.repos);
    expect(result.clientSecrets.every((s) => s.optional)).toBe(true);
    expect(new Set(result.clientSecrets.map((s) => s.configKey)).size).toBe(210);
    const index = result.files["index.ts"];
    expect(index).not.toContain("requireSecret");
    expect(index.match(/ = config\.getSecret\("clientSecret-[0-9a-f]{16}"\);/g)).toHaveLength(210);
    expect(result.warnings).toEqual([]);
  });
});

describe("irm-export of many repos: one README GET each, a few at a time", () => {
  let emulator: TestEmulator;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await emulator.seed({
      generate: { kind: "repos", count: 40, parentUid: emulator.rootGroupUid, namePrefix: "img" },
    });
  }, 120_000);

  afterAll(async () => {
    await emulator?.close();
  });

  it(`reads every README once, never more than ${README_CONCURRENCY} at once`, async () => {
    const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
    const repos = client.registry.repos;
    const getReadme = repos.getReadme.bind(repos);
    let inFlight = 0;
    let most = 0;
    repos.getReadme = async (uid, options) => {
      most = Math.max(most, ++inFlight);
      try {
        // Long enough that every worker has one in flight at once.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return await getReadme(uid, options);
      } finally {
        inFlight -= 1;
      }
    };
    try {
      await emulator.clearRequests();
      const result = await exportOrganisation({ dryRun: true, client });
      // The 40 seeded and the emulator's three samples.
      expect(result.counts.repos).toBe(43);
      expect(result.requests.readme).toBe(43);
      expect(most).toBe(README_CONCURRENCY);
      const readmes = (await emulator.requests()).filter((r) => r.path.endsWith("/readme"));
      expect(readmes).toHaveLength(43);
      expect(new Set(readmes.map((r) => r.path)).size).toBe(43);
      expect(readmes.every((r) => r.method === "GET" && r.status === 200)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("a README the API refuses stops the export, naming the repo", async () => {
    await emulator.fault({ match: { pathRegex: "/readme$" }, status: 503, count: 0 });
    try {
      await expect(
        exportOrganisation({
          dryRun: true,
          settings: { baseUrl: emulator.url, token: emulator.token, retry: { retries: 0 } },
        }),
      ).rejects.toThrow(/^reading the README of repo "[^"]+" \([0-9a-f/]+\) failed: UNAVAILABLE/);
    } finally {
      await emulator.clearFaults();
    }
  });
});
