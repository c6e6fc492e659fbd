/**
 * A V8 code cache for the Node.js processes the Pulumi CLI starts in the real-engine
 * tests (language host, program, dynamic provider host, policy-pack host), loaded with
 * `NODE_OPTIONS=--require` by `real-stack.ts` and by nothing users run.
 *
 * Each of those processes compiles `@pulumi/pulumi`, the TypeScript compiler and this
 * package again, about 0.4 s of CPU of the 1 to 2 s each spends per engine pass. Here a
 * CommonJS module under `node_modules` is compiled with the code V8 produced for the
 * same file in an earlier process, and the code a process compiled (its lazily compiled
 * functions included) is saved once it has run a moment and at exit. What runs is the
 * same source: only V8's compile step is skipped, and a cache V8 rejects is compiled
 * again. Node.js 22 has this built in (`module.enableCompileCache`); Node.js 20 does
 * not, and `v8-compile-cache` saves only the code compiled eagerly (no gain measured
 * here) and breaks `require` of ES modules.
 *
 * The cache folder is `IRM_COMPILE_CACHE_DIR`; a key is the file's path and text and the
 * V8 flags in force.
 */
"use strict";
const Module = require("node:module");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const v8 = require("node:v8");
const vm = require("node:vm");

const dir = process.env.IRM_COMPILE_CACHE_DIR;

if (dir) {
  const compile = Module.prototype._compile;
  /**
   * Scripts compiled without an accepted cache, to save: [file, script]. All were
   * compiled under the flags now in force: a flag change saves them first.
   */
  const pending = [];

  // V8 rejects code cached under other flags: the flags set at run time (`@pulumi/pulumi`
  // sets `--allow-natives-syntax` as it loads) are part of the key.
  let flags = process.execArgv.join(" ");

  const save = () => {
    for (const [file, script] of pending.splice(0)) {
      try {
        // A new file of an unguessable name (`wx`: never through a link planted there),
        // renamed over the key: a link at the key is replaced, not written through.
        const temp = `${file}.${process.pid}.${crypto.randomBytes(8).toString("hex")}`;
        fs.writeFileSync(temp, script.createCachedData(), { flag: "wx", mode: 0o600 });
        fs.renameSync(temp, file);
      } catch {
        // A cache that cannot be written is only a slower next start.
      }
    }
  };

  const setFlagsFromString = v8.setFlagsFromString;
  v8.setFlagsFromString = function (text) {
    // What was compiled under the flags so far is saved under them, before they change.
    save();
    flags += ` ${text}`;
    return setFlagsFromString.call(this, text);
  };

  Module.prototype._compile = function (content, filename, format) {
    if (format === "module" || !filename.includes(`${path.sep}node_modules${path.sep}`)) {
      return compile.call(this, content, filename, format);
    }
    const key = crypto
      .createHash("sha1")
      .update(`${flags}\0${filename}\0`)
      .update(content)
      .digest("hex");
    const file = path.join(dir, key);
    let cachedData;
    try {
      // Not through a link: the code run is only ever what this cache saved.
      const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
      try {
        cachedData = fs.readFileSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      cachedData = undefined;
    }
    let script;
    try {
      script = new vm.Script(Module.wrap(content), {
        filename,
        cachedData,
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
    } catch {
      // Not CommonJS after all (Node.js then loads it as an ES module), or a syntax
      // error Node.js reports in its own words.
      return compile.call(this, content, filename, format);
    }
    if (cachedData === undefined || script.cachedDataRejected) pending.push([file, script]);
    const wrapper = script.runInThisContext({ displayErrors: true });
    const require = (id) => this.require(id);
    require.resolve = (request, options) => Module._resolveFilename(request, this, false, options);
    require.resolve.paths = (request) => Module._resolveLookupPaths(request, this);
    require.main = process.mainModule;
    require.extensions = Module._extensions;
    require.cache = Module._cache;
    return wrapper.call(
      this.exports,
      this.exports,
      require,
      this,
      filename,
      path.dirname(filename),
    );
  };

  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The provider host is stopped by a signal, not by exiting: save what it compiled
  // while it runs, too.
  setInterval(save, 1000).unref();
  process.on("exit", save);
}
