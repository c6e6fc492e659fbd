/**
 * `npm run demo` (scripts/demo.ts) with a stand-in deployer: the emulator, the example
 * installed as users install it, two deployments with the organisation printed between
 * and the second one's writes counted. And, on a machine with no Pulumi CLI to be found
 * (no `pulumi` on PATH, an empty CLI cache), the demo's first step: it says so in one
 * line and builds the CLI with `scripts/pulumi-cli/install.ts` (here with a stand-in
 * `go` that writes a CLI reporting the pinned version, so the test does not spend
 * minutes compiling).
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, scratchDir } from "../../harness/installed-package";
import { createOrgHierarchy } from "../../harness/orgs/demo-org";
import { pulumiCliDeployer, runDemo } from "../../scripts/demo";
import { pinnedPulumiVersion } from "../../scripts/pulumi-cli/locate";
import { IrmClient } from "../../sdk/index";

function pathWithoutPulumi(): string {
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !fs.existsSync(path.join(dir, "pulumi")))
    .join(path.delimiter);
}

function runNode(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
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

/** A `go` whose `build -o <file>` writes a `pulumi` that reports `version`; logs its calls. */
function standInGo(dir: string, version: string): { log: string } {
  const log = path.join(dir, "go-calls.log");
  const go = path.join(dir, "go");
  fs.writeFileSync(
    go,
    `#!/bin/sh
echo "$@" >> '${log}'
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "-o" ]; then out="$2"; fi
  shift
done
if [ -n "$out" ]; then
  mkdir -p "$(dirname "$out")"
  printf '#!/bin/sh\necho v${version}\n' > "$out"
  chmod +x "$out"
fi
`,
    { mode: 0o755 },
  );
  return { log };
}

