/**
 * The emulator CLI with `--data`, SIGKILLed three times in the middle of concurrent
 * creates, updates and deletes, and restarted on the same file and port each time.
 * Every acknowledged effect must survive: an acknowledged create is there, an
 * acknowledged update shows, an acknowledged delete stays deleted. Operations in
 * flight at a kill may go either way and are left out of the checks. Loads go to
 * 127.0.0.1 only and are bounded in count.
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import * as net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killHard, type RunningCli, startCli, stopCleanly } from "../../support/emulator-cli";
import { caller } from "../../support/emulator-http";
import { recordFigures } from "../../support/reliability/figures";

const ROUNDS = 3;
const WORKERS = 24;
/** Each round is killed once this many of its operations were acknowledged. */
const KILL_AFTER = 250;
/** And never sends more than this many. */
const MAX_PER_ROUND = 800;

interface Tracked {
  /** Last acknowledged description, or null once an acknowledged delete removed it. */
  description: string | null;
  /** An operation on it was in flight at a kill: its outcome is unknown. */
  uncertain: boolean;
}

let dir: string;
let port: string;

function freePort(): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port: chosen } = server.address() as net.AddressInfo;
      server.close(() => resolve(String(chosen)));
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "irm-crash-durability-"));
  port = await freePort();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("acknowledged writes survive SIGKILL", () => {
  it("three SIGKILLs in concurrent creates, updates and deletes lose no acknowledged effect", async () => {
    const started = Date.now();
    const dataFile = join(dir, "state.json");
    const bootstrapFile = join(dir, "bootstrap.json");
    const args = ["--port", port, "--no-seed", "--data", dataFile];
    let running: RunningCli = await startCli([...args, "--bootstrap-file", bootstrapFile]);
    // Holds an owner token: read, never printed.
    const boot = JSON.parse(readFileSync(bootstrapFile, "utf8")) as {
      token: string;
      rootGroupUid: string;
    };
    const tracked = new Map<string, Tracked>();
    const acknowledged = { creates: 0, updates: 0, deletes: 0 };
    let inFlightAtKills = 0;
    let sent = 0;

    for (let round = 0; round < ROUNDS; round++) {
      const api = caller(running.url, boot.token);
      const current = running;
      let ackedThisRound = 0;
      let sentThisRound = 0;
      let killed = false;
      const worker = async (w: number): Promise<void> => {
        const mine: string[] = []; // each uid is changed by one worker only: no races on it
        for (let i = 0; !killed && sentThisRound < MAX_PER_ROUND; i++) {
          sentThisRound++;
          sent++;
          const pick = i % 10;
          let uid: string | undefined;
          let apply: ((status: number, body: { uid?: string }) => void) | undefined;
          let request: () => ReturnType<typeof api<{ uid?: string }>>;
          if (pick < 3 && mine.length > 0) {
            uid = mine[(i * 7) % mine.length];
            const description = `r${round} w${w} i${i}`;
            const target = uid;
            request = () =>
              api("PATCH", `/iam/v2beta1/groups/${target}?updateMask=description`, {
                body: { description },
              });
            apply = (status) => {
              if (status !== 200) return;
              acknowledged.updates++;
              const entry = tracked.get(target);
              if (entry) entry.description = description;
            };
          } else if (pick === 3 && mine.length > 0) {
            uid = mine.pop() as string;
            const target = uid;
            request = () => api("DELETE", `/iam/v2beta1/groups/${target}`);
            apply = (status) => {
              if (status !== 200) return;
              acknowledged.deletes++;
              const entry = tracked.get(target);
              if (entry) entry.description = null;
            };
          } else {
            const name = `r${round}-w${w}-${i}`;
            request = () =>
              api("POST", `/iam/v2beta1/groups/${boot.rootGroupUid}`, { body: { name } });
            apply = (status, body) => {
              if (status !== 200 || !body.uid) return;
              acknowledged.creates++;
              tracked.set(body.uid, { description: "", uncertain: false });
              mine.push(body.uid);
            };
          }
          try {
            const reply = await request();
            apply(reply.status, reply.body ?? {});
            if (reply.status === 200) ackedThisRound++;
          } catch {
            // No answer: the process died with it in flight.
            inFlightAtKills++;
            if (uid) {
              const entry = tracked.get(uid);
              if (entry) entry.uncertain = true;
            }
          }
          if (!killed && ackedThisRound >= KILL_AFTER) {
            killed = true;
            current.child.kill("SIGKILL");
          }
        }
      };
      await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      if (!killed) await killHard(current);
      await current.exited;
      expect(ackedThisRound).toBeGreaterThanOrEqual(KILL_AFTER);
      running = await startCli(args);
    }

    // Every certain object, as last acknowledged.
    const api = caller(running.url, boot.token);
    const lost: string[] = [];
    const staleUpdates: string[] = [];
    const resurrected: string[] = [];
    const certain = [...tracked].filter(([, entry]) => !entry.uncertain);
    for (let at = 0; at < certain.length; at += 16) {
      await Promise.all(
        certain.slice(at, at + 16).map(async ([uid, entry]) => {
          const reply = await api<{ description?: string }>("GET", `/iam/v2beta1/groups/${uid}`);
          if (entry.description === null) {
            if (reply.status !== 404) resurrected.push(uid);
          } else if (reply.status !== 200) {
            lost.push(uid);
          } else if ((reply.body.description ?? "") !== entry.description) {
            staleUpdates.push(uid);
          }
        }),
      );
    }
    expect({ lost, staleUpdates, resurrected }).toEqual({
      lost: [],
      staleUpdates: [],
      resurrected: [],
    });

    // A clean stop leaves the data file alone: no journal, no lock, no temporary file.
    expect(await stopCleanly(running)).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["bootstrap.json", "state.json"]);

    recordFigures({
      id: "emulator-sigkill-durability",
      title: `Emulator CLI with --data, SIGKILLed ${ROUNDS} times in ${WORKERS} concurrent writers (creates, updates, deletes), restarted on the same file`,
      injected: `SIGKILL once ${KILL_AFTER} operations of the round were acknowledged, ${ROUNDS} rounds`,
      operations: sent,
      lost: lost.length + staleUpdates.length + resurrected.length,
      duplicates: 0,
      notes: {
        "acknowledged creates": acknowledged.creates,
        "acknowledged updates": acknowledged.updates,
        "acknowledged deletes": acknowledged.deletes,
        "operations in flight at the kills (left out)": inFlightAtKills,
        "objects checked after the last restart": certain.length,
      },
      durationMs: Date.now() - started,
    });
  });
});
