/**
 * The V8 code cache the CLI's Node.js processes load in the real-engine tests
 * (`harness/real-engine/compile-cache.cjs`): a module under `node_modules` runs as Node.js
 * runs it (its `require`, `__filename`, `module`), from compiled code saved by an
 * earlier process; an ES module and a file outside `node_modules` are left to Node.js;
 * an edited file runs its new text, whatever its length; a flag set at run time does
 * not make the saved code unusable.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { REPO_ROOT } from "../../harness/installed-package";

const HOOK = path.join(REPO_ROOT, "harness", "real-engine", "compile-cache.cjs");

let root: string;
let cache: string;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

/** `node main.js` with the cache loaded; its stdout, failing on a non-zero exit. */
function run(extraArgs: string[] = []): string {
  const result = spawnSync(process.execPath, [...extraArgs, "main.js"], {
    cwd: root,
    encoding: "utf8",
    env: {
      ...process.env,
      NODE_OPTIONS: `--require ${JSON.stringify(HOOK)}`,
      IRM_COMPILE_CACHE_DIR: cache,
    },
  });
  if (result.status !== 0) throw new Error(`node exited ${result.status}: ${result.stderr}`);
  return result.stdout.trim();
}

/** Each saved file and when it was written: a cache V8 rejected is written again. */
function saved(): Record<string, number> {
  return Object.fromEntries(
    fs.readdirSync(cache).map((name) => [name, fs.statSync(path.join(cache, name)).mtimeMs]),
  );
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "irm-compile-cache-"));
  cache = path.join(root, "cache");
  write(
    "node_modules/lib/index.js",
    [
      "const helper = require('./helper');",
      "exports.describe = () => [",
      "  path.basename(__filename), path.basename(__dirname), module.id === __filename,",
      "  require.resolve('./helper') === path.join(__dirname, 'helper.js'),",
      "  Array.isArray(require.resolve.paths('x')), require.cache[__filename] === module,",
      "  helper.value(),",
      "].join(' ');",
      "const path = require('node:path');",
    ].join("\n"),
  );
  write("node_modules/lib/helper.js", "exports.value = () => 'one';\n");
  write(
    "node_modules/esm/package.json",
    JSON.stringify({ name: "esm", type: "module", exports: "./index.js" }),
  );
  write("node_modules/esm/index.js", "export const kind = 'esm';\n");
  write(
    "main.js",
    "const lib = require('lib');\nconst { kind } = require('esm');\nconsole.log(lib.describe(), kind);\n",
  );
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

it("runs modules as Node.js does, and saves their code for the next process", () => {
  const plain = spawnSync(process.execPath, ["main.js"], { cwd: root, encoding: "utf8" });
  expect(plain.stdout.trim()).toBe("index.js lib true true true true one esm");
  expect(run()).toBe(plain.stdout.trim());
  // Code for the two CommonJS files under node_modules: not main.js, not the ES module.
  const first = saved();
  expect(Object.keys(first)).toHaveLength(2);
  // The next process runs from that code: V8 accepts it, so nothing is saved again.
  expect(run()).toBe(plain.stdout.trim());
  expect(saved()).toEqual(first);
});

it("runs an edited file's new text, even at the same length", () => {
  expect(run()).toContain(" one esm");
  write("node_modules/lib/helper.js", "exports.value = () => 'two';\n");
  expect(run()).toContain(" two esm");
});

it("keeps working when a flag is set at run time, as @pulumi/pulumi sets one", () => {
  // As in @pulumi/pulumi, modules load before the flag is set and after.
  write(
    "main.js",
    "const lib = require('lib');\n" +
      "require('node:v8').setFlagsFromString('--allow-natives-syntax');\n" +
      "const { kind } = require('esm');\nconsole.log(lib.describe(), kind);\n",
  );
  expect(run()).toBe("index.js lib true true true true one esm");
  expect(run()).toBe("index.js lib true true true true one esm");
  const second = saved();
  expect(Object.keys(second)).toHaveLength(2);
  // Code saved under the flags it was compiled with: V8 takes it, nothing is saved again.
  expect(run()).toBe("index.js lib true true true true one esm");
  expect(saved()).toEqual(second);
});

it.runIf(fs.existsSync("/proc/sys/kernel/ns_last_pid"))(
  "writes no cache file through a link planted at a name it would use",
  () => {
    expect(run()).toContain(" one esm");
    const keys = Object.keys(saved());
    for (const key of keys) fs.rmSync(path.join(cache, key));
    // The next processes' ids are about the last one given out: a link at every name
    // the earlier scheme (`<key>.<pid>`) would write, pointing outside the cache.
    const victim = path.join(root, "victim.txt");
    fs.writeFileSync(victim, "precious\n");
    const last = Number(fs.readFileSync("/proc/sys/kernel/ns_last_pid", "utf8"));
    for (const key of keys) {
      for (let pid = last + 1; pid <= last + 400; pid++) {
        fs.symlinkSync(victim, path.join(cache, `${key}.${pid}`));
      }
    }
    expect(run()).toContain(" one esm");
    expect(fs.readFileSync(victim, "utf8")).toBe("precious\n");
    for (const key of keys)
      expect(fs.lstatSync(path.join(cache, key)).isSymbolicLink()).toBe(false);
  },
);
