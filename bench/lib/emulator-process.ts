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
import type { LogEntry, SeedRequest, SeedResult } from "../../tests/support/emulator";
import { REPO_ROOT } from "../../tests/support/installed-package";

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

  const controlAgent = new Agent({ connections: 1, keepAliveTimeout: 600_000 });
  let controlConnects = 0;
  controlAgent.on("connect", () => {
    controlConnects++;
  });

  async function control<T>(method: "GET" | "POST" | "DELETE", where: string, body?: unknown) {
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
