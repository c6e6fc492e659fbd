/**
 * Test equipment: the real dynamic-provider host of `@pulumi/pulumi`, driven over gRPC.
 *
 * The Pulumi engine runs dynamic resources by starting
 * `node @pulumi/pulumi/cmd/dynamic-provider <engine address>` with the program's folder
 * as working directory, reading the port from the first line of its stdout and calling
 * the `ResourceProvider` service. This module does the same, so tests exercise the
 * serialized provider exactly as `pulumi up` does, without the Pulumi CLI.
 *
 * The host never calls the engine address it is given (it only serves), so a dummy one
 * is enough. It caches providers per `__provider` text: start a fresh host per run.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as providerService from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerMessages from "@pulumi/pulumi/proto/provider_pb";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import type { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { REPO_ROOT } from "./installed-package";

/** Plain JSON-like property bag, as the engine exchanges them with providers. */
export type PropertyMap = Record<string, unknown>;

/** The value that stands for "not known yet" (a preview's unresolved output). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Marker the engine wraps secret values in; the host unwraps it in Configure. */

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult {
  inputs: PropertyMap;
  failures: CheckFailure[];
}

export type DiffChanges = "none" | "some" | "unknown";

export interface DiffResult {
  changes: DiffChanges;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

export interface CreateResult {
  id: string;
  properties: PropertyMap;
}

export interface ReadResult {
  /** Empty when the provider reports the object gone. */
  id: string;
  properties: PropertyMap;
  /** Inputs the provider wants the next diff to compare with, if it returned any. */
  inputs?: PropertyMap;
}

/** An error the host answered with; `message` is the provider's own message. */
export class ProviderHostError extends Error {
  constructor(
    readonly method: string,
    readonly urn: string,
    readonly grpcCode: number,
    message: string,
  ) {
    super(message);
    this.name = "ProviderHostError";
  }
}

export interface StartProviderHostOptions {
  /** Working directory of the host: the consumer project holding the program. */
  cwd: string;
  /** Pulumi project name (`PULUMI_NODEJS_PROJECT`), used for unqualified config keys. */
  projectName: string;
  /** Extra environment variables for the host process. */
  env?: Record<string, string | undefined>;
  /**
   * The engine address the host is given (default `127.0.0.1:1`, which never answers:
   * the host never calls it).
   */
  engineAddress?: string;
}

export interface ProviderHost {
  /** Sends provider configuration (`ns:key` → string). Keys in `secretKeys` go as secrets. */
  configure(config: Record<string, string>, secretKeys?: string[]): Promise<void>;
  check(urn: string, olds: PropertyMap, news: PropertyMap): Promise<CheckResult>;
  diff(id: string, urn: string, olds: PropertyMap, news: PropertyMap): Promise<DiffResult>;
  create(urn: string, properties: PropertyMap): Promise<CreateResult>;
  read(id: string, urn: string, properties: PropertyMap, inputs?: PropertyMap): Promise<ReadResult>;
  update(id: string, urn: string, olds: PropertyMap, news: PropertyMap): Promise<PropertyMap>;
  delete(id: string, urn: string, properties: PropertyMap): Promise<void>;
  /** What the host wrote to stderr so far (stack traces of failed calls). */
  stderr(): string;
  /** Settles with the host process's exit code once it has exited. */
  exited: Promise<number | null>;
  /** Closes the channel and stops the host process. */
  close(): Promise<void>;
}

/** Path of the host's entry point inside the repository's `@pulumi/pulumi`. */
export function providerHostEntry(): string {
  const requireFromRepo = createRequire(path.join(REPO_ROOT, "package.json"));
  return path.join(
    path.dirname(requireFromRepo.resolve("@pulumi/pulumi/package.json")),
    "cmd",
    "dynamic-provider",
    "index.js",
  );
}

/** Starts a host process and connects to it; resolves once the port is known. */
export async function startProviderHost(options: StartProviderHostOptions): Promise<ProviderHost> {
  const engine = options.engineAddress ?? "127.0.0.1:1";
  const child = spawn(process.execPath, [providerHostEntry(), engine], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PULUMI_NODEJS_PROJECT: options.projectName },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderrText = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderrText += chunk;
    // LIFECYCLE_DEBUG=1 shows the host's own stack traces while a test runs.
    if (process.env.LIFECYCLE_DEBUG) process.stderr.write(chunk);
  });

  const port = await readPort(child, () => stderrText);
  const client = new providerService.ResourceProviderClient(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
  );

  type Callback<Res> = (err: grpc.ServiceError | null, res: Res) => void;
  const call = <Res>(
    method: string,
    urn: string,
    invoke: (cb: Callback<Res>) => unknown,
  ): Promise<Res> =>
    new Promise((resolve, reject) => {
      invoke((err, res) => {
        if (err) reject(new ProviderHostError(method, urn, err.code, err.details || err.message));
        else resolve(res);
      });
    });

  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

  return {
    exited,
    async configure(config, secretKeys = []) {
      const args: PropertyMap = {};
      for (const [key, value] of Object.entries(config)) {
        args[key] = secretKeys.includes(key) ? { [specialSigKey]: specialSecretSig, value } : value;
      }
      const req = new providerMessages.ConfigureRequest();
      req.setArgs(toStruct(args));
      req.setAcceptsecrets(true);
      await call<providerMessages.ConfigureResponse>("Configure", "", (cb) =>
        client.configure(req, cb),
      );
    },

    async check(urn, olds, news) {
      const req = new providerMessages.CheckRequest();
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await call<providerMessages.CheckResponse>("Check", urn, (cb) =>
        client.check(req, cb),
      );
      return {
        inputs: fromStruct(res.getInputs()),
        failures: res
          .getFailuresList()
          .map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },

    async diff(id, urn, olds, news) {
      const req = new providerMessages.DiffRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await call<providerMessages.DiffResponse>("Diff", urn, (cb) =>
        client.diff(req, cb),
      );
      const kinds = providerMessages.DiffResponse.DiffChanges;
      const changes: DiffChanges =
        res.getChanges() === kinds.DIFF_SOME
          ? "some"
          : res.getChanges() === kinds.DIFF_NONE
            ? "none"
            : "unknown";
      return {
        changes,
        replaces: res.getReplacesList(),
        deleteBeforeReplace: res.getDeletebeforereplace(),
      };
    },

    async create(urn, properties) {
      const req = new providerMessages.CreateRequest();
      req.setUrn(urn);
      req.setProperties(toStruct(properties));
      const res = await call<providerMessages.CreateResponse>("Create", urn, (cb) =>
        client.create(req, cb),
      );
      return { id: res.getId(), properties: fromStruct(res.getProperties()) };
    },

    async read(id, urn, properties, inputs) {
      const req = new providerMessages.ReadRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setProperties(toStruct(properties));
      if (inputs) req.setInputs(toStruct(inputs));
      const res = await call<providerMessages.ReadResponse>("Read", urn, (cb) =>
        client.read(req, cb),
      );
      const result: ReadResult = { id: res.getId(), properties: fromStruct(res.getProperties()) };
      if (res.hasInputs()) result.inputs = fromStruct(res.getInputs());
      return result;
    },

    async update(id, urn, olds, news) {
      const req = new providerMessages.UpdateRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setOlds(toStruct(olds));
      req.setNews(toStruct(news));
      const res = await call<providerMessages.UpdateResponse>("Update", urn, (cb) =>
        client.update(req, cb),
      );
      return fromStruct(res.getProperties());
    },

    async delete(id, urn, properties) {
      const req = new providerMessages.DeleteRequest();
      req.setId(id);
      req.setUrn(urn);
      req.setProperties(toStruct(properties));
      await call<Empty>("Delete", urn, (cb) => client.delete(req, cb));
    },

    stderr: () => stderrText,

    async close() {
      client.close();
      await stopProcess(child);
    },
  };
}

