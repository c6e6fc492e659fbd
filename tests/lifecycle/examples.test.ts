/**
 * The example projects as a user gets them: complete Pulumi projects that compile
 * against the installed package's type declarations; the github-actions example
 * deploys, stays put on a second run, and is destroyed binding first.
 */

import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../support/emulator";
import { createConsumerProject, REPO_ROOT } from "../support/installed-package";
import {
  createExampleStack,
  type ExampleStack,
  writesOf,
} from "../support/lifecycle/example-stack";
import { readProjectFile } from "../support/lifecycle/state";

const EXAMPLES = ["org-hierarchy", "github-actions"];

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

  it.each(EXAMPLES)("%s type-checks against the installed package's declarations", (example) => {
    const project = createConsumerProject({
      name: `typecheck-${example}`,
      programDir: path.join(REPO_ROOT, "examples", example),
    });
    try {
      const tsc = require.resolve("typescript/bin/tsc");
      const run = () =>
        execFileSync(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit"], {
          cwd: project.dir,
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

describe("github-actions example: deploy, no-op, destroy", () => {
  let emulator: TestEmulator;
  let stack: ExampleStack;
  let groupUid: string;
  /** How the request log shows the seeded group (the root's uid reads ROOT). */
  const groupPath = () => groupUid.replace(emulator.rootGroupUid, "ROOT");

  beforeAll(async () => {
    emulator = await startTestEmulator();
    [groupUid] = (
      await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "payments" }] })
    ).groups;
    stack = createExampleStack({
      example: "github-actions",
      emulator,
      projectConfig: { groupUid },
    });
  });

  afterAll(async () => {
    await emulator?.close();
    stack?.project.remove();
  });

  it("creates an identity pinned to the repository's main branch and binds it by role name", async () => {
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(await stack.takeRequests()).toEqual([
      "GET /iam/v2beta1/roles?name=editor&page_size=200 200",
      `POST /iam/v2beta1/identities/${groupPath()} 200`,
      `POST /iam/v2beta1/roleBindings/${groupPath()} 200`,
    ]);
    const identity = stack.state.resources.find((r) => r.urn.endsWith("::deployer"))!;
    expect(identity.outputs.claimMatch).toEqual({
      issuer: "https://token.actions.githubusercontent.com",
      subject: "repo:acme/payments:ref:refs/heads/main",
    });
    expect(stack.state.outputs).toEqual({
      identityUid: identity.id,
      issuer: "https://token.actions.githubusercontent.com",
      subject: "repo:acme/payments:ref:refs/heads/main",
      grants: "payments-deployer is editor on payments",
    });
    const response = await fetch(`${emulator.url}/iam/v2beta1/identities/${identity.id}`, {
      headers: { authorization: `Bearer ${emulator.token}` },
    });
    expect(((await response.json()) as { name: string }).name).toBe("payments-deployer");
  });

  it("changes nothing on a second run and destroys the binding before the identity", async () => {
    const again = await stack.up();
    expect(again.steps.map((s) => s.op)).toEqual(["same", "same"]);
    expect(writesOf(await stack.takeRequests())).toEqual([]);

    const destroyed = await stack.destroy();
    expect(destroyed.error).toBeUndefined();
    expect(await stack.takeRequests()).toEqual([
      "DELETE /iam/v2beta1/roleBindings/<deployer-role> 200",
      "DELETE /iam/v2beta1/identities/<deployer> 200",
    ]);
    expect(destroyed.state.resources).toEqual([]);
  });
});
