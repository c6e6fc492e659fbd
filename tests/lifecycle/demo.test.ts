/**
 * `npm run demo` end to end, spawned as a user runs it: once with no Pulumi CLI to be
 * found (no `pulumi` on PATH, an empty CLI cache), so the demo takes its documented
 * fallback, and once with the real CLI wherever this run has it.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { REPO_ROOT, scratchDir } from "../../harness/installed-package";

function pathWithoutPulumi(): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !fs.existsSync(path.join(dir, "pulumi")))
    .join(path.delimiter);
}

function runDemo(
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join("scripts", "demo.ts")], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PATH: pathWithoutPulumi(),
        PULUMI_CLI_DIR: "",
        IRM_PULUMI_CACHE: path.join(scratchDir("no-pulumi-cache"), "empty"),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

describe("npm run demo", () => {
  it("deploys org-hierarchy, prints the tree, shows a second run changes nothing, stops the emulator", async () => {
    const { code, output } = await runDemo();
    expect(output).toMatch(/^Emulator listening on http:\/\/127\.0\.0\.1:\d+/m);
    // Without the CLI it says so, in one line.
    expect(output.match(/No Pulumi CLI found/g)).toHaveLength(1);
    expect(output).toContain("First deployment: 13 resources created or changed.");
    for (const line of [
      "example-org (root organisation)",
      "├── [group] engineering - All engineering teams",
      "│   ├── [group] payments - Card and ledger services",
      "│   │   ├── [group] payments-api - Public payments API",
      "│   └── [group] platform - Build and runtime infrastructure",
      "│       └── [identity] platform-ci (accepts repo:acme/platform:ref:refs/heads/main)",
      "│           ├── role editor on platform",
      "│           └── role registry.pull on example-org",
    ]) {
      expect(output).toContain(line);
    }
    expect(output).toContain(
      "Second deployment: no changes (13 resources unchanged, 0 write requests).",
    );
    expect(output.trimEnd().endsWith("Emulator stopped.")).toBe(true);
    // No token (a JWT) is ever printed.
    expect(output).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(code).toBe(0);
  });

  it.runIf(inject("realEngine").cliRoot !== "")(
    "with the real Pulumi CLI, runs pulumi up twice in the example's folder: 13 creates, then no changes",
    async () => {
      const cliRoot = inject("realEngine").cliRoot;
      const { code, output } = await runDemo({ PULUMI_CLI_DIR: cliRoot });
      expect(output).toMatch(
        /Using the Pulumi CLI v\d+\.\d+\.\d+ \(.*\) with a local file backend/,
      );
      expect(output).not.toContain("No Pulumi CLI found");
      // The engine's own summary of each run: the 13 resources and the stack itself.
      expect(output).toMatch(/\+ 14 created/);
      expect(output).toMatch(/14 unchanged/);
      expect(output).toContain("First deployment: 13 resources created or changed.");
      expect(output).toContain(
        "Second deployment: no changes (13 resources unchanged, 0 write requests).",
      );
      expect(output).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
      expect(code).toBe(0);
    },
    240_000,
  );
});
