/**
 * The package installed as users install it, for the real engine: `npm pack` of this
 * repository, then `npm install` of that tarball with `@pulumi/pulumi`, `@pulumi/policy`
 * and TypeScript at the versions this repository pins, into one folder outside the
 * repository. Project folders go below it, so every program, provider host and policy
 * pack resolves the one installed copy (and one `@pulumi/pulumi`) by walking up.
 *
 * It is made once per test run (vitest's global setup) and removed at its end.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureBuilt, REPO_ROOT } from "../installed-package";

function pinned(name: string): string {
  const manifest = require.resolve(`${name}/package.json`, { paths: [REPO_ROOT] });
  return JSON.parse(fs.readFileSync(manifest, "utf8")).version as string;
}

/** Creates the base folder and returns its path. Throws with npm's output on failure. */
export function createInstalledBase(): string {
  ensureBuilt();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "irm-real-engine-"));
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const run = (args: string[], cwd: string) => {
    try {
      return execFileSync(npm, args, {
        cwd,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, npm_config_update_notifier: "false" },
      });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      throw new Error(
        `npm ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}${e.stderr ?? ""}`,
      );
    }
  };
  const packed = run(["pack", "--ignore-scripts", "--pack-destination", base], REPO_ROOT)
    .trim()
    .split("\n")
    .pop();
  if (!packed) throw new Error("npm pack printed no tarball name");
  fs.writeFileSync(
    path.join(base, "package.json"),
    JSON.stringify({ name: "irm-real-engine-projects", private: true }, null, 2),
  );
  run(
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      `./${packed}`,
      `@pulumi/pulumi@${pinned("@pulumi/pulumi")}`,
      `@pulumi/policy@${pinned("@pulumi/policy")}`,
      `typescript@${pinned("typescript")}`,
      `@types/node@${pinned("@types/node")}`,
    ],
    base,
  );
  return base;
}
