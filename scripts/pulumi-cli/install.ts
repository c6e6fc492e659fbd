/**
 * `npm run pulumi:install`: provides the real Pulumi CLI for the tests, the demo and the
 * benchmarks, and prints its folder on the last line of stdout.
 *
 * The CLI is Go code published as Go modules; this builds `pulumi` at the version of the
 * pinned `@pulumi/pulumi` with the Go toolchain from the module proxy, into a cache
 * folder outside the repository keyed by that version
 * (`$IRM_PULUMI_CACHE` or `$XDG_CACHE_HOME/pulumi-irm/pulumi-cli` or
 * `~/.cache/pulumi-irm/pulumi-cli`, then `v<version>/`), and reuses it when present.
 * Beside it go the launchers the engine looks for: the dynamic provider host
 * `pulumi-resource-pulumi-nodejs`, the policy-pack host `pulumi-analyzer-policy-nodejs`
 * and a Node.js language host `pulumi-language-nodejs` (see language-host.cjs: the
 * proxy cannot serve the official host's module), and the YAML language host
 * `pulumi-language-yaml`, built from `github.com/pulumi/pulumi-yaml` as released, with
 * its own go.mod and go.sum pinned in `yaml/`.
 *
 * Nothing here is needed by users who install the CLI the usual way.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { cliCacheDir, pinnedPulumiVersion } from "./locate";

const HERE = __dirname;

function log(message: string): void {
  process.stderr.write(`pulumi:install: ${message}\n`);
}

function fail(message: string): never {
  log(message);
  process.exit(1);
}

/** Environment for the Go toolchain: the module proxy only, no toolchain download. */
function goEnv(workDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GOFLAGS: "-mod=mod",
    GOTOOLCHAIN: "local",
    // The checksum database is out of reach here; go.sum (committed beside go.mod)
    // still pins every module of the pinned version. A user's own setting wins.
    GOSUMDB: process.env.GOSUMDB ?? "off",
    GOWORK: "off",
    GOPATH: process.env.GOPATH ?? path.join(process.env.HOME ?? workDir, "go"),
  };
}

