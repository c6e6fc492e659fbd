/**
 * Everything the package writes or teaches for a TypeScript program starts it the
 * recommended way (docs/provider.md, "A fast start"): the examples, the project
 * `irm-export` generates and the README's "Use it" point the CLI at
 * `tsconfig.pulumi.json` (transpile only) and keep the type check in a `typecheck`
 * script over `tsconfig.json`. The behaviour on the real CLI is
 * tests/engine/typescript-start.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { LiveOrganisation } from "../../exporter/live";
import { buildProgram } from "../../exporter/program";
import {
  PULUMI_TSCONFIG,
  PULUMI_TSCONFIG_TEXT,
  packageFacts,
  projectFiles,
  TYPECHECK_SCRIPT,
} from "../../exporter/project";
import { REPO_ROOT } from "../../harness/installed-package";

const EXAMPLES = ["org-hierarchy", "github-actions", "platform-access"];

/** `runtime.options` of a Pulumi.yaml, as `key: value` lines. */
function runtimeOptions(yaml: string): string[] {
  const block = yaml.match(/^runtime:\n(?: {2}.*\n)+/m)?.[0] ?? "";
  return block
    .split("\n")
    .filter((line) => line.startsWith("    "))
    .map((line) => line.trim());
}

function expectRecommended(files: Record<string, string>, where: string): void {
  expect(runtimeOptions(files["Pulumi.yaml"]), where).toEqual([
    "typescript: true",
    `tsconfig: ${PULUMI_TSCONFIG}`,
  ]);
  expect(JSON.parse(files[PULUMI_TSCONFIG]), where).toEqual({
    extends: "./tsconfig.json",
    compilerOptions: { noCheck: true },
  });
  const tsconfig = JSON.parse(files["tsconfig.json"]) as {
    compilerOptions: Record<string, unknown>;
  };
  // The file editors and `tsc` read type-checks; what a file-by-file compile cannot do is reported.
  expect(tsconfig.compilerOptions.noCheck, where).toBeUndefined();
  expect(tsconfig.compilerOptions.isolatedModules, where).toBe(true);
}

describe("the recommended TypeScript start", () => {
  it.each(EXAMPLES)("examples/%s", (example) => {
    const dir = path.join(REPO_ROOT, "examples", example);
    const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
    expectRecommended(
      {
        "Pulumi.yaml": read("Pulumi.yaml"),
        "tsconfig.json": read("tsconfig.json"),
        [PULUMI_TSCONFIG]: read(PULUMI_TSCONFIG),
      },
      example,
    );
    expect(JSON.parse(read("package.json")).scripts?.typecheck).toBe(TYPECHECK_SCRIPT);
    expect(read("README.md")).toContain("npm run typecheck");
  });

  it("irm-export's generated project", () => {
    const live: LiveOrganisation = {
      top: { uid: "a".repeat(40), name: "acme", description: "" } as LiveOrganisation["top"],
      topIsRoot: true,
      groups: [],
      identities: [],
      bindings: [],
      roles: [],
      identityProviders: [],
      externalGroupRoleMappings: [],
      accountAssociations: [],
      repos: [],
      subscriptions: [],
      groupInvites: [],
      requests: {},
    };
    const files = projectFiles(
      buildProgram(live, { declareCustomRoles: false }),
      { projectName: "irm-acme", apiUrl: "https://api.example", protect: false, retain: false },
      packageFacts(),
    );
    expect(files[PULUMI_TSCONFIG]).toBe(PULUMI_TSCONFIG_TEXT);
    expectRecommended(files, "irm-export");
    expect(JSON.parse(files["package.json"]).scripts).toEqual({ typecheck: TYPECHECK_SCRIPT });
    expect(files["README.md"]).toContain("npm run typecheck");
  });

  it("README.md's Use it", () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const start = readme.indexOf("\n## Use it\n");
    const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
    const files: Record<string, string> = {};
    // As tests/engine/readme-project.test.ts reads them: a block after a line naming its file.
    for (const match of section.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
      const before = section.slice(0, match.index).trimEnd().split("\n").pop() ?? "";
      const named = /`([^`]+)`:?$/.exec(before);
      if (match[1] !== "sh" && named) files[named[1]] = match[2];
    }
    expectRecommended(files, "README.md");
    expect(section).toContain(`npm pkg set scripts.typecheck="${TYPECHECK_SCRIPT}"`);
    expect(section).toContain("npm run typecheck");
  });
});
