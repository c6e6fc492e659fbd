/**
 * The emulator in its own process (`node dist/emulator/cli.js`), as users run it.
 * Timings then do not share an event loop with the load the benchmark generates,
 * nor with the provider host. Controls go over one kept-alive connection whose own
 * connects are subtracted from the emulator's connection count.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Agent, request } from "undici";
import type { Bootstrap } from "../../emulator/index";
import type { LogEntry, SeedRequest, SeedResult } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";

/**
 * Idle time after which the benchmark's own clients close a kept-alive connection: below
 * the emulator's 5 s keep-alive timeout, so no request is sent on a socket the server is
 * closing. Back-to-back requests (everything timed) are not affected.
 */
export const BENCH_KEEP_ALIVE_MS = 2_000;

export interface ConnectionCounts {
  /** Connections accepted since start, not counting the benchmark's control connection. */
  opened: number;
  open: number;
}

export interface EmulatorProcess {
  url: string;
  bootstrap: Bootstrap;
  token: string;
  rootGroupUid: string;
  requests(): Promise<LogEntry[]>;
  clearRequests(): Promise<void>;
  seed(body: SeedRequest): Promise<SeedResult>;
  connections(): Promise<ConnectionCounts>;
  close(): Promise<void>;
}

export async function startEmulatorProcess(): Promise<EmulatorProcess> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "irm-bench-emulator-"));
  const bootstrapFile = path.join(scratch, "bootstrap.json");
  const child = spawn(
    process.execPath,
    [
      path.join(REPO_ROOT, "dist", "emulator", "cli.js"),
      "--port",
      "0",
      "--bootstrap-file",
      bootstrapFile,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = stdout.match(/listening on (\S+)/);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`emulator exited (${code}): ${stderr}`)));
  });
  const bootstrap = JSON.parse(fs.readFileSync(bootstrapFile, "utf8")) as Bootstrap;
  fs.rmSync(scratch, { recursive: true, force: true });

  // Idle control connections are closed well before the emulator's own 5 s keep-alive
  // timeout, so a control call never races the server closing the socket it reuses.
  const controlAgent = new Agent({ connections: 1, keepAliveTimeout: BENCH_KEEP_ALIVE_MS });
  let controlConnects = 0;
  controlAgent.on("connect", () => {
    controlConnects++;
  });

  async function control<T>(
    method: "GET" | "POST" | "DELETE",
    where: string,
    body?: unknown,
  ): Promise<T> {
    try {
      return await controlOnce<T>(method, where, body);
    } catch (error) {
      // A reading or clearing control is safe to repeat after a lost connection; a seed is not.
      const lostConnection = (error as { code?: string }).code === "UND_ERR_SOCKET";
      if (!lostConnection || method === "POST") throw error;
      return controlOnce<T>(method, where, body);
    }
  }

  async function controlOnce<T>(
    method: "GET" | "POST" | "DELETE",
    where: string,
    body?: unknown,
  ): Promise<T> {
    const response = await request(`${url}/emulator/${where}`, {
      method,
      dispatcher: controlAgent,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) {
      throw new Error(`emulator control ${method} ${where}: ${response.statusCode} ${text}`);
    }
    return JSON.parse(text) as T;
  }

  return {
    url,
    bootstrap,
    token: bootstrap.token,
    rootGroupUid: bootstrap.rootGroupUid,
    requests: async () => (await control<{ requests: LogEntry[] }>("GET", "requests")).requests,
    clearRequests: async () => {
      await control("DELETE", "requests");
    },
    seed: (body) => control<SeedResult>("POST", "seed", body),
    async connections() {
      const counts = await control<ConnectionCounts>("GET", "connections");
      return { opened: counts.opened - controlConnects, open: counts.open - 1 };
    },
    async close() {
      await controlAgent.close();
      await stop(child);
    },
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
