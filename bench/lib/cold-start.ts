/**
 * Cold start of the dynamic-provider host, as the engine starts it for every `up`,
 * `refresh` and `destroy`: spawn in the project folder, the port line on stdout, then the
 * first gRPC answers (`GetPluginInfo`, `Configure`, and the first `Check`, which is when
 * the host deserializes the resource's `__provider` text and loads what it requires).
 * Each mark is milliseconds from spawn.
 */
import { spawn } from "node:child_process";
import * as grpc from "@grpc/grpc-js";
import * as providerService from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as providerMessages from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { now } from "./stats";

export interface ColdStartMarks {
  port: number;
  pluginInfo: number;
  configure: number;
  check: number;
}

export interface ColdStartTarget {
  /** Executable and arguments before the engine address. */
  command: string;
  args: string[];
  /** The project folder (below the installed package). */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Configure's arguments (`ns:key` → value; secrets already wrapped). */
  config: Record<string, unknown>;
  /** The first resource to check: its URN and its inputs from state (with `__provider`). */
  urn: string;
  inputs: Record<string, unknown>;
}

const SAMPLE_TIMEOUT_MS = 60_000;

/** One cold start; the host is stopped afterwards. */
export async function coldStart(target: ColdStartTarget): Promise<ColdStartMarks> {
  const start = now();
  // The host never calls the engine address (it only serves), so a dummy one does.
  const child = spawn(target.command, [...target.args, "127.0.0.1:1"], {
    cwd: target.cwd,
    env: target.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), SAMPLE_TIMEOUT_MS);
  let client: providerService.ResourceProviderClient | undefined;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const newline = stdout.indexOf("\n");
        if (newline < 0) return;
        const value = Number(stdout.slice(0, newline).trim());
        if (Number.isInteger(value) && value > 0) resolve(value);
        else reject(new Error(`host printed no port: ${JSON.stringify(stdout.slice(0, 200))}`));
      });
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`host exited (${code}): ${stderr}`)));
    });
    const portMark = now() - start;
    const service = new providerService.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
    client = service;
    const call = <T>(invoke: (cb: (error: grpc.ServiceError | null, value: T) => void) => void) =>
      new Promise<T>((resolve, reject) =>
        invoke((error, value) => (error ? reject(error) : resolve(value))),
      );
    await call((cb) => service.getPluginInfo(new Empty(), cb));
    const pluginInfo = now() - start;
    const configure = new providerMessages.ConfigureRequest();
    configure.setArgs(Struct.fromJavaScript(target.config as never));
    configure.setAcceptsecrets(true);
    await call((cb) => service.configure(configure, cb));
    const configured = now() - start;
    const check = new providerMessages.CheckRequest();
    check.setUrn(target.urn);
    check.setOlds(Struct.fromJavaScript({}));
    check.setNews(Struct.fromJavaScript(target.inputs as never));
    const answer = await call<providerMessages.CheckResponse>((cb) => service.check(check, cb));
    const failures = answer.getFailuresList();
    if (failures.length > 0) {
      throw new Error(`check failed: ${failures.map((f) => f.getReason()).join("; ")}`);
    }
    return { port: portMark, pluginInfo, configure: configured, check: now() - start };
  } catch (error) {
    throw new Error(`cold start of ${target.command}: ${(error as Error).message}\n${stderr}`);
  } finally {
    clearTimeout(timer);
    client?.close();
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  }
}
