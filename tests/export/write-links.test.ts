/**
 * `irm-export` writes no file through a link: every file is created exclusively under
 * a name no one can plant beforehand, then renamed into place, so links planted in
 * `--out` (at a generated file's name, or at a temporary name the export would use)
 * never have a file outside `--out` overwritten.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeProject } from "../../exporter/project";

const FILES: Record<string, string> = {
  "Pulumi.yaml": "name: exported\n",
  "package.json": "{}\n",
  "tsconfig.json": "{}\n",
  "README.md": "# exported\n",
  "index.ts": "// generated\n",
};
const PRECIOUS = "precious, outside --out\n";

let base: string;
beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "irm-export-links-"));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** A folder `--out` with one file of the user's, and five files outside it. */
function scene(name: string): { out: string; outside: (file: string) => string } {
  const out = path.join(base, name, "out");
  const elsewhere = path.join(base, name, "elsewhere");
  fs.mkdirSync(out, { recursive: true });
  fs.mkdirSync(elsewhere, { recursive: true });
  fs.writeFileSync(path.join(out, "Pulumi.dev.yaml"), "config: {}\n");
  for (const file of Object.keys(FILES)) fs.writeFileSync(path.join(elsewhere, file), PRECIOUS);
  return { out, outside: (file) => path.join(elsewhere, file) };
}

function expectUntouched(outside: (file: string) => string): void {
  for (const file of Object.keys(FILES)) {
    expect(fs.readFileSync(outside(file), "utf8"), file).toBe(PRECIOUS);
  }
}

describe("writeProject and links in --out", () => {
  it("--force: links at the temporary names of the earlier scheme are not followed", () => {
    const { out, outside } = scene("temporary-names");
    for (const file of Object.keys(FILES)) {
      fs.symlinkSync(outside(file), path.join(out, `.${file}.irm-export-tmp`));
    }
    writeProject(out, FILES, true);
    expectUntouched(outside);
    for (const [file, content] of Object.entries(FILES)) {
      expect(fs.readFileSync(path.join(out, file), "utf8")).toBe(content);
    }
  });

  it("--force: a link at a generated file's name is replaced by the file, not written through", () => {
    const { out, outside } = scene("final-names");
    for (const file of Object.keys(FILES)) fs.symlinkSync(outside(file), path.join(out, file));
    writeProject(out, FILES, true);
    expectUntouched(outside);
    for (const [file, content] of Object.entries(FILES)) {
      expect(fs.lstatSync(path.join(out, file)).isSymbolicLink(), file).toBe(false);
      expect(fs.readFileSync(path.join(out, file), "utf8")).toBe(content);
    }
    expect(fs.readFileSync(path.join(out, "Pulumi.dev.yaml"), "utf8")).toBe("config: {}\n");
    expect(fs.readdirSync(out).filter((f) => f.includes("irm-export"))).toEqual([]);
  });

  it("a missing --out: written whole, through a new folder, and nothing left beside it", () => {
    const out = path.join(base, "fresh", "out");
    writeProject(out, FILES, false);
    for (const [file, content] of Object.entries(FILES)) {
      expect(fs.readFileSync(path.join(out, file), "utf8")).toBe(content);
    }
    expect(fs.readdirSync(path.dirname(out))).toEqual(["out"]);
  });
});
