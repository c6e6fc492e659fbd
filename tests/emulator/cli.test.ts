/**
 * The command line as a user runs it: `node dist/emulator/cli.js --port 0
 * --bootstrap-file F --data D` (npm test builds dist first).
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { descriptorFilePath } from "../../emulator/grpc/descriptors";
import { CLI, startCli, startCliWithBootstrap } from "../support/emulator-cli";
import { caller } from "../support/emulator-http";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "irm-emu-cli-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("npm run emulator", () => {
  it("prints listening on, writes the bootstrap file, serves, keeps --data across a restart, stops on signals", async () => {
    // A folder of its own: the listing below is of this run's files only.
    const own = await mkdtemp(join(dir, "run-"));
    const bootstrapFile = join(own, "bootstrap.json");
    const dataFile = join(own, "state.json");
    const { running: first, bootstrap } = await startCliWithBootstrap(bootstrapFile, [
      "--data",
      dataFile,
    ]);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // grpcUrl is there when the build wrote the gRPC descriptor set (Go was present).
    const grpcOn = descriptorFilePath() !== undefined;
    expect(Object.keys(bootstrap).sort()).toEqual([
      "apiUrl",
      "authUrl",
      ...(grpcOn ? ["grpcUrl"] : []),
      "issuer",
      "rootGroupUid",
      "token",
    ]);
    if (grpcOn) expect(bootstrap.grpcUrl).toBe(first.url);
    expect(bootstrap.apiUrl).toBe(first.url);
    expect(bootstrap.authUrl).toBe(first.url);
    expect(bootstrap.issuer).toBe(`${first.url}/oidc`);
    expect(bootstrap.rootGroupUid).toMatch(/^[0-9a-f]{40}$/);

    const api = caller(first.url, bootstrap.token);
    const created = await api<Record<string, string>>(
      "POST",
      `/iam/v2beta1/groups/${bootstrap.rootGroupUid}`,
      {
        body: { name: "survives restart" },
      },
    );
    expect(created.status).toBe(200);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    const saved = JSON.parse(await readFile(dataFile, "utf8")) as {
      groups: Array<{ uid: string }>;
    };
    expect(saved.groups.map((g) => g.uid)).toContain(created.body.uid);
    // Atomic writes leave no temporary files behind.
    expect((await readdir(own)).sort()).toEqual(["bootstrap.json", "state.json"]);

    // Same port, same data: the old token is still valid and the group is still there.
    const port = new URL(first.url).port;
    const second = await startCli(["--port", port, "--data", dataFile]);
    const again = caller(second.url, bootstrap.token);
    const fetched = await again<Record<string, string>>(
      "GET",
      `/iam/v2beta1/groups/${created.body.uid}`,
    );
    expect(fetched.status).toBe(200);
    expect(fetched.body.name).toBe("survives restart");
    second.child.kill("SIGINT");
    expect(await second.exited).toBe(0);
  });

  it("a crash in the middle of heavy writes leaves a readable data file", async () => {
    const own = await mkdtemp(join(dir, "crash-"));
    const dataFile = join(own, "crash.json");
    const bootstrapFile = join(own, "crash-bootstrap.json");
    const { running, bootstrap } = await startCliWithBootstrap(bootstrapFile, ["--data", dataFile]);
    const control = caller(running.url, null);
    // A large state makes each write take a while, so the kill likely lands inside one.
    await control("POST", "/emulator/seed", {
      body: { generate: { kind: "groups", count: 30_000, parentUid: bootstrap.rootGroupUid } },
    });
    const api = caller(running.url, bootstrap.token);
    for (let i = 0; i < 5; i++) {
      await api("POST", `/iam/v2beta1/groups/${bootstrap.rootGroupUid}`, {
        body: { name: `burst-${i}` },
      });
      await new Promise((later) => setTimeout(later, 60));
    }
    running.child.kill("SIGKILL");
    await running.exited;
    // Whatever instant the crash hit, the file is a whole state, old or new.
    const saved = JSON.parse(await readFile(dataFile, "utf8")) as {
      version: number;
      groups: unknown[];
    };
    expect(saved.version).toBe(1);
    expect(saved.groups.length).toBeGreaterThan(0);
    // The next start loads it and clears any temporary file the crash left.
    const again = await startCli(["--port", "0", "--data", dataFile]);
    expect((await readdir(own)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  });

  it("rejects a bad --port with a usage message", async () => {
    const child = spawn(process.execPath, [CLI, "--port", "http"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((done) => child.on("exit", done));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--port/);
  });
});