function go(args: string[], cwd: string): void {
  const result = spawnSync("go", args, {
    cwd,
    env: goEnv(cwd),
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (result.error) fail(`could not run go: ${result.error.message}. Install Go 1.26 or newer.`);
  if (result.status !== 0) fail(`go ${args.join(" ")} failed with exit code ${result.status}`);
}

/** The wrapper module in a scratch folder, at the wanted version. */
function prepareModule(src: string, version: string): void {
  fs.rmSync(src, { recursive: true, force: true });
  fs.mkdirSync(src, { recursive: true });
  fs.copyFileSync(path.join(HERE, "go.mod"), path.join(src, "go.mod"));
  fs.copyFileSync(path.join(HERE, "go.sum"), path.join(src, "go.sum"));
  const pinned = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(
    fs.readFileSync(path.join(src, "go.mod"), "utf8"),
  );
  if (pinned?.[1] !== `v${version}`) {
    log(`go.mod pins ${pinned?.[1] ?? "nothing"}; moving it to v${version}`);
    go(
      [
        "get",
        `github.com/pulumi/pulumi/pkg/v3@v${version}`,
        `github.com/pulumi/pulumi/sdk/v3@v${version}`,
      ],
      src,
    );
  }
}

function writeExecutable(file: string, text: string): void {
  fs.writeFileSync(file, text, { mode: 0o755 });
  fs.chmodSync(file, 0o755);
}

/**
 * The launchers the engine looks for beside `pulumi`. Each resolves `@pulumi/pulumi`
 * from its working directory (the program's folder, or the policy pack's), as the
 * official ones do, and says plainly when it is missing. The shell finds the usual
 * `node_modules` folders itself (the provider host starts once or twice per engine
 * step: a second Node.js process only to resolve the path cost about 0.1 s of CPU
 * each time); Node.js's own resolution is the fallback for anything else (`NODE_PATH`,
 * global folders).
 */
function writeLaunchers(bin: string, version: string): void {
  const nodeEntry = (module: string, where: string) => `#!/bin/sh
# Written by pulumi-irm's scripts/pulumi-cli/install.ts.
# The physical folder and its parents, as Node.js resolves from process.cwd().
dir=$(pwd -P)
while :; do
  if [ -f "$dir/node_modules/${module}/index.js" ]; then
    exec node "$dir/node_modules/${module}/index.js" "$@"
  fi
  [ "$dir" = / ] && break
  dir=$(dirname "$dir")
done
entry=$(node -e 'try { console.log(require.resolve(process.argv[1], { paths: [process.cwd()] })) } catch { process.exit(1) }' '${module}') || {
  echo "${where}: @pulumi/pulumi is not installed in $(pwd); run npm install there" >&2
  exit 1
}
exec node "$entry" "$@"
`;
  writeExecutable(
    path.join(bin, "pulumi-resource-pulumi-nodejs"),
    nodeEntry("@pulumi/pulumi/cmd/dynamic-provider", "pulumi-resource-pulumi-nodejs"),
  );
  writeExecutable(
    path.join(bin, "pulumi-analyzer-policy-nodejs"),
    nodeEntry("@pulumi/pulumi/cmd/run-policy-pack", "pulumi-analyzer-policy-nodejs"),
  );
  fs.copyFileSync(path.join(HERE, "language-host.cjs"), path.join(bin, "language-host.cjs"));
  writeExecutable(
    path.join(bin, "pulumi-language-nodejs"),
    `#!/bin/sh
# Written by pulumi-irm's scripts/pulumi-cli/install.ts.
PULUMI_IRM_CLI_VERSION='${version}' exec node "$(dirname "$0")/language-host.cjs" "$@"
`,
  );
}

function builtVersion(pulumi: string): string | undefined {
  try {
    return execFileSync(pulumi, ["version"], {
      encoding: "utf8",
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * `pulumi-language-yaml` beside the CLI, built from the module pinned in `yaml/` unless
 * the one there was built from the same go.mod and go.sum (a stamp of both beside it).
 */
function buildYamlHost(dir: string, bin: string): void {
  const pinned = path.join(HERE, "yaml");
  const stamp = createHash("sha256")
    .update(fs.readFileSync(path.join(pinned, "go.mod")))
    .update(fs.readFileSync(path.join(pinned, "go.sum")))
    .digest("hex");
  const exe = path.join(bin, "pulumi-language-yaml");
  const stampFile = `${exe}.stamp`;
  if (
    fs.existsSync(exe) &&
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, "utf8") === stamp
  ) {
    return;
  }
  log("building the YAML language host pulumi-language-yaml (the first time takes a while)");
  const src = path.join(dir, "src-yaml");
  fs.rmSync(src, { recursive: true, force: true });
  fs.mkdirSync(src, { recursive: true });
  fs.copyFileSync(path.join(pinned, "go.mod"), path.join(src, "go.mod"));
  fs.copyFileSync(path.join(pinned, "go.sum"), path.join(src, "go.sum"));
  const staging = `${exe}.${process.pid}`;
  go(
    [
      "build",
      "-trimpath",
      "-ldflags",
      "-s -w",
      "-o",
      staging,
      "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
    ],
    src,
  );
  fs.renameSync(staging, exe);
  fs.writeFileSync(stampFile, stamp);
  fs.rmSync(src, { recursive: true, force: true });
}

function main(): void {
  const version = pinnedPulumiVersion();
  const dir = cliCacheDir(version);
  const bin = path.join(dir, "bin");
  if (builtVersion(path.join(bin, "pulumi")) !== `v${version}`) {
    log(
      `building the Pulumi CLI v${version} from Go modules into ${dir} (the first time takes a while)`,
    );
    const src = path.join(dir, "src");
    prepareModule(src, version);
    const staging = path.join(dir, `bin.${process.pid}`);
    fs.rmSync(staging, { recursive: true, force: true });
    go(
      [
        "build",
        "-trimpath",
        "-ldflags",
        `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${version}`,
        "-o",
        path.join(staging, "pulumi"),
        "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
      ],
      src,
    );
    if (builtVersion(path.join(staging, "pulumi")) !== `v${version}`)
      fail("the built CLI does not report its version");
    fs.rmSync(bin, { recursive: true, force: true });
    fs.renameSync(staging, bin);
    fs.rmSync(src, { recursive: true, force: true });
  }
  buildYamlHost(dir, bin);
  // Cheap, and keeps the launchers in step with this checkout.
  writeLaunchers(bin, version);
  log(`Pulumi CLI v${version} ready`);
  process.stdout.write(`${dir}\n`);
}

main();
