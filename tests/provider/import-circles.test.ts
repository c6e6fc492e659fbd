/**
 * No import circle inside `provider/` (type-only imports included: they tie the modules
 * together for a reader as much as for the compiler). The shape tables sit below the
 * checks and the handlers, which import their types from there.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../provider");

/** Every `.ts` file under `folder`. */
function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The files of `provider/` that `file` imports (relative specifiers only). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+"(\.[^"]+)"/g)];
  return specifiers.flatMap(([, specifier]) => {
    const base = path.resolve(path.dirname(file), specifier);
    const candidate = [`${base}.ts`, path.join(base, "index.ts")].find((f) => fs.existsSync(f));
    return candidate?.startsWith(`${ROOT}${path.sep}`) ? [candidate] : [];
  });
}

/** Each circle found by a depth-first walk, as the files around it. */
function circles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (file: string, trail: string[]): void => {
    const at = trail.indexOf(file);
    if (at !== -1) {
      found.push(trail.slice(at).map((f) => path.relative(ROOT, f)));
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...trail, file]);
    done.add(file);
  };
  for (const file of files) walk(file, []);
  return found;
}

describe("provider/ imports", () => {
  it("form no circle", () => {
    const files = sourceFiles(ROOT);
    expect(files.length).toBeGreaterThan(40);
    expect(circles(files)).toEqual([]);
  });

  it("the shape tables import nothing of the provider but themselves", () => {
    const shapes = sourceFiles(path.join(ROOT, "shapes"));
    const outside = shapes.flatMap((file) =>
      importsOf(file).filter((f) => !f.startsWith(path.join(ROOT, "shapes"))),
    );
    expect(outside).toEqual([]);
  });
});
