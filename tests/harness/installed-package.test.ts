/**
 * The installed-package equipment: a consumer project gets exactly what `npm pack`
 * ships and resolves it through the `exports` map, so a broken map fails as it would
 * for a user.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConsumerProject,
  createConsumerProject,
  ensureBuilt,
  packedFiles,
  REPO_ROOT,
  scratchDir,
} from "../../harness/installed-package";

const fakePackageRoot = scratchDir("fake-package-src");
const fakeProgramDir = scratchDir("fake-program");
const projects: ConsumerProject[] = [];

function writeFile(relative: string, content: string): void {
  const target = path.join(fakePackageRoot, relative);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, content);
}

describe("installed package copy", () => {
  beforeAll(() => {
    fs.rmSync(fakePackageRoot, { recursive: true, force: true });
    writeFile(
      "package.json",
      JSON.stringify({
        name: "fake-pkg",
        version: "1.2.3",
        main: "dist/index.js",
        files: ["dist/", "!dist/**/*.tsbuildinfo"],
        exports: {
          ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
          "./runtime": "./dist/runtime.js",
          "./package.json": "./package.json",
        },
      }),
    );
    writeFile("dist/index.js", "exports.kind = 'root';");
    writeFile("dist/runtime.js", "exports.kind = 'runtime';");
    writeFile("dist/build.tsbuildinfo", "{}");
    writeFile("src/index.ts", "export const kind = 'source';");
  });

  afterAll(() => {
    for (const project of projects) project.remove();
    for (const dir of [fakePackageRoot, fakeProgramDir])
      fs.rmSync(dir, { recursive: true, force: true });
    // The failed installs left their folders too.
    for (const name of ["installed-fake-broken-target", "installed-fake-missing-subpath"]) {
      fs.rmSync(scratchDir(name), { recursive: true, force: true });
    }
  });

  it("installs only the packed files and loads them through the exports map", () => {
    const project = createConsumerProject({ name: "installed-fake", packageRoot: fakePackageRoot });
    projects.push(project);
    expect(project.installedFiles).toEqual(["dist/index.js", "dist/runtime.js", "package.json"]);
    expect(fs.existsSync(path.join(project.packageDir, "src"))).toBe(false);
    expect(project.require("fake-pkg")).toEqual({ kind: "root" });
    expect(project.require("fake-pkg/runtime")).toEqual({ kind: "runtime" });
    expect(project.require.resolve("fake-pkg/runtime")).toBe(
      path.join(project.packageDir, "dist", "runtime.js"),
    );
  });

  it("fails when an export points at a file that is not shipped", () => {
    expect(() =>
      createConsumerProject({
        name: "installed-fake-broken-target",
        packageRoot: fakePackageRoot,
        editManifest: (manifest) => {
          manifest.exports = { ...manifest.exports, "./runtime": "./src/index.ts" };
        },
      }),
    ).toThrow(/fake-pkg\/runtime: MODULE_NOT_FOUND/);
  });

  it("fails when a subpath the code needs is missing from the exports map", () => {
    expect(() =>
      createConsumerProject({
        name: "installed-fake-missing-subpath",
        packageRoot: fakePackageRoot,
        requiredSubpaths: [".", "./runtime", "./provider/runtime"],
      }),
    ).toThrow(/fake-pkg\/provider\/runtime: ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it("copies a program folder without its node_modules", () => {
    const programDir = fakeProgramDir;
    fs.rmSync(programDir, { recursive: true, force: true });
    fs.mkdirSync(path.join(programDir, "node_modules", "left-behind"), { recursive: true });
    fs.writeFileSync(path.join(programDir, "index.ts"), "export const answer = 42;\n");
    fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: fake\nruntime: nodejs\n");

    const project = createConsumerProject({
      name: "installed-fake-program",
      packageRoot: fakePackageRoot,
      programDir,
    });
    projects.push(project);
    expect(fs.readFileSync(path.join(project.dir, "index.ts"), "utf8")).toBe(
      "export const answer = 42;\n",
    );
    expect(fs.existsSync(path.join(project.dir, "Pulumi.yaml"))).toBe(true);
    expect(fs.existsSync(path.join(project.dir, "node_modules", "left-behind"))).toBe(false);
    expect(project.require("fake-pkg")).toEqual({ kind: "root" });
  });
});

describe("the packed package, installed with npm into a fresh project", () => {
  const staging = scratchDir("pack-staging");
  const consumer = scratchDir("pack-consumer");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  /** Scripts npm runs (or lists for review) when a package is installed from a tarball. */
  const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"];

  afterAll(() => {
    for (const dir of [staging, consumer]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("keeps prepare for npm ci here, ships no install script, and installs without a warning naming it", () => {
    // `npm ci` in the repository runs `prepare`, which builds dist/.
    const own = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    expect(own.scripts.prepare).toBe("npm run build");
    // The repository's own hooks run on a copy of what `npm pack` ships, so that this
    // test never rewrites the repository's package.json or dist/ while others run; only
    // the build step is skipped (dist/ is copied, built).
    ensureBuilt();
    fs.rmSync(staging, { recursive: true, force: true });
    for (const file of [...packedFiles(REPO_ROOT), "scripts/pack-manifest.mjs"]) {
      fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      fs.copyFileSync(path.join(REPO_ROOT, file), path.join(staging, file));
    }
    const staged = { ...own, scripts: { ...own.scripts, build: "node -e 0" } };
    const stagedText = `${JSON.stringify(staged, null, 2)}\n`;
    fs.writeFileSync(path.join(staging, "package.json"), stagedText);
    const packed = execFileSync(npm, ["pack", "--json", "--pack-destination", staging], {
      cwd: staging,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    const tarball = path.join(
      staging,
      (JSON.parse(packed) as Array<{ filename: string }>)[0].filename,
    );
    // The manifest is back as it was, and no saved copy is left.
    expect(fs.readFileSync(path.join(staging, "package.json"), "utf8")).toBe(stagedText);
    expect(fs.existsSync(path.join(staging, ".package.json.packing"))).toBe(false);
    const shipped = JSON.parse(
      execFileSync("tar", ["-xOzf", tarball, "package/package.json"], { encoding: "utf8" }),
    );
    expect(Object.keys(shipped.scripts).filter((s) => INSTALL_SCRIPTS.includes(s))).toEqual([]);

    fs.rmSync(consumer, { recursive: true, force: true });
    fs.mkdirSync(consumer, { recursive: true });
    fs.writeFileSync(
      path.join(consumer, "package.json"),
      JSON.stringify({ name: "fresh", version: "1.0.0", private: true }),
    );
    // `--omit=peer`: npm still resolves the whole tree, peers included (a conflict
    // fails here as it would for a user), but does not unpack @pulumi/pulumi's, most
    // of the install's time; this package and its own dependencies are installed.
    const install = spawnSync(
      npm,
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--omit=peer", tarball],
      { cwd: consumer, encoding: "utf8", timeout: 240_000 },
    );
    const output = `${install.stdout}\n${install.stderr}`;
    expect(install.status, output).toBe(0);
    // npm lists every package with install scripts not yet reviewed; this one is not among them.
    const listed = output.split("\n").filter((line) => line.includes(`${own.name}@`));
    expect(listed).toEqual([]);
    expect(output).not.toMatch(/prepare: npm run build/);
    const installed = JSON.parse(
      fs.readFileSync(path.join(consumer, "node_modules", own.name, "package.json"), "utf8"),
    );
    expect(installed.version).toBe(own.version);
  }, 300_000);
});
