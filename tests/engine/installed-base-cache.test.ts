/**
 * The installed base (harness/real-engine/installed-base.ts) keeps the dependencies it
 * installed by the lockfile's hash: a second base of the same checkout is packed, and
 * its dependencies come from the cache as hard links, with no `npm install`; the package
 * itself is always this run's tarball.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../harness/installed-package";
import {
  dependencyCache,
  ensureInstalledBase,
  reserveInstalledBase,
} from "../../harness/real-engine/installed-base";
import { describeOnEngine } from "../support/engine-stack";

describeOnEngine("the installed base's dependency cache", () => {
  const second = reserveInstalledBase();

  afterAll(() => {
    fs.rmSync(second, { recursive: true, force: true });
  });

  it("a second base takes this lockfile's dependencies from the cache and only the package fresh", async () => {
    const { base } = inject("realEngine");
    await ensureInstalledBase(base);
    const cache = dependencyCache();
    // What the first install kept: every dependency, not the package.
    expect(fs.existsSync(path.join(cache, "node_modules", "@pulumi", "pulumi"))).toBe(true);
    expect(fs.existsSync(path.join(cache, "node_modules", "pulumi-irm"))).toBe(false);

    await ensureInstalledBase(second);
    // No `npm install` ran (it writes a lockfile): the dependencies are the cache's files.
    expect(fs.existsSync(path.join(second, "package-lock.json"))).toBe(false);
    const file = path.join("node_modules", "@pulumi", "pulumi", "package.json");
    expect(fs.statSync(path.join(second, file)).ino).toBe(fs.statSync(path.join(cache, file)).ino);
    // The package is this checkout's, as npm packs it.
    const shipped = path.join("dist", "provider", "index.js");
    expect(fs.readFileSync(path.join(second, "node_modules", "pulumi-irm", shipped), "utf8")).toBe(
      fs.readFileSync(path.join(REPO_ROOT, shipped), "utf8"),
    );
    expect(fs.existsSync(path.join(second, "node_modules", "pulumi-irm", "tests"))).toBe(false);
    // The package's own commands resolve, as npm links them.
    const bin = fs.realpathSync(path.join(second, "node_modules", ".bin", "irm-export"));
    expect(bin).toBe(path.join(second, "node_modules", "pulumi-irm", "dist", "exporter", "cli.js"));
    // ... and run, as npm makes them executable.
    for (const command of ["irm-export", "irm-emulator", "irm-pending", "pulumi-resource-irm"]) {
      const link = path.join(second, "node_modules", ".bin", command);
      expect(fs.statSync(link).mode & 0o111, command).toBe(0o111);
    }
    const help = execFileSync(path.join(second, "node_modules", ".bin", "irm-export"), ["--help"], {
      encoding: "utf8",
    });
    expect(help).toContain("irm-export");
  }, 300_000);
});
