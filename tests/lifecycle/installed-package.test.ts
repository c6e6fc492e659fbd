/**
 * The installed-package equipment: a consumer project gets exactly what `npm pack`
 * ships and resolves it through the `exports` map, so a broken map fails as it would
 * for a user.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConsumerProject,
  createConsumerProject,
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
