/**
 * `npm run demo` end to end, spawned as a user runs it. The Pulumi CLI is kept off
 * PATH so the demo takes its documented fallback (the test harness), whatever the
 * machine has installed; a stand-in `pulumi` on PATH checks how the demo drives the
 * real CLI (which this machine cannot install).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, scratchDir } from "../support/installed-package";

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
      env: { ...process.env, PATH: pathWithoutPulumi(), ...env },
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
    expect(output.match(/Pulumi CLI not found on PATH/g)).toHaveLength(1);
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

  it("with a pulumi CLI on PATH, drives it with a file backend, no login, and no token in its arguments", async () => {
    // A stand-in CLI: records each call, reports 13 creates then 13 unchanged.
    const binDir = scratchDir("fake-pulumi");
    fs.mkdirSync(binDir, { recursive: true });
    const callLog = path.join(binDir, "calls.jsonl");
    fs.writeFileSync(callLog, "");
    const stub = `#!${process.execPath}
const fs = require("node:fs");
const args = process.argv.slice(2);
const env = process.env;
fs.appendFileSync(${JSON.stringify(callLog)}, JSON.stringify({
  args, cwd: process.cwd(), backend: env.PULUMI_BACKEND_URL, passphrase: Boolean(env.PULUMI_CONFIG_PASSPHRASE),
  tokenInEnv: Boolean(env.IRM_TOKEN), apiUrl: env.IRM_API_URL,
  program: fs.existsSync("index.ts") && fs.existsSync("node_modules/pulumi-irm/package.json"),
}) + "\\n");
if (args[0] === "stack" && args[1] === "history") {
  const ups = fs.readFileSync(${JSON.stringify(callLog)}, "utf8").split("\\n").filter((l) => l.includes('"up"')).length;
  console.log(JSON.stringify([{ resourceChanges: ups === 1 ? { create: 13 } : { same: 13 } }]));
}
`;
    fs.writeFileSync(path.join(binDir, "pulumi"), stub, { mode: 0o755 });
    try {
      const { code, output } = await runDemo({
        PATH: `${binDir}${path.delimiter}${pathWithoutPulumi()}`,
      });
      expect(output).toContain(
        `Using the Pulumi CLI (${path.join(binDir, "pulumi")}) with a local file backend`,
      );
      expect(output).not.toContain("Pulumi CLI not found");
      expect(output).toContain("First deployment: 13 resources created or changed.");
      expect(output).toContain(
        "Second deployment: no changes (13 resources unchanged, 0 write requests).",
      );
      expect(code).toBe(0);

      const calls = fs
        .readFileSync(callLog, "utf8")
        .trim()
        .split("\n")
        .map(
          (line) =>
            JSON.parse(line) as {
              args: string[];
              cwd: string;
              backend?: string;
              passphrase: boolean;
              tokenInEnv: boolean;
              apiUrl?: string;
              program: boolean;
            },
        );
      const commands = calls.map((c) =>
        c.args.filter((a) => !a.startsWith("http") && !/^[0-9a-f]{40}$/.test(a)).join(" "),
      );
      expect(commands).toEqual([
        "stack init demo --non-interactive",
        "config set --stack demo irm:apiUrl --non-interactive",
        "config set --stack demo org-hierarchy:rootGroupUid --non-interactive",
        "up --yes --skip-preview --stack demo --non-interactive",
        "stack history --json --stack demo --non-interactive",
        "up --yes --skip-preview --stack demo --non-interactive",
        "stack history --json --stack demo --non-interactive",
      ]);
      for (const call of calls) {
        expect(call.backend).toMatch(/^file:\/\//);
        expect(call.passphrase).toBe(true);
        expect(call.tokenInEnv).toBe(true);
        expect(call.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        // The program runs from a copy of the example with the package installed.
        expect(call.program).toBe(true);
        expect(call.cwd).toMatch(/[\\/]\.tmp[\\/]demo-\d+$/);
        // The token only travels in the environment, never on a command line.
        expect(call.args.join(" ")).not.toMatch(/eyJ[\w-]+\./);
      }
    } finally {
      fs.rmSync(binDir, { recursive: true, force: true });
    }
  });
});
