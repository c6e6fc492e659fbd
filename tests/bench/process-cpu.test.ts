/**
 * The routes benchmark's CPU of a process tree (`bench/lib/process-cpu.ts`): the total
 * counts a grandchild's CPU, and process kinds are told apart by command line.
 */

import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { kindOf, processSeconds, runMeasuringTree } from "../../bench/lib/process-cpu";

describe("CPU of a process tree", () => {
  it("counts the CPU of a grandchild, and its exit status", async () => {
    // node starts a second node that spins for 600 ms of CPU, then exits 3.
    const spin =
      "const end = process.cpuUsage().user + 600000; while (process.cpuUsage().user < end) {}";
    const outer = `require("node:child_process").execFileSync(process.execPath, ["-e", ${JSON.stringify(spin)}]); process.exit(3);`;
    const run = await runMeasuringTree(process.execPath, ["-e", outer], {
      cwd: process.cwd(),
      env: process.env,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(3);
    expect(run.cpu.totalSeconds).toBeGreaterThanOrEqual(0.6);
    const kinds = Object.values(run.cpu.byKind).reduce((sum, value) => sum + value, 0);
    // The kinds share out the total: sampled kinds plus what no sample saw.
    expect(kinds).toBeCloseTo(run.cpu.totalSeconds, 5);
  });

  it("tells the processes of a Pulumi run apart by command line", () => {
    const nul = "\0";
    expect(kindOf(["/opt/pulumi/bin/pulumi", "up", "--yes"].join(nul))).toBe("cli");
    expect(kindOf(["node", "/opt/pulumi/bin/language-host.cjs"].join(nul))).toBe("language host");
    expect(kindOf(["/opt/pulumi/bin/pulumi-language-nodejs", "127.0.0.1:1"].join(nul))).toBe(
      "language host",
    );
    expect(kindOf(["node", "/p/node_modules/@pulumi/pulumi/cmd/run", "--monitor"].join(nul))).toBe(
      "program",
    );
    expect(
      kindOf(["node", "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js"].join(nul)),
    ).toBe("provider host");
    expect(kindOf(["/bin/sh", "/opt/pulumi/bin/pulumi-resource-pulumi-nodejs"].join(nul))).toBe(
      "provider host",
    );
    expect(kindOf(["node", "-e", "1"].join(nul))).toBe("other");
  });

  it("reads a live process's own CPU and its waited-for children's", () => {
    // The Python face reads its driver so: a child waited for shows in `tree` only.
    const spin =
      "const end = process.cpuUsage().user + 400000; while (process.cpuUsage().user < end) {}";
    const before = processSeconds(process.pid);
    execFileSync(process.execPath, ["-e", spin]);
    const after = processSeconds(process.pid);
    expect(after.tree - before.tree - (after.own - before.own)).toBeGreaterThanOrEqual(0.4);
    expect(after.own - before.own).toBeLessThan(0.4);
    expect(() => processSeconds(2 ** 30)).toThrow(/no process/);
  });

  it("counts the native plugin apart from the dynamic provider's host", () => {
    const nul = "\0";
    // As `#!/usr/bin/env node` leaves it: node, the launcher, the engine's address.
    expect(
      kindOf(
        ["node", "/b/node_modules/pulumi-irm/plugin/pulumi-resource-irm", "127.0.0.1:1"].join(nul),
      ),
    ).toBe("plugin");
    expect(
      kindOf(["node", "/usr/lib/node_modules/pulumi-irm/plugin/pulumi-resource-irm"].join(nul)),
    ).toBe("plugin");
    // Another provider plugin whose name begins the same stays a provider host.
    expect(kindOf(["/h/plugins/pulumi-resource-irmx", "127.0.0.1:1"].join(nul))).toBe(
      "provider host",
    );
    expect(kindOf(["/opt/pulumi/bin/pulumi-language-yaml", "127.0.0.1:1"].join(nul))).toBe(
      "language host",
    );
  });
});
