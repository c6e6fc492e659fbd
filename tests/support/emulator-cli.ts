/**
 * The emulator's command line as a user runs it (`node dist/emulator/cli.js ...`),
 * for tests that kill it, restart it or start two of it. `npm test` builds dist first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Bootstrap } from "../../emulator/index";

export const CLI = resolve(__dirname, "../../dist/emulator/cli.js");

export interface RunningCli {
  child: ChildProcess;
  url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  exited: Promise<number | null>;
}

export interface FinishedCli {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnCli(args: string[]): ChildProcess {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  return spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
}

/** Starts the CLI and resolves once it prints `listening on URL`. */
export function startCli(args: string[]): Promise<RunningCli> {
  const child = spawnCli(args);
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  let stdout = "";
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((ready, fail) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /^listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match) ready({ child, url: match[1], stderr: () => stderr, exited });
    });
    child.once("exit", (code) =>
      fail(new Error(`emulator exited (${code}) before listening: ${stderr}`)),
    );
  });
}

/**
 * Starts the CLI on a free port with `args`, writing its bootstrap to `bootstrapFile`;
 * answers it and what the bootstrap file holds once it listens.
 */
export async function startCliWithBootstrap(
  bootstrapFile: string,
  args: string[] = [],
): Promise<{ running: RunningCli; bootstrap: Bootstrap }> {
  const running = await startCli(["--port", "0", ...args, "--bootstrap-file", bootstrapFile]);
  try {
    return { running, bootstrap: JSON.parse(await readFile(bootstrapFile, "utf8")) as Bootstrap };
  } catch (error) {
    await killHard(running);
    throw error;
  }
}

/** Runs the CLI expecting it to stop on its own (a refusal); kills it if it serves instead. */
export function runCliToExit(args: string[], timeoutMs = 20_000): Promise<FinishedCli> {
  const child = spawnCli(args);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    // It started serving: stop it so the test sees the outcome rather than hanging.
    if (/^listening on /m.test(stdout)) child.kill("SIGTERM");
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((done) =>
    child.once("exit", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    }),
  );
}

/** Kills with SIGKILL: no handler runs, nothing is flushed. */
export async function killHard(running: RunningCli): Promise<void> {
  running.child.kill("SIGKILL");
  await running.exited;
}

/** Stops with SIGTERM and answers the exit code. */
export async function stopCleanly(running: RunningCli): Promise<number | null> {
  running.child.kill("SIGTERM");
  return running.exited;
}
