/**
 * The `--data` journal in isolation (emulator/persistence.ts): group commit, replay
 * after a snapshot, torn and damaged records.
 */
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Clock } from "../../emulator/clock";
import {
  DataStore,
  encodeRecord,
  foldJournal,
  journalFileOf,
  readDataFile,
  readJournal,
} from "../../emulator/persistence";
import { State } from "../../emulator/state";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "irm-emu-journal-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const KEYS = { api: {}, oidc: {} };

function addGroup(state: State, name: string): string {
  const uid = `${state.rootGroupUid}/${name.padStart(16, "0")}`;
  state.groups.insert({
    uid,
    name,
    description: "",
    resourceLimits: {},
    verified: false,
    createTime: "2026-01-01T00:00:00.000Z",
    updateTime: "2026-01-01T00:00:00.000Z",
  });
  state.touch();
  return uid;
}

async function journalLines(file: string): Promise<string[]> {
  return (await readFile(journalFileOf(file), "utf8")).split("\n").filter(Boolean);
}

describe("DataStore", () => {
  it("changes made while one fsync runs share the next record (group commit), and replay restores them", async () => {
    const file = join(dir, "group.json");
    const state = new State();
    state.seed("2026-01-01T00:00:00.000Z", "http://127.0.0.1:1/oidc", false);
    const store = new DataStore(file, state, new Clock(), () => KEYS, 0);
    await store.open();

    addGroup(state, "a0");
    const first = store.commit(); // its record holds a0 only: captured at once
    const rest: Promise<void>[] = [];
    const uids: string[] = [];
    for (let i = 1; i < 10; i++) {
      uids.push(addGroup(state, `a${i}`));
      rest.push(store.commit());
    }
    await Promise.all([first, ...rest]);
    const lines = await journalLines(file);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1].slice(9)).ops).toHaveLength(9);

    // As a restart reads it: the snapshot, then the journal.
    const saved = await readDataFile(file);
    const { records } = await readJournal(journalFileOf(file), saved?.journalSeq ?? 0);
    const reloaded = new State();
    reloaded.load(foldJournal(saved as NonNullable<typeof saved>, records));
    for (const uid of uids) expect(reloaded.groups.has(uid)).toBe(true);

    await store.close();
    // A clean stop folds the journal into the snapshot and removes it.
    await expect(readFile(journalFileOf(file))).rejects.toThrow(/ENOENT/);
    const final = await readDataFile(file);
    expect(final?.groups.map((g) => g.uid)).toEqual(expect.arrayContaining(uids));
  });

  it("a deletion and a clock move are journaled too", async () => {
    const file = join(dir, "delete.json");
    const state = new State();
    state.seed("2026-01-01T00:00:00.000Z", "http://127.0.0.1:1/oidc", false);
    const clock = new Clock();
    const store = new DataStore(file, state, clock, () => KEYS, 0);
    await store.open();
    const uid = addGroup(state, "gone");
    await store.commit();
    state.groups.delete(uid);
    clock.advance(3600);
    state.touch();
    await store.commit();
    const saved = await readDataFile(file);
    const { records } = await readJournal(journalFileOf(file), saved?.journalSeq ?? 0);
    const folded = foldJournal(saved as NonNullable<typeof saved>, records);
    expect(folded.groups.some((g) => g.uid === uid)).toBe(false);
    expect(folded.clockOffsetMs).toBe(3_600_000);
    await store.close();
  });
});

describe("readJournal", () => {
  const record = (seq: number) => encodeRecord({ seq, clockOffsetMs: 0, ops: [] });

  it("skips records the snapshot already holds (a crash between the snapshot and emptying the journal)", async () => {
    const file = join(dir, "skip.journal");
    await writeFile(file, record(1) + record(2) + record(3));
    const { records } = await readJournal(file, 2);
    expect(records.map((r) => r.seq)).toEqual([3]);
  });

  it("drops a torn last record, whether cut short or with a bad checksum", async () => {
    const file = join(dir, "torn.journal");
    await writeFile(file, record(1) + record(2).slice(0, 20));
    const cut = await readJournal(file, 0);
    expect(cut.records.map((r) => r.seq)).toEqual([1]);
    expect(cut.droppedBytes).toBe(20);

    const whole = record(2);
    await writeFile(file, record(1) + whole.replace('"seq":2', '"seq":7'));
    const forged = await readJournal(file, 0);
    expect(forged.records.map((r) => r.seq)).toEqual([1]);
    expect(forged.droppedBytes).toBe(whole.length);
  });

  it("refuses a journal damaged before a whole record, naming the byte", async () => {
    const file = join(dir, "damaged.journal");
    await writeFile(file, record(1));
    await appendFile(file, "00000000 {}\n");
    await appendFile(file, record(3));
    await expect(readJournal(file, 0)).rejects.toThrow(
      new RegExp(`damaged at byte ${record(1).length} before later records`),
    );
  });
});
