/**
 * Where the real Pulumi CLI is, for tests, the demo and the benchmarks: the folder named
 * by `PULUMI_CLI_DIR` (its `bin/pulumi`), else the cache `npm run pulumi:install` fills,
 * else a `pulumi` on PATH (a usual install). Finding none is an answer, not an error:
 * callers say in one line that they ran without it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The version of `@pulumi/pulumi` this checkout pins (the CLI is built to match it). */
export function pinnedPulumiVersion(): string {
  const manifest = require.resolve("@pulumi/pulumi/package.json", {
    paths: [path.resolve(__dirname, "..", "..")],
  });
  const version: unknown = JSON.parse(fs.readFileSync(manifest, "utf8")).version;
  if (typeof version !== "string" || !/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(`@pulumi/pulumi has no plain version in ${manifest}`);
  }
  return version;
}

/**
 * A cache folder of this project outside the repository, kept between runs:
 * `override` when set, else `$XDG_CACHE_HOME/pulumi-irm/<name>` (`~/.cache` without it).
 */
export function projectCacheDir(name: string, override?: string): string {
  return (
    override ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-irm", name)
  );
}

/** The cache folder of one CLI version (outside the repository). */
export function cliCacheDir(version: string): string {
  return path.join(projectCacheDir("pulumi-cli", process.env.IRM_PULUMI_CACHE), `v${version}`);
}

export interface PulumiCli {
  /** The `pulumi` executable. */
  pulumi: string;
  /** Its install root (`<root>/bin/pulumi`), as the Automation API's `PulumiCommand.get` wants it. */
  root: string;
  /** Folder of `pulumi` and the plugins beside it; goes first on PATH. */
  bin: string;
  /** `vX.Y.Z` as the CLI reports it. */
  version: string;
  /** How it was found. */
  source: "PULUMI_CLI_DIR" | "cache" | "PATH";
}

function reportedVersion(pulumi: string): string | undefined {
  try {
    return execFileSync(pulumi, ["version"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
      timeout: 30_000,
    }).trim();
  } catch {
    return undefined;
  }
}

function onPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return fs.realpathSync(candidate);
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The CLI to use, or undefined when none is at hand. */
export function findPulumiCli(): PulumiCli | undefined {
  const candidates: Array<[string | undefined, PulumiCli["source"]]> = [
    [
      process.env.PULUMI_CLI_DIR
        ? path.join(process.env.PULUMI_CLI_DIR, "bin", "pulumi")
        : undefined,
      "PULUMI_CLI_DIR",
    ],
    [path.join(cliCacheDir(pinnedPulumiVersion()), "bin", "pulumi"), "cache"],
    [onPath("pulumi"), "PATH"],
  ];
  for (const [pulumi, source] of candidates) {
    if (pulumi === undefined || !fs.existsSync(pulumi)) continue;
    const version = reportedVersion(pulumi);
    if (version === undefined) continue;
    const bin = path.dirname(pulumi);
    return { pulumi, bin, root: path.dirname(bin), version, source };
  }
  return undefined;
}
