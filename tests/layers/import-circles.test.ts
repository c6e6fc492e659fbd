/**
 * No import circle in the product folders: walking every relative import of their
 * TypeScript files (type-only imports and `export ... from` too, since a type circle
 * still ties the files' meanings together), no file leads back to itself. A failure
 * names each circle's files. The same walk holds the emulator's rooms apart: the gRPC
 * face reads bodies and runs calls without the HTTP server, and the test controls are
 * a handler of their own beside the API's.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "../..");

/** The product folders, every one held to having no circle. */
const FOLDERS = ["provider", "sdk", "emulator", "exporter", "policy"];

/** Every `.ts` file below a folder of the repository, as a path relative to the root. */
function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
    }
  };
  walk(folder);
  return out;
}

/** The repository file a relative specifier names (`./x`, `./x.js`, `./dir` → `dir/index.ts`). */
function resolveImport(from: string, specifier: string, files: ReadonlySet<string>) {
  const base = join(dirname(from), specifier).replace(/\.(js|ts)$/, "");
  return [`${base}.ts`, join(base, "index.ts")].find((candidate) => files.has(candidate));
}

/** Each file's relative imports (value, type-only, re-exports, `import()`), resolved. */
function importGraph(folders: readonly string[]): Map<string, string[]> {
  const files = new Set(["provider", "sdk", "emulator", "exporter", "policy"].flatMap(sourceFiles));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
    const targets = info.importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolveImport(file, specifier, files))
      .filter((target): target is string => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  // Only files of the checked folders, and the edges between them.
  const inFolders = (file: string) => folders.some((folder) => file.startsWith(`${folder}/`));
  return new Map(
    [...graph]
      .filter(([file]) => inFolders(file))
      .map(([file, to]) => [file, to.filter(inFolders)]),
  );
}

/** The strongly connected components of more than one file, or of a file importing itself. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/** Every file `from` leads to, through any number of imports. */
function reachable(graph: ReadonlyMap<string, readonly string[]>, from: string): Set<string> {
  const seen = new Set<string>();
  const walk = (file: string) => {
    for (const to of graph.get(file) ?? []) {
      if (!seen.has(to)) {
        seen.add(to);
        walk(to);
      }
    }
  };
  walk(from);
  return seen;
}

describe("import circles", () => {
  it("finds a circle, type-only imports included", () => {
    expect(
      circles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["c.ts"]],
          ["c.ts", ["a.ts"]],
          ["d.ts", ["a.ts"]],
        ]),
      ),
    ).toEqual([["a.ts", "b.ts", "c.ts"]]);
    const info = ts.preProcessFile(
      'import type { X } from "./x";\nexport * from "./y";',
      true,
      true,
    );
    expect(info.importedFiles.map((f) => f.fileName)).toEqual(["./x", "./y"]);
  });

  it("resolves the imports of the product folders", () => {
    const graph = importGraph(FOLDERS);
    expect(graph.get(join("exporter", "cli.ts"))).toContain(join("exporter", "index.ts"));
  });

  it(`has none in ${FOLDERS.join(", ")}`, () => {
    const found = circles(importGraph(FOLDERS)).map(
      (files) => `a circle through ${files.length} files: ${files.join(", ")}`,
    );
    expect(found, `import circles:\n${found.join("\n")}`).toEqual([]);
  });
});

describe("the emulator's rooms", () => {
  const graph = importGraph(["emulator", "sdk"]);
  const at = (...parts: string[]) => join("emulator", ...parts);

  it("the gRPC face reaches neither the HTTP server nor the test controls", () => {
    const reached = reachable(graph, at("grpc", "face.ts"));
    expect(reached).toContain(at("body.ts"));
    expect(reached).toContain(at("pipeline.ts"));
    for (const file of ["server.ts", "control-route.ts", "controls.ts"]) {
      expect(reached, file).not.toContain(at(file));
    }
  });

  it("the HTTP server mounts the test controls through their own handler", () => {
    expect(graph.get(at("server.ts"))).toContain(at("control-route.ts"));
    expect(graph.get(at("server.ts"))).not.toContain(at("controls.ts"));
    expect(reachable(graph, at("pipeline.ts"))).not.toContain(at("controls.ts"));
  });
});
