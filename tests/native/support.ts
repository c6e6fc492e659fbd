/**
 * What the native plugin's engine tests share: a stack of the YAML org-hierarchy example
 * (`examples/org-hierarchy-yaml`) whose plugin path names the installed package's
 * plugin folder, and the program's edits (its `Pulumi.yaml`).
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import { promisify } from "node:util";
import * as grpc from "@grpc/grpc-js";
import * as providerService from "@pulumi/pulumi/proto/provider_grpc_pb";
import type { TestEmulator } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";
import { logEngineStep } from "../../harness/real-engine/step-log";
import type { EngineStack } from "../../harness/stack";
import { createEngineStack } from "../support/engine-stack";

export const YAML_EXAMPLE = path.join(REPO_ROOT, "examples", "org-hierarchy-yaml");

/**
 * The organisation the org-hierarchy example makes, as `readOrganisation` words it
 * (sorted): its groups by parent and its bindings by identity, role and group.
 */
export const EXAMPLE_ORGANISATION = {
  groups: [
    "engineering <- ROOT",
    "platform <- engineering",
    "payments <- engineering",
    "payments-api <- payments",
  ].sort(),
  bindings: [
    "platform-ci is editor on platform",
    "payments-ci is editor on payments",
    "payments-api-ci is viewer on payments-api",
    "platform-ci is registry.pull on example-org",
    "payments-ci is registry.pull on example-org",
    "payments-api-ci is registry.pull on example-org",
  ].sort(),
};

/** The example's plugin path, as a user's project (the package installed in it) writes it. */
const USER_PLUGIN_PATH = "./node_modules/pulumi-irm/plugin";

/**
 * The stack's project file, with the plugin path naming the installed copy (project
 * folders sit beside the installed base's `node_modules`).
 */
export function projectFile(stack: EngineStack): string {
  return path.join(stack.dir, "Pulumi.yaml");
}

/** Replaces `before` (exactly once) in the stack's `Pulumi.yaml`. */
export function editYaml(stack: EngineStack, before: string, after: string): void {
  const file = projectFile(stack);
  const text = fs.readFileSync(file, "utf8");
  if (text.split(before).length !== 2) throw new Error(`${before} is not in ${file} once`);
  fs.writeFileSync(file, text.replace(before, after));
}

/** Points a project file copied below the installed base at the installed plugin. */
export function useInstalledPlugin(stack: EngineStack): void {
  editYaml(stack, USER_PLUGIN_PATH, "../node_modules/pulumi-irm/plugin");
}

/** A stack of the YAML example on the real engine, against `emulator`. */
export async function createYamlStack(name: string, emulator: TestEmulator): Promise<EngineStack> {
  const stack = await createEngineStack({
    name,
    program: YAML_EXAMPLE,
    emulator,
    projectConfig: { rootGroupUid: emulator.rootGroupUid },
    env: { IRM_DELETE_TIMEOUT_MS: "300" },
  });
  useInstalledPlugin(stack);
  return stack;
}

/** Runs the stack's `pulumi` with `args` in its folder; resolves with stdout and stderr. */
export async function runCli(
  stack: EngineStack,
  args: string[],
): Promise<{ stdout: string; stderr: string }> {
  const started = Date.now();
  try {
    return await promisify(execFile)(stack.cli.path, args, {
      cwd: stack.dir,
      env: stack.cli.env,
      maxBuffer: 16 * 1024 * 1024,
    });
  } finally {
    logEngineStep(path.basename(stack.dir), args[0], args.slice(1), Date.now() - started);
  }
}

/** One request as the recording proxy saw it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  /** The body, as sent ("" for none). */
  body: string;
}

/**
 * A recording HTTP proxy in front of `emulator`: the stack is pointed at `url`, and every
 * request, its body included (which the emulator's own log leaves out), is kept in
 * `taken()` until taken.
 */
