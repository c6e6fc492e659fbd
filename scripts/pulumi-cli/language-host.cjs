#!/usr/bin/env node
// @ts-check
/**
 * A Node.js language host for the Pulumi engine: what `pulumi-language-nodejs` does for a
 * project folder, for the CLI this project builds from Go modules (the Go module proxy
 * cannot serve the official host's module, so `npm run pulumi:install` installs this one
 * under that name). Users who install the Pulumi CLI the usual way never run it.
 *
 * The engine starts it with its own address as the only argument and reads the port
 * from the first line of stdout. The program itself runs exactly as under the official
 * host: `node <@pulumi/pulumi>/cmd/run ...flags <entry point>` from the program's
 * folder, with the stack's configuration in `PULUMI_CONFIG`; policy packs run through
 * `<@pulumi/pulumi>/cmd/run-policy-pack`. What this host leaves out: synchronous
 * invokes over pipes (`--sync`; the SDK falls back to asynchronous calls), plugin
 * discovery for packages that ship resource plugins (it reports none: the programs it
 * serves use dynamic providers only), dependency installation (`pulumi install`), code
 * generation, and the debugger.
 */
"use strict";

const { spawn } = require("node:child_process");
const net = require("node:net");
const path = require("node:path");

/** Exit code with which `cmd/run` says it already showed the user an actionable message. */
const EXIT_AFTER_USER_MESSAGE = 32;

/** `@pulumi/pulumi` as the program sees it, else next to this file. */
function sdkDirectory() {
  for (const from of [process.cwd(), __dirname]) {
    try {
      return path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [from] }));
    } catch {
      // Not reachable from here; try the next place.
    }
  }
  process.stderr.write(
    "pulumi-language-nodejs: @pulumi/pulumi is not installed in this project; run npm install\n",
  );
  process.exit(1);
}

const SDK = sdkDirectory();
const sdkRequire = (/** @type {string} */ id) => require(require.resolve(id, { paths: [SDK] }));
const grpc = sdkRequire("@grpc/grpc-js");
const services = sdkRequire("@pulumi/pulumi/proto/language_grpc_pb.js");
const messages = sdkRequire("@pulumi/pulumi/proto/language_pb.js");
const pluginMessages = sdkRequire("@pulumi/pulumi/proto/plugin_pb.js");
const emptyMessages = sdkRequire("google-protobuf/google/protobuf/empty_pb.js");
const VERSION =
  process.env.PULUMI_IRM_CLI_VERSION || sdkRequire("@pulumi/pulumi/package.json").version;

/** @type {Set<import("node:child_process").ChildProcess>} */
const children = new Set();

/** Resolves a module the way the official host does: from the program's folder. */
function locate(/** @type {string} */ request, /** @type {string} */ programDir) {
  try {
    return require.resolve(request, { paths: [programDir] });
  } catch {
    throw new Error(
      `It looks like the Pulumi SDK has not been installed in ${programDir}. Have you run npm install?`,
    );
  }
}

/** The runtime options of Pulumi.yaml (`typescript`, `tsconfig`, `nodeargs`) as env and args. */
function runtimeOptions(/** @type {any} */ info) {
  const options = info?.getOptions()?.toJavaScript() ?? {};
  /** @type {Record<string, string>} */
  const env = {};
  if (options.typescript !== false) env.PULUMI_NODEJS_TYPESCRIPT = "true";
  if (typeof options.tsconfig === "string" && options.tsconfig !== "") {
    env.PULUMI_NODEJS_TSCONFIG_PATH = options.tsconfig;
  }
  const nodeargs =
    typeof options.nodeargs === "string" ? options.nodeargs.split(/\s+/).filter(Boolean) : [];
  return { env, nodeargs };
}

/** Config keys as `cmd/run` reads them: `<namespace>:config:<name>`. */
function configJson(/** @type {any} */ map) {
  /** @type {Record<string, string>} */
  const config = {};
  for (const [key, value] of map.entries()) {
    const colon = key.indexOf(":");
    config[colon < 0 ? key : `${key.slice(0, colon)}:config:${key.slice(colon + 1)}`] = value;
  }
  return JSON.stringify(config);
}

