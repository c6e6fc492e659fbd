/**
 * One emulator per `--data` file (issue 14, item 13): a second live emulator on the
 * same file refuses to start, naming the file and the holder's pid; a crashed
 * holder (SIGKILL) leaves nothing that stops the next start.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import {
  killHard,
  runCliToExit,
  startCli,
  startCliWithBootstrap,
  stopCleanly,
} from "../support/emulator-cli";
import { caller } from "../support/emulator-http";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "irm-emu-lock-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("one emulator per --data file", () => {
  it("a second CLI on the same file refuses to start, naming the file and the holder's pid", async () => {
    const dataFile = join(dir, "shared.json");
    const bootstrapFile = join(dir, "shared-bootstrap.json");
    const { running: holder, bootstrap: boot } = await startCliWithBootstrap(bootstrapFile, [
      "--data",
      dataFile,
    ]);
    try {
      const second = await runCliToExit(["--port", "0", "--data", dataFile]);
      expect(second.stdout).not.toMatch(/listening on/);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(dataFile);
      expect(second.stderr).toContain(`pid ${holder.child.pid}`);
      // The holder still serves, and its writes are its own.
      const created = await caller(holder.url, boot.token)(
        "POST",
        `/iam/v2beta1/groups/${boot.rootGroupUid}`,
        {
          body: { name: "still mine" },
        },
      );
      expect(created.status).toBe(200);
    } finally {
      expect(await stopCleanly(holder)).toBe(0);
    }
    // Once the holder stopped cleanly, the file is free again.
    const next = await startCli(["--port", "0", "--data", dataFile]);
    expect(await stopCleanly(next)).toBe(0);
  });

  it("after a SIGKILL the next emulator starts on the same file, and then holds it", async () => {
    const dataFile = join(dir, "crashed.json");
    const crashed = await startCli(["--port", "0", "--data", dataFile]);
    await killHard(crashed);
    const restarted = await startCli(["--port", "0", "--data", dataFile]);
    try {
      const refused = await runCliToExit(["--port", "0", "--data", dataFile]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`pid ${restarted.child.pid}`);
    } finally {
      expect(await stopCleanly(restarted)).toBe(0);
    }
  });

  it("a lock file left by a process that is gone does not block a start", async () => {
    const dataFile = join(dir, "stale.json");
    // A pid that existed a moment ago and has exited.
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeFile(`${dataFile}.lock`, `${JSON.stringify({ pid: gone })}\n`);
    const emu = await startEmulator({ port: 0, dataFile });
    await emu.close();
    // Garbage in an old lock file (damaged, or a crash while writing it) does not block either.
    await writeFile(`${dataFile}.lock`, "{");
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(`${dataFile}.lock`, aMinuteAgo, aMinuteAgo);
    const again = await startEmulator({ port: 0, dataFile });
    await again.close();
  });

  it("in process: startEmulator on a file another emulator holds rejects; after close() it starts", async () => {
    const dataFile = join(dir, "in-process.json");
    const first = await startEmulator({ port: 0, dataFile });
    try {
      await expect(startEmulator({ port: 0, dataFile })).rejects.toThrow(
        new RegExp(`${dataFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*pid ${process.pid}`),
      );
    } finally {
      await first.close();
    }
    const second = await startEmulator({ port: 0, dataFile });
    await second.close();
  });

  it("two starts at the same moment on a fresh file: exactly one holds it", async () => {
    const dataFile = join(dir, "race.json");
    const outcomes = await Promise.allSettled([
      startEmulator({ port: 0, dataFile }),
      startEmulator({ port: 0, dataFile }),
      startEmulator({ port: 0, dataFile }),
    ]);
    const started = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    try {
      expect(started).toHaveLength(1);
      expect(refused).toHaveLength(2);
      for (const outcome of refused) {
        expect(String(outcome.reason)).toMatch(/is in use by another emulator \(pid \d+/);
      }
    } finally {
      for (const outcome of started) await outcome.value.close();
    }
  });
});
