/**
 * `--data` durability (issue 14, item 12): an answered write is on disk. The CLI is
 * killed with SIGKILL in the middle of a burst of concurrent creates, restarted on the
 * same file, and every create it acknowledged must still be there.
 */
import { appendFile, mkdtemp, rm, stat, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  killHard,
  type RunningCli,
  startCli,
  startCliWithBootstrap,
  stopCleanly,
} from "../support/emulator-cli";
import { caller } from "../support/emulator-http";

/** Bounded: this many creates at most, this many in flight, all to 127.0.0.1. */
const TOTAL = 600;
const IN_FLIGHT = 24;
/** The kill lands once this many creates were acknowledged, with the rest in flight. */
const KILL_AFTER = 150;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "irm-emu-durability-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Bootstrap {
  token: string;
  rootGroupUid: string;
}

/**
 * Fires up to TOTAL group creates, IN_FLIGHT at a time, and SIGKILLs the emulator as
 * soon as `killAfter` of them were answered 200. Answers the uids it acknowledged.
 */
async function burstThenKill(
  running: RunningCli,
  boot: Bootstrap,
  prefix: string,
  killAfter: number,
): Promise<{ acknowledged: string[]; failed: number }> {
  const api = caller(running.url, boot.token);
  const acknowledged: string[] = [];
  let failed = 0;
  let next = 0;
  let killed = false;
  const worker = async (): Promise<void> => {
    while (!killed && next < TOTAL) {
      const index = next++;
      try {
        const reply = await api<{ uid: string }>(
          "POST",
          `/iam/v2beta1/groups/${boot.rootGroupUid}`,
          { body: { name: `${prefix}-${index}` } },
        );
        if (reply.status === 200) acknowledged.push(reply.body.uid);
        else failed++;
      } catch {
        failed++; // the connection died with the process: never acknowledged
      }
      if (!killed && acknowledged.length >= killAfter) {
        killed = true;
        running.child.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  await running.exited;
  return { acknowledged, failed };
}

function portOf(running: RunningCli): string {
  return new URL(running.url).port;
}

async function missingAfterRestart(
  running: RunningCli,
  token: string,
  uids: string[],
): Promise<string[]> {
  const api = caller(running.url, token);
  const missing: string[] = [];
  for (let at = 0; at < uids.length; at += 16) {
    const replies = await Promise.all(
      uids.slice(at, at + 16).map(async (uid) => ({
        uid,
        status: (await api("GET", `/iam/v2beta1/groups/${uid}`)).status,
      })),
    );
    for (const reply of replies) if (reply.status !== 200) missing.push(reply.uid);
  }
  return missing;
}

describe("--data durability under SIGKILL", () => {
  it("every create acknowledged before a SIGKILL in a concurrent burst is there after a restart", async () => {
    const dataFile = join(dir, "burst.json");
    const bootstrapFile = join(dir, "burst-bootstrap.json");
    const { running: first, bootstrap: boot } = await startCliWithBootstrap(bootstrapFile, [
      "--no-seed",
      "--data",
      dataFile,
    ]);
    const { acknowledged } = await burstThenKill(first, boot, "burst", KILL_AFTER);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    // The same port: tokens name the emulator's URL as their audience.
    const second = await startCli(["--port", portOf(first), "--data", dataFile]);
    try {
      expect(await missingAfterRestart(second, boot.token, acknowledged)).toEqual([]);
    } finally {
      expect(await stopCleanly(second)).toBe(0);
    }
  });

  it("a torn last journal record is ignored: the emulator starts and keeps every whole record", async () => {
    const dataFile = join(dir, "torn.json");
    const bootstrapFile = join(dir, "torn-bootstrap.json");
    const { running: first, bootstrap: boot } = await startCliWithBootstrap(bootstrapFile, [
      "--no-seed",
      "--data",
      dataFile,
    ]);
    const api = caller(first.url, boot.token);
    const uids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const reply = await api<{ uid: string }>("POST", `/iam/v2beta1/groups/${boot.rootGroupUid}`, {
        body: { name: `torn-${i}` },
      });
      expect(reply.status).toBe(200);
      uids.push(reply.body.uid);
    }
    await killHard(first);
    // A crash in the middle of an append: the end of one more record never reached the disk.
    const journal = `${dataFile}.journal`;
    expect((await stat(journal)).size).toBeGreaterThan(0);
    await appendFile(journal, '0badc0de {"seq":999,"clockOffsetMs":0,"ops":[["put","groups",{"ui');

    // The same port: tokens name the emulator's URL as their audience.
    const second = await startCli(["--port", portOf(first), "--data", dataFile]);
    expect(await missingAfterRestart(second, boot.token, uids)).toEqual([]);
    const again = caller(second.url, boot.token);
    const later: string[] = [];
    for (let i = 0; i < 3; i++) {
      const reply = await again<{ uid: string }>(
        "POST",
        `/iam/v2beta1/groups/${boot.rootGroupUid}`,
        { body: { name: `later-${i}` } },
      );
      expect(reply.status).toBe(200);
      later.push(reply.body.uid);
    }
    await killHard(second);
    // This time the last whole record is cut short: it alone is dropped.
    await truncate(journal, (await stat(journal)).size - 7);
    const third = await startCli(["--port", portOf(first), "--data", dataFile]);
    try {
      expect(
        await missingAfterRestart(third, boot.token, [...uids, ...later.slice(0, -1)]),
      ).toEqual([]);
    } finally {
      expect(await stopCleanly(third)).toBe(0);
    }
  });
});