export async function recordingProxy(emulator: TestEmulator): Promise<{
  url: string;
  take(): RecordedRequest[];
  close(): Promise<void>;
}> {
  const target = new URL(emulator.url);
  let recorded: RecordedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      recorded.push({
        method: request.method ?? "",
        url: request.url ?? "",
        body: body.toString(),
      });
      const forward = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: target.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on("error", () => response.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    take() {
      const taken = recorded;
      recorded = [];
      return taken;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The write requests of `requests` in words two runs can compare: method, path and
 * query (the update mask), and the body with its keys sorted, every uid of `names`
 * replaced by `<name>`.
 */
export function comparableWrites(
  requests: RecordedRequest[],
  names: Map<string, string>,
): string[] {
  const uids = [...names.keys()].sort((a, b) => b.length - a.length);
  const rename = (text: string) =>
    uids.reduce((out, uid) => out.split(uid).join(names.get(uid) ?? uid), text);
  const sortedJson = (text: string): string => {
    if (text === "") return "";
    const sort = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sort)
        : typeof value === "object" && value !== null
          ? Object.fromEntries(
              Object.keys(value)
                .sort()
                .map((key) => [key, sort((value as Record<string, unknown>)[key])]),
            )
          : value;
    return JSON.stringify(sort(JSON.parse(text)));
  };
  return requests
    .filter((request) => request.method !== "GET")
    .map((r) => `${r.method} ${rename(decodeURIComponent(r.url))} ${rename(sortedJson(r.body))}`);
}

/**
 * The YAML example's text under the project name `project`, with the plugin path of the
 * installed copy and, when `aliased`, every resource aliased to the dynamic type it had
 * (`pulumi-nodejs:dynamic/irm:<Type>`): the move of a TypeScript stack to the plugin.
 */
export function yamlProgram(project: string, aliased: boolean): string {
  let text = fs
    .readFileSync(path.join(YAML_EXAMPLE, "Pulumi.yaml"), "utf8")
    .replace(/^name: .*$/m, `name: ${project}`)
    .replace(USER_PLUGIN_PATH, "../node_modules/pulumi-irm/plugin");
  if (aliased) {
    text = text.replace(
      /^( {4})type: irm:index:(\w+)$/gm,
      "$1type: irm:index:$2\n$1options:\n$1  aliases:\n$1    - type: pulumi-nodejs:dynamic/irm:$2",
    );
  }
  return text;
}

/** The built plugin's launcher, as the engine runs it. */
export const PLUGIN = path.join(REPO_ROOT, "plugin", "pulumi-resource-irm");

// biome-ignore lint/suspicious/noExplicitAny: generated protobuf messages
type Message = any;

/** A plugin process and a gRPC client of it, as the engine holds them. */
export interface PluginProcess {
  /** Calls one unary method (`configure`, `check`, ...) of the `ResourceProvider` service. */
  call(method: string, request: Message): Promise<Message>;
  /** Resolves with the process's exit code. */
  exited: Promise<number | null>;
  /** Sends a signal to the process (default SIGTERM: the plugin stops and exits 0). */
  kill(signal?: NodeJS.Signals): void;
  /** Closes the client and stops the process if it still runs. */
  close(): void;
}

/** Starts the plugin (with `nodeArgs` for Node.js before it) and connects to its port. */
export async function startPlugin(nodeArgs: string[] = []): Promise<PluginProcess> {
  const plugin = spawn(process.execPath, [...nodeArgs, PLUGIN, "127.0.0.1:1"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => plugin.once("exit", resolve));
  const port = await new Promise<string>((resolve, reject) => {
    plugin.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    plugin.once("exit", (code) => reject(new Error(`plugin exited with ${code}`)));
  });
  const client = new providerService.ResourceProviderClient(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
  );
  const methods = client as unknown as Record<
    string,
    (request: Message, done: (error: Error | null, response: Message) => void) => void
  >;
  return {
    call: (method, request) =>
      new Promise((resolve, reject) =>
        methods[method].call(client, request, (error: Error | null, response: Message) =>
          error ? reject(error) : resolve(response),
        ),
      ),
    exited,
    kill: (signal = "SIGTERM") => plugin.kill(signal),
    close: () => {
      client.close();
      if (plugin.exitCode === null && plugin.signalCode === null) plugin.kill();
    },
  };
}
