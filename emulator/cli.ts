#!/usr/bin/env node
/**
 * `npm run emulator -- [--host H] [--port P] [--bootstrap-file F] [--data F] [--no-seed] [--no-grpc]`
 * Prints `listening on http://HOST:PORT` once ready, writes the bootstrap JSON,
 * and stops cleanly (a last snapshot of `--data`, lock released) on SIGINT or SIGTERM.
 */
import { parseArgs } from "node:util";
import { EMULATOR_DEFAULT_PORT } from "../sdk/settings";
import { startEmulator } from "./index";
import { removeStaleTemporaries, writeAtomically } from "./persistence";

const USAGE =
  "usage: npm run emulator -- [--host 127.0.0.1] [--port 8787] [--bootstrap-file FILE] [--data FILE] [--no-seed] [--no-grpc]";

async function main(): Promise<void> {
  let values: {
    host?: string;
    port?: string;
    "bootstrap-file"?: string;
    data?: string;
    "no-seed"?: boolean;
    "no-grpc"?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: "string" },
        port: { type: "string" },
        "bootstrap-file": { type: "string" },
        data: { type: "string" },
        "no-seed": { type: "boolean" },
        "no-grpc": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = values.port === undefined ? EMULATOR_DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port: must be an integer from 0 to 65535\n${USAGE}\n`);
    process.exit(2);
  }

  const emulator = await startEmulator({
    host: values.host,
    port,
    dataFile: values.data,
    seed: !values["no-seed"],
    grpc: !values["no-grpc"],
  });
  const bootstrapFile = values["bootstrap-file"];
  if (bootstrapFile) {
    // Holds an owner token: readable by the current user only. A new file renamed over
    // the old one, so it is 0600 even if the old one was world-readable, and a reader
    // never sees half of it.
    await removeStaleTemporaries(bootstrapFile);
    await writeAtomically(bootstrapFile, `${JSON.stringify(emulator.bootstrap, null, 2)}\n`);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`emulator: error while stopping on ${signal}: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // Announce only once the signal handlers are in place: a caller may signal at once.
  process.stdout.write(`listening on ${emulator.url}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