/** Converts a property bag to a protobuf Struct, dropping `undefined` as JSON does. */
export function toStruct(value: PropertyMap): Struct {
  return Struct.fromJavaScript(
    JSON.parse(JSON.stringify(value)) as Parameters<typeof Struct.fromJavaScript>[0],
  );
}

/** Converts a protobuf Struct (possibly absent) back to a plain object. */
export function fromStruct(struct: Struct | undefined): PropertyMap {
  return struct ? (struct.toJavaScript() as PropertyMap) : {};
}

/**
 * Port a Pulumi plugin process (provider host, policy pack) prints on its first stdout
 * line; `what` names the process in errors, which carry its stderr.
 */
export function readPort(
  child: ChildProcess,
  stderr: () => string,
  what = "provider host",
): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdoutText = "";
    const onData = (chunk: Buffer) => {
      stdoutText += chunk.toString("utf8");
      const newline = stdoutText.indexOf("\n");
      if (newline < 0) return;
      child.stdout?.off("data", onData);
      // Keep draining stdout so a chatty plugin cannot block on a full pipe.
      child.stdout?.resume();
      const port = Number(stdoutText.slice(0, newline).trim());
      if (Number.isInteger(port) && port > 0) resolve(port);
      else
        reject(
          new Error(
            `${what} printed no port: ${JSON.stringify(stdoutText.slice(0, 200))}\n${stderr()}`,
          ),
        );
    };
    child.stdout?.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) => {
      reject(new Error(`${what} exited (code ${code}) before printing its port:\n${stderr()}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