describe("npm run demo", () => {
  it("without a Pulumi CLI, says so in one line and builds one into the cache first", async () => {
    const scratch = scratchDir("demo-no-cli");
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.mkdirSync(path.join(scratch, "bin"), { recursive: true });
    const version = pinnedPulumiVersion();
    const go = standInGo(path.join(scratch, "bin"), version);
    const cache = path.join(scratch, "cache");
    const script = [
      `const { ensurePulumiCli } = require(${JSON.stringify(path.join(REPO_ROOT, "scripts", "pulumi-cli", "ensure.ts"))});`,
      "ensurePulumiCli().then((cli) => console.log(JSON.stringify(cli)));",
    ].join("\n");
    const { code, output } = await runNode(["--import", "tsx", "-e", script], {
      PATH: `${path.join(scratch, "bin")}${path.delimiter}${pathWithoutPulumi()}`,
      IRM_PULUMI_CACHE: cache,
    });
    try {
      expect(code, output).toBe(0);
      expect(output.match(/No Pulumi CLI found/g)).toHaveLength(1);
      expect(output).toContain("building it with npm run pulumi:install");
      // install.ts ran: one go build of the CLI's main package and one of the YAML
      // language host, into the cache.
      const calls = fs.readFileSync(go.log, "utf8").trim().split("\n");
      expect(calls).toHaveLength(2);
      expect(calls[0]).toMatch(/^build .*github\.com\/pulumi\/pulumi\/pkg\/v3\/cmd\/pulumi$/);
      expect(calls[1]).toMatch(
        /^build .*github\.com\/pulumi\/pulumi-yaml\/cmd\/pulumi-language-yaml$/,
      );
      const cli = JSON.parse(output.trim().split("\n").pop() ?? "{}");
      expect(cli).toMatchObject({
        source: "cache",
        version: `v${version}`,
        pulumi: path.join(cache, `v${version}`, "bin", "pulumi"),
      });
      // The launchers the engine needs were written beside it.
      expect(fs.existsSync(path.join(cache, `v${version}`, "bin", "pulumi-language-nodejs"))).toBe(
        true,
      );
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);

  it("deploys examples/org-hierarchy twice, prints the organisation between, and says the second run changed and wrote nothing", async () => {
    // A stand-in for the Pulumi CLI: its first deployment makes what the example
    // declares (through the SDK), its second sends nothing, and each answers what Pulumi
    // would count (the stack itself is one resource). The CLI's own counts, read from
    // `pulumi stack history` as the demo reads them, and a second up of the example
    // writing nothing, are proven on the engine: tests/engine/org-hierarchy.test.ts.
    const lines: string[] = [];
    const code = await runDemo({
      log: (line) => lines.push(line),
      deployer: async (project, emulator) => {
        expect(fs.existsSync(path.join(project.dir, "node_modules", "pulumi-irm"))).toBe(true);
        let made = 0;
        return {
          describe: "Deploying with a stand-in.",
          async deploy() {
            if (made > 0) return { changed: 0, unchanged: made + 1 };
            const { apiUrl: url, token, rootGroupUid } = emulator.bootstrap;
            made = Object.keys(await createOrgHierarchy({ url, token, rootGroupUid })).length;
            return { changed: made + 1, unchanged: 0 };
          },
          dispose() {},
        };
      },
    });
    const output = lines.join("\n");
    expect(output).toMatch(/^Emulator listening on http:\/\/127\.0\.0\.1:\d+/m);
    expect(output).toContain("Deploying with a stand-in.");
    expect(output).toContain(
      "First deployment: 14 created or changed (Pulumi counts the stack as one).",
    );
    expect(output).toContain("Second deployment: no changes (14 unchanged, 0 write requests).");
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
    expect(output.trimEnd().endsWith("Emulator stopped.")).toBe(true);
    // No token (a JWT) is ever printed.
    expect(output).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(code).toBe(0);
  }, 120_000);

  it("a second deployment that writes is reported as unexpected, and the demo fails", async () => {
    const lines: string[] = [];
    const code = await runDemo({
      log: (line) => lines.push(line),
      deployer: async (_project, emulator) => {
        const { apiUrl: url, token, rootGroupUid } = emulator.bootstrap;
        const client = new IrmClient({ baseUrl: url, token });
        return {
          describe: "Deploying with a stand-in that writes each time.",
          async deploy() {
            await client.iam.groups.create(rootGroupUid, { name: `team-${Date.now()}` });
            return { changed: 0, unchanged: 2 };
          },
          dispose() {
            void client.close();
          },
        };
      },
    });
    expect(lines).toContain(
      "Second deployment changed 0 resources with 1 write requests: unexpected.",
    );
    expect(lines.at(-1)).toBe("Emulator stopped.");
    expect(code).toBe(1);
  }, 120_000);
  it("its real deployer: the token only in the environment, pulumi up as users run it, counts from the stack history", async () => {
    // A stand-in `pulumi` that logs each call (and whether IRM_TOKEN reached it), and
    // answers `stack history --json` with the last update first, as the CLI does.
    const scratch = scratchDir("demo-deployer");
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.mkdirSync(path.join(scratch, "bin"), { recursive: true });
    const log = path.join(scratch, "calls.log");
    const pulumi = path.join(scratch, "bin", "pulumi");
    const history = [
      { resourceChanges: { same: 3, update: 1, create: 2 } },
      { resourceChanges: { create: 6 } },
    ];
    fs.writeFileSync(
      pulumi,
      `#!/bin/sh
echo "$* token:\${IRM_TOKEN:+set}" >> '${log}'
if [ "$1" = "stack" ] && [ "$2" = "history" ]; then echo '${JSON.stringify(history)}'; fi
`,
      { mode: 0o755 },
    );
    const bootstrap = {
      apiUrl: "http://127.0.0.1:1",
      token: "sentinel-demo-token",
      rootGroupUid: "a".repeat(40),
    };
    const deployer = pulumiCliDeployer(
      { pulumi, root: scratch, bin: path.dirname(pulumi), version: "v3.0.0", source: "PATH" },
      { dir: scratch } as never,
      { bootstrap } as never,
    );
    try {
      expect(deployer.describe).toMatch(
        /^Using the Pulumi CLI v3\.0\.0 \(.*\/bin\/pulumi, from PATH\) with a local file backend in /,
      );
      expect(await deployer.deploy()).toEqual({ changed: 3, unchanged: 3 });
      const calls = fs.readFileSync(log, "utf8").trim().split("\n");
      expect(calls).toEqual([
        "stack init demo --non-interactive token:set",
        `config set --stack demo irm:apiUrl ${bootstrap.apiUrl} --non-interactive token:set`,
        `config set --stack demo org-hierarchy:rootGroupUid ${bootstrap.rootGroupUid} --non-interactive token:set`,
        // As users run it: the preview first, then the update (no --skip-preview).
        "up --yes --stack demo --non-interactive token:set",
        "stack history --json --stack demo --non-interactive token:set",
      ]);
      // The token goes by the environment only, never into stack configuration.
      expect(calls.join("\n")).not.toContain(bootstrap.token);
    } finally {
      deployer.dispose();
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
