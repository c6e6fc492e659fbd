/**
 * The routes benchmark's faces (`bench/lib/faces.ts`): the YAML program written out for
 * a number of teams and its edit, the TypeScript program moved to the generated SDK, the
 * choice of faces by `IRM_BENCH_ROUTES_FACES`, and ts-node's cache emptied before each
 * command (every face as on a fresh CI runner).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { FACES, NATIVE_PYTHON, nativeTypeScript, routesYaml } from "../../bench/lib/faces";
import { freshRunner, pickFaces } from "../../bench/suites/routes";

const FIXTURES = path.join(__dirname, "..", "..", "bench", "fixtures");
const FIXTURE = path.join(FIXTURES, "routes", "index.ts");

/** `name: type` of every resource of a generated program, in order. */
function resources(text: string): Array<[string, string]> {
  const body = text.slice(text.indexOf("\nresources:\n"));
  const found: Array<[string, string]> = [];
  const pattern = /^ {2}([\w-]+):\n {4}type: (\S+)$/gm;
  for (let match = pattern.exec(body); match; match = pattern.exec(body)) {
    found.push([match[1], match[2]]);
  }
  return found;
}

describe("routes faces", () => {
  it("writes the YAML program with four resources per team, on the plugin", () => {
    const text = routesYaml(3, 0);
    expect(text).toContain("runtime: yaml");
    expect(text).toContain("      path: ../node_modules/pulumi-irm/plugin");
    const all = resources(text);
    expect(all).toHaveLength(12);
    expect(all.slice(0, 4)).toEqual([
      ["team-0", "irm:index:Group"],
      ["team-0-services", "irm:index:Group"],
      ["team-0-ci", "irm:index:Identity"],
      ["team-0-ci-viewer", "irm:index:RoleBinding"],
    ]);
    // Children name their team's group by reference; the binding its identity; the
    // role and the root come from config, as in the TypeScript program.
    expect(text).toContain(`      parentUid: \${team-2.uid}\n      name: team-2-services`);
    expect(text).toContain(`      identityUid: \${team-1-ci.uid}\n      roleUid: \${roleUid}`);
    expect(text).toContain(`      parentUid: \${rootGroupUid}\n      name: team-0\n`);
    expect(text).not.toContain("(edited)");
  });

  it("edits the first teams' descriptions only, as the TypeScript program does", () => {
    const before = routesYaml(4, 0).split("\n");
    const after = routesYaml(4, 2).split("\n");
    expect(after).toHaveLength(before.length);
    const changed = after.filter((line, at) => line !== before[at]);
    expect(changed).toEqual([
      "      description: team 0 (edited)",
      "      description: team 1 (edited)",
    ]);
  });

  it("moves the TypeScript program to the generated SDK, and nothing else", () => {
    const program = fs.readFileSync(FIXTURE, "utf8");
    const native = nativeTypeScript(program);
    expect(native).toContain('import * as irm from "pulumi-irm-native";');
    expect(native).not.toContain('from "pulumi-irm"');
    expect(native.replace("pulumi-irm-native", "pulumi-irm")).toBe(program);
    expect(() => nativeTypeScript("export {};")).toThrow(/pulumi-irm/);
  });

  it("edits the Python program's EDITED_TEAMS line", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-routes-python-"));
    try {
      fs.cpSync(path.join(FIXTURES, "routes-python"), dir, { recursive: true });
      const before = fs.readFileSync(path.join(dir, "__main__.py"), "utf8");
      NATIVE_PYTHON.edit(dir, 25, 5);
      const after = fs.readFileSync(path.join(dir, "__main__.py"), "utf8");
      expect(after).toBe(before.replace("EDITED_TEAMS = 0\n", "EDITED_TEAMS = 5\n"));
      expect(() => NATIVE_PYTHON.edit(dir, 25, 5)).toThrow(/EDITED_TEAMS/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("picks faces by id, in run order, and names an unknown one", () => {
    expect(pickFaces(FACES, undefined)).toBe(FACES);
    expect(pickFaces(FACES, "native-yaml, dynamic-readme").map((face) => face.id)).toEqual([
      "dynamic-readme",
      "native-yaml",
    ]);
    expect(() => pickFaces(FACES, "native-yaml,native-cobol")).toThrow(
      /IRM_BENCH_ROUTES_FACES: no face native-cobol/,
    );
  });

  it("empties ts-node's cache folder before a command, keeping the folder", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-routes-cache-"));
    try {
      fs.mkdirSync(path.join(dir, "ts-node-abc", "deep"), { recursive: true });
      fs.writeFileSync(path.join(dir, "ts-node-abc", "deep", "index.js"), "compiled");
      fs.writeFileSync(path.join(dir, "loose.json"), "{}");
      freshRunner(dir);
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("offers the compiled face among the dynamic ones", () => {
    expect(FACES.map((face) => face.id).slice(0, 3)).toEqual([
      "dynamic-readme",
      "dynamic-recommended",
      "dynamic-compiled",
    ]);
  });
});
