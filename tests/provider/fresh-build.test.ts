/**
 * A program run as compiled JavaScript is refused when it is older than its TypeScript
 * sources (`provider/fresh-build.ts`): real files, written as `tsc` writes them (the
 * module, its `.js.map` beside it naming `../index.ts`), in a scratch program folder.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staleBuild, staleBuildMessage } from "../../provider/fresh-build";

const SOURCE = 'import * as irm from "pulumi-irm";\nexport const n = 1;\n';

let folder: string;

beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "irm-fresh-build-"));
});

afterEach(() => {
  fs.rmSync(folder, { recursive: true, force: true });
});

/** `bin/<name>.js` compiled from `<name>.ts`, with its map (holding the text when `inline`). */
function build(name: string, text: string, options: { inline: boolean }): string {
  fs.mkdirSync(path.join(folder, "bin"), { recursive: true });
  const module = path.join(folder, "bin", `${name}.js`);
  fs.writeFileSync(module, `"use strict";\n//# sourceMappingURL=${name}.js.map\n`);
  const map = {
    version: 3,
    file: `${name}.js`,
    sourceRoot: "",
    sources: [`../${name}.ts`],
    ...(options.inline ? { sourcesContent: [text] } : {}),
    mappings: "",
  };
  fs.writeFileSync(`${module}.map`, JSON.stringify(map));
  return module;
}

function setTime(file: string, seconds: number): void {
  fs.utimesSync(file, seconds, seconds);
}

describe("staleBuild", () => {
  it("finds nothing when the sources are the text the maps hold", () => {
    fs.writeFileSync(path.join(folder, "index.ts"), SOURCE);
    const module = build("index", SOURCE, { inline: true });
    // Times say nothing when the map holds the text: a fresh clone has any times.
    setTime(module, 1_000);
    expect(staleBuild([module], folder)).toBeUndefined();
  });

  it("a source saved with a byte-order mark is as tsc compiled it, not stale", () => {
    // tsc drops a leading BOM when it reads a source, so the map's text has none.
    fs.writeFileSync(path.join(folder, "index.ts"), `\uFEFF${SOURCE.replace(/^import.*\n/, "")}`);
    const tsc = require.resolve("typescript/bin/tsc");
    execFileSync(
      process.execPath,
      [
        tsc,
        ...["--sourceMap", "--inlineSources", "--outDir", "bin", "--module", "commonjs"],
        "index.ts",
      ],
      { cwd: folder },
    );
    const module = path.join(folder, "bin", "index.js");
    expect(staleBuild([module], folder)).toBeUndefined();
    fs.writeFileSync(path.join(folder, "index.ts"), "\uFEFFexport const n = 2;\n");
    expect(staleBuild([module], folder)).toEqual({ module, source: path.join(folder, "index.ts") });
  });

  it("names the module and the source edited since the build (map with the text)", () => {
    const source = path.join(folder, "index.ts");
    fs.writeFileSync(source, SOURCE);
    const module = build("index", SOURCE, { inline: true });
    fs.writeFileSync(source, SOURCE.replace("1", "2"));
    expect(staleBuild([module], folder)).toEqual({ module, source });
  });

  it("without the text in the map, compares times: a source newer than its module is stale", () => {
    const source = path.join(folder, "index.ts");
    fs.writeFileSync(source, SOURCE);
    const module = build("index", SOURCE, { inline: false });
    setTime(source, 2_000);
    setTime(module, 3_000);
    expect(staleBuild([module], folder)).toBeUndefined();
    setTime(source, 4_000);
    expect(staleBuild([module], folder)).toEqual({ module, source });
  });

  it("judges every loaded module of the program, not only the first", () => {
    fs.writeFileSync(path.join(folder, "index.ts"), SOURCE);
    fs.writeFileSync(path.join(folder, "teams.ts"), "export const teams = 1;\n");
    const index = build("index", SOURCE, { inline: true });
    const teams = build("teams", "export const teams = 0;\n", { inline: true });
    expect(staleBuild([index, teams], folder)).toEqual({
      module: teams,
      source: path.join(folder, "teams.ts"),
    });
  });

  it("leaves alone modules outside the folder, below node_modules, without a map, or whose source is gone", () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "irm-fresh-build-other-"));
    try {
      const copy = path.join(folder, "node_modules", "lib");
      fs.mkdirSync(copy, { recursive: true });
      fs.writeFileSync(path.join(copy, "index.ts"), "changed\n");
      fs.writeFileSync(path.join(copy, "index.js"), "");
      fs.writeFileSync(
        path.join(copy, "index.js.map"),
        JSON.stringify({ sources: ["index.ts"], sourcesContent: ["as built\n"] }),
      );
      fs.writeFileSync(path.join(elsewhere, "x.ts"), "changed\n");
      fs.writeFileSync(path.join(elsewhere, "x.js"), "");
      fs.writeFileSync(
        path.join(elsewhere, "x.js.map"),
        JSON.stringify({ sources: ["x.ts"], sourcesContent: ["as built\n"] }),
      );
      fs.writeFileSync(path.join(folder, "plain.js"), "");
      const gone = build("gone", SOURCE, { inline: true });
      expect(
        staleBuild(
          [
            path.join(copy, "index.js"),
            path.join(elsewhere, "x.js"),
            path.join(folder, "plain.js"),
            gone,
          ],
          folder,
        ),
      ).toBeUndefined();
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("a map that is not JSON is no judgement", () => {
    fs.writeFileSync(path.join(folder, "index.ts"), SOURCE);
    const module = build("index", SOURCE, { inline: true });
    fs.writeFileSync(`${module}.map`, "{not json");
    expect(staleBuild([module], folder)).toBeUndefined();
  });

  it("says what to run, with paths from the program's folder", () => {
    const message = staleBuildMessage(
      { module: path.join(folder, "bin", "index.js"), source: path.join(folder, "index.ts") },
      folder,
    );
    expect(message).toBe(
      "pulumi-irm: the program runs bin/index.js, compiled before the last change of " +
        "index.ts: build it again (`npm run build`), then run pulumi again. " +
        "No resource of this package was registered.",
    );
  });
});
