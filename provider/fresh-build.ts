/**
 * A program run as compiled JavaScript (`typescript: false`, the compiled file as `main`)
 * runs whatever was last built: a forgotten `npm run build` would deploy the old program.
 * {@link staleBuild} finds that from the program's own modules, before the program
 * registers its first resource of this package (`resource-class.ts`).
 *
 * Which modules: those Node.js has loaded (`require.cache`) from the program's folder,
 * not below a `node_modules` folder, that have the source map `tsc` writes beside them
 * (`sourceMap: true`: `index.js.map`). The map names the TypeScript files the module was
 * compiled from. With `inlineSources: true` it also holds their text as compiled
 * (`sourcesContent`), compared with the file's text now: exact, whatever the files'
 * times (a fresh clone, a copied folder). Without it, a source changed after the module
 * was written (its modification time later than the module's) is stale. A source no
 * longer there (a build copied elsewhere) is not judged; a module without a map is not
 * either. A program run by ts-node loads `.ts` modules and has nothing to judge. An ES
 * module program (`"type": "module"`, `.mjs`) is not in `require.cache`: not judged.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** What a source map says of the files a module was compiled from. */
interface SourceMap {
  sourceRoot?: unknown;
  sources?: unknown;
  sourcesContent?: unknown;
}

/** A compiled module and the source it was compiled from, older than that source. */
export interface StaleModule {
  module: string;
  source: string;
}

/** Paths below `folder` (with no `node_modules` part between) of loaded JavaScript modules. */
function programModules(modules: Iterable<string>, folder: string): string[] {
  const found: string[] = [];
  for (const file of modules) {
    const relative = path.relative(folder, file);
    if (relative.startsWith("..") || path.isAbsolute(relative)) continue;
    if (relative.split(path.sep).includes("node_modules")) continue;
    if (!file.endsWith(".js") && !file.endsWith(".cjs")) continue;
    found.push(file);
  }
  return found;
}

function readMap(file: string): SourceMap | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const map = JSON.parse(text) as unknown;
    return typeof map === "object" && map !== null ? (map as SourceMap) : undefined;
  } catch {
    return undefined;
  }
}

/** The first source of `module` that changed after it was compiled, if any. */
function staleSource(module: string): string | undefined {
  const mapFile = `${module}.map`;
  const map = readMap(mapFile);
  if (!map || !Array.isArray(map.sources)) return undefined;
  const root = typeof map.sourceRoot === "string" ? map.sourceRoot : "";
  const contents = Array.isArray(map.sourcesContent) ? map.sourcesContent : [];
  let builtAt: number | undefined;
  for (const [index, source] of map.sources.entries()) {
    if (typeof source !== "string" || source.startsWith("webpack:")) continue;
    const file = path.resolve(path.dirname(mapFile), root, source);
    const compiled = contents[index];
    if (typeof compiled === "string") {
      let now: string;
      try {
        now = fs.readFileSync(file, "utf8");
      } catch {
        continue;
      }
      // tsc reads a source without its byte-order mark: the map's text has none.
      if (now.replace(/^\uFEFF/, "") !== compiled) return file;
      continue;
    }
    let changedAt: number;
    try {
      changedAt = fs.statSync(file).mtimeMs;
    } catch {
      continue;
    }
    try {
      builtAt ??= fs.statSync(module).mtimeMs;
    } catch {
      return undefined; // the module is gone since it was loaded: nothing to compare
    }
    if (changedAt > builtAt) return file;
  }
  return undefined;
}

/**
 * The first of the program's compiled modules (`modules`: loaded files; those below
 * `folder`, the program's folder, count) that is older than a TypeScript source it was
 * compiled from, or undefined when every one is as built from the sources now.
 */
export function staleBuild(modules: Iterable<string>, folder: string): StaleModule | undefined {
  for (const module of programModules(modules, folder)) {
    const source = staleSource(module);
    if (source !== undefined) return { module, source };
  }
  return undefined;
}

/** The one-line refusal for `stale`, paths relative to the program's folder. */
export function staleBuildMessage(stale: StaleModule, folder: string): string {
  const name = (file: string) => path.relative(folder, file) || file;
  return (
    `pulumi-irm: the program runs ${name(stale.module)}, compiled before the last change ` +
    `of ${name(stale.source)}: build it again (\`npm run build\`), then run pulumi again. ` +
    "No resource of this package was registered."
  );
}