function run(/** @type {any} */ call, /** @type {any} */ callback) {
  const req = call.request;
  const info = req.getInfo();
  const programDir = info?.getProgramDirectory() || req.getPwd();
  let runPath;
  try {
    runPath = locate("@pulumi/pulumi/cmd/run", programDir);
  } catch (error) {
    callback(
      null,
      new messages.RunResponse().setError(String(/** @type {Error} */ (error).message)),
    );
    return;
  }
  const args = [runPath];
  const flag = (/** @type {string} */ name, /** @type {string | number | undefined} */ value) => {
    if (value !== undefined && value !== "") args.push(`--${name}`, String(value));
  };
  flag("monitor", req.getMonitorAddress());
  flag("engine", engineAddress);
  flag("organization", req.getOrganization());
  flag("project", req.getProject());
  flag("root-directory", info?.getRootDirectory());
  flag("stack", req.getStack());
  flag("pwd", programDir);
  if (req.getDryrun()) args.push("--dry-run");
  flag("parallel", req.getParallel());
  args.push(info?.getEntryPoint() || req.getProgram() || ".", ...req.getArgsList());

  const { env, nodeargs } = runtimeOptions(info);
  const child = spawn(process.execPath, [...nodeargs, ...args], {
    cwd: programDir,
    env: {
      ...process.env,
      ...env,
      PULUMI_CONFIG: configJson(req.getConfigMap()),
      PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.add(child);
  child.on("error", (error) => {
    children.delete(child);
    callback(
      null,
      new messages.RunResponse().setError(`could not run the program: ${error.message}`),
    );
  });
  child.on("exit", (code, signal) => {
    children.delete(child);
    const response = new messages.RunResponse();
    if (code === EXIT_AFTER_USER_MESSAGE) response.setBail(true);
    else if (code !== 0) {
      response.setError(
        signal
          ? `Program was stopped by ${signal}`
          : `Program exited with non-zero exit code: ${code}`,
      );
    }
    callback(null, response);
  });
}

/** Policy packs (kind `analyzer`) and other Node.js plugins, their output streamed back. */
function runPlugin(/** @type {any} */ call) {
  const req = call.request;
  const info = req.getInfo();
  const programDir = info?.getProgramDirectory() || req.getPwd();
  const analyzer = req.getKind() === "analyzer";
  const fail = (/** @type {string} */ message) =>
    call.destroy(Object.assign(new Error(message), { code: 2 }));
  let runPath;
  try {
    runPath = locate(
      analyzer ? "@pulumi/pulumi/cmd/run-policy-pack" : "@pulumi/pulumi/cmd/run-plugin",
      programDir,
    );
  } catch (error) {
    fail(String(/** @type {Error} */ (error).message));
    return;
  }
  const { env, nodeargs } = runtimeOptions(info);
  const args = analyzer
    ? [runPath, ...nodeargs, ...req.getArgsList(), programDir]
    : [runPath, ...nodeargs, programDir, ...req.getArgsList()];
  /** @type {Record<string, string>} */
  const pluginEnv = { ...env };
  for (const entry of req.getEnvList()) {
    const eq = entry.indexOf("=");
    if (eq > 0) pluginEnv[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  const child = spawn(process.execPath, args, {
    cwd: analyzer ? programDir : req.getPwd() || programDir,
    env: pluginEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  child.stdout.on("data", (chunk) => call.write(new messages.RunPluginResponse().setStdout(chunk)));
  child.stderr.on("data", (chunk) => call.write(new messages.RunPluginResponse().setStderr(chunk)));
  child.on("error", (error) => {
    children.delete(child);
    fail(`could not run the plugin: ${error.message}`);
  });
  child.on("close", (code) => {
    children.delete(child);
    call.write(new messages.RunPluginResponse().setExitcode(code ?? 1));
    call.end();
  });
  call.on("cancelled", () => child.kill("SIGINT"));
}

const unimplemented =
  (/** @type {string} */ name) => (/** @type {any} */ _call, /** @type {any} */ callback) =>
    callback({
      code: grpc.status.UNIMPLEMENTED,
      details: `${name} is not supported by this language host`,
    });

let engineAddress = process.argv[2] ?? "";

const server = new grpc.Server();
server.addService(services.LanguageRuntimeService, {
  handshake(/** @type {any} */ call, /** @type {any} */ callback) {
    engineAddress = call.request.getEngineAddress() || engineAddress;
    callback(null, new messages.LanguageHandshakeResponse());
  },
  getPluginInfo(/** @type {any} */ _call, /** @type {any} */ callback) {
    callback(null, new pluginMessages.PluginInfo().setVersion(VERSION));
  },
  getRequiredPlugins: unimplemented("GetRequiredPlugins"),
  getRequiredPackages(/** @type {any} */ _call, /** @type {any} */ callback) {
    callback(null, new messages.GetRequiredPackagesResponse());
  },
  run,
  runPlugin,
  installDependencies(/** @type {any} */ call) {
    call.end();
  },
  getProgramDependencies(/** @type {any} */ _call, /** @type {any} */ callback) {
    callback(null, new messages.GetProgramDependenciesResponse());
  },
  about(/** @type {any} */ _call, /** @type {any} */ callback) {
    callback(
      null,
      new messages.AboutResponse().setExecutable(process.execPath).setVersion(process.version),
    );
  },
  runtimeOptionsPrompts(/** @type {any} */ _call, /** @type {any} */ callback) {
    callback(null, new messages.RuntimeOptionsResponse());
  },
  cancel(/** @type {any} */ _call, /** @type {any} */ callback) {
    for (const child of children) child.kill("SIGINT");
    callback(null, new emptyMessages.Empty());
  },
  template: unimplemented("Template"),
  generateProject: unimplemented("GenerateProject"),
  generateProgram: unimplemented("GenerateProgram"),
  generatePackage: unimplemented("GeneratePackage"),
  pack: unimplemented("Pack"),
  link: unimplemented("Link"),
});

server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    process.stderr.write(`pulumi-language-nodejs: could not listen: ${error.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${port}\n`);
});

/**
 * Like the official host, stop when the engine is gone (a CLI killed hard cannot stop
 * its plugins): probe the engine's address every few seconds, give up after three
 * refusals in a row.
 */
function watchEngine() {
  let failures = 0;
  const timer = setInterval(() => {
    const [host, port] = splitAddress(engineAddress);
    if (!port) return;
    const socket = net.connect({ host, port: Number(port) });
    socket.setTimeout(2000);
    const done = (/** @type {boolean} */ alive) => {
      socket.destroy();
      failures = alive ? 0 : failures + 1;
      if (failures >= 3) shutdown("SIGTERM");
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  }, 5000);
  timer.unref();
}

function splitAddress(/** @type {string} */ address) {
  const colon = address.lastIndexOf(":");
  return colon < 0
    ? [address, ""]
    : [address.slice(0, colon) || "127.0.0.1", address.slice(colon + 1)];
}

function shutdown(/** @type {NodeJS.Signals} */ signal) {
  for (const child of children) child.kill(signal);
  server.forceShutdown();
  process.exit(0);
}

watchEngine();

for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.on(signal, () => shutdown(signal));
}
