/**
 * The example projects as a user gets them: complete Pulumi projects that compile
 * against the installed package's type declarations. Their deployments are the
 * scenarios of tests/engine/.
 */

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { createConsumerProject, REPO_ROOT } from "../../harness/installed-package";
import { readProjectFile } from "../../harness/project-file";

const EXAMPLES = ["org-hierarchy", "github-actions", "platform-access"];

describe("example projects", () => {
  it.each(EXAMPLES)(
    "%s is a complete project depending on the package as users install it",
    (example) => {
      const dir = path.join(REPO_ROOT, "examples", example);
      for (const file of [
        "Pulumi.yaml",
        "index.ts",
        "package.json",
        "tsconfig.json",
        "README.md",
      ]) {
        expect(fs.existsSync(path.join(dir, file)), `${example}/${file}`).toBe(true);
      }
      expect(readProjectFile(dir).name).toBe(example);
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
        dependencies: Record<string, string>;
      };
      expect(manifest.dependencies["pulumi-irm"]).toBe("file:../..");
      expect(manifest.dependencies["@pulumi/pulumi"]).toBeDefined();
      const source = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
      expect(source).toContain('import * as irm from "pulumi-irm";');
      // No uid may be baked into an example: they come from configuration.
      expect(source).not.toMatch(/[0-9a-f]{40}/);
    },
  );

  it("each type-checks against the installed package's declarations", () => {
    // One compiler run for the three, with the tsconfig they share word for word:
    // loading the package's and Pulumi's declarations is most of the cost of a run.
    const tsconfigs = EXAMPLES.map((example) =>
      fs.readFileSync(path.join(REPO_ROOT, "examples", example, "tsconfig.json"), "utf8"),
    );
    expect(new Set(tsconfigs).size).toBe(1);
    const files: Record<string, string> = {};
    for (const example of EXAMPLES) {
      files[`${example}/index.ts`] = fs.readFileSync(
        path.join(REPO_ROOT, "examples", example, "index.ts"),
        "utf8",
      );
    }
    const tsconfig = JSON.parse(tsconfigs[0]) as { files: string[] };
    tsconfig.files = EXAMPLES.map((example) => `${example}/index.ts`);
    files["tsconfig.json"] = JSON.stringify(tsconfig, null, 2);
    const project = createConsumerProject({ name: "typecheck-examples", files });
    try {
      const tsc = require.resolve("typescript/bin/tsc");
      const run = () =>
        execFileSync(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit"], {
          cwd: project.dir,
          encoding: "utf8",
          stdio: "pipe",
        });
      expect(run).not.toThrow();
    } finally {
      project.remove();
    }
  });

  it("the root Pulumi.yaml runs the org-hierarchy example against the local emulator by default", () => {
    const root = readProjectFile(REPO_ROOT);
    expect(root.name).toBe(readProjectFile(path.join(REPO_ROOT, "examples", "org-hierarchy")).name);
    expect(path.resolve(REPO_ROOT, root.main ?? ".")).toBe(
      path.join(REPO_ROOT, "examples", "org-hierarchy"),
    );
    const text = fs.readFileSync(path.join(REPO_ROOT, "Pulumi.yaml"), "utf8");
    expect(text).toMatch(/irm:apiUrl:\s*\n\s*value: http:\/\/127\.0\.0\.1:8787/);
  });
});
