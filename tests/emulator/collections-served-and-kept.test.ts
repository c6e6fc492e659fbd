/**
 * Every collection of `emulator/kinds.ts` is served and kept: its v2beta1 route (and its
 * v1 list, when it has one) answers, and a record of it survives a snapshot, the
 * journal and a restart's loading. The kinds come from the list itself, so a new entry
 * is checked without touching this file, and a kind some layer forgets fails here.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Clock } from "../../emulator/clock";
import { KIND_ENTRIES, KIND_NAMES, type KindEntry, v2beta1Path } from "../../emulator/kinds";
import { migrateSavedState } from "../../emulator/migrate";
import {
  DataStore,
  foldJournal,
  journalFileOf,
  readDataFile,
  readJournal,
} from "../../emulator/persistence";
import { type SavedState, State } from "../../emulator/state";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { caller } from "../support/emulator-http";

const NOW = "2026-01-01T00:00:00.000Z";
const KEYS = { api: {}, oidc: {} };

let dir: string;
let emu: TestEmulator;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "irm-emu-kinds-"));
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * A record of `entry` under the root, `tag` telling records apart. The stores check no
 * shape, so one plain record carries every member a name index reads.
 */
function recordOf(state: State, entry: KindEntry, tag: string): { uid: string } {
  const segment = `${tag}${entry.name}`
    .replace(/[^a-f0-9]/g, "")
    .padEnd(16, "0")
    .slice(0, 16);
  const name = `${tag}-${entry.name.toLowerCase()}`;
  return {
    uid: `${state.rootGroupUid}/${segment}`,
    name,
    keyId: name,
    advisoryId: name,
    identityUid: state.ownerIdentityUid,
    roleUid: "0".repeat(40),
    description: "",
    createTime: NOW,
    updateTime: NOW,
  } as { uid: string };
}

/** Adds one record of every kind, as the collection modules do (bindings with their index). */
function addOneOfEach(state: State, tag: string): Map<string, { uid: string }> {
  const added = new Map<string, { uid: string }>();
  for (const entry of KIND_ENTRIES) {
    const record = recordOf(state, entry, tag);
    if (entry.name === "roleBindings") {
      state.addBinding(record as Parameters<State["addBinding"]>[0]);
    } else {
      state.collection(entry.name).insert(record);
    }
    added.set(entry.name, record);
  }
  state.touch();
  return added;
}

/** A restart's reading of `file`: the snapshot, the journal after it, the migration, the load. */
async function restart(file: string): Promise<State> {
  const saved = (await readDataFile(file)) as SavedState;
  const { records } = await readJournal(journalFileOf(file), saved.journalSeq ?? 0);
  const state = new State();
  state.load(migrateSavedState(file, foldJournal(saved, records)));
  return state;
}

function expectEveryKindKept(state: State, added: Map<string, { uid: string }>): void {
  const missing = KIND_NAMES.filter((name) => {
    const record = added.get(name);
    return record === undefined || !state.collection(name).has(record.uid);
  });
  expect(missing, "collections whose record was lost").toEqual([]);
}

describe("every kind of emulator/kinds.ts", () => {
  it("the list names each collection once", () => {
    expect(new Set(KIND_NAMES).size).toBe(KIND_NAMES.length);
    expect(KIND_NAMES.length).toBeGreaterThan(0);
  });

  it("is routed: its v2beta1 list and its v1 list answer", async () => {
    const call = caller(emu.url, emu.token);
    const unanswered: string[] = [];
    for (const entry of KIND_ENTRIES) {
      const paths = [v2beta1Path(entry.name)];
      if (entry.v1 !== undefined) paths.push(`/${entry.domain}/v1/${entry.v1}`);
      for (const path of paths) {
        const reply = await call("GET", path);
        // Answered: a list, or a refusal of its own (a list with REQUIRED filters, such as
        // the artifacts' `ecosystems`), never the router's NOT_FOUND or UNIMPLEMENTED.
        if (reply.status === 404 || reply.status === 501) {
          unanswered.push(`${path}: ${reply.status} ${reply.text}`);
        }
      }
    }
    expect(unanswered).toEqual([]);
    // The check above can fail: a collection no route serves answers NOT_FOUND.
    expect((await call("GET", "/iam/v2beta1/noSuchCollection")).status).toBe(404);
  });

  it("is saved in a snapshot and restored from it", async () => {
    const state = new State();
    state.seed(NOW, "http://127.0.0.1:1/oidc", false);
    const added = addOneOfEach(state, "a");
    const saved = JSON.parse(JSON.stringify(state.toSaved(0, KEYS))) as SavedState;
    for (const name of KIND_NAMES) expect(Object.keys(saved), name).toContain(name);
    const reloaded = new State();
    reloaded.load(migrateSavedState("snapshot.json", saved));
    expectEveryKindKept(reloaded, added);
  });

  it("is journaled, and restored from the snapshot and the journal", async () => {
    const file = join(dir, "journal.json");
    const state = new State();
    state.seed(NOW, "http://127.0.0.1:1/oidc", false);
    const store = new DataStore(file, state, new Clock(), () => KEYS, 0);
    await store.open();
    try {
      // After the first snapshot: these records reach the file through the journal alone.
      const added = addOneOfEach(state, "b");
      await store.commit();
      const { records } = await readJournal(journalFileOf(file), 0);
      const journaled = new Set(records.flatMap((record) => record.ops.map((op) => op[1])));
      expect([...journaled].sort()).toEqual([...KIND_NAMES].sort());
      expectEveryKindKept(await restart(file), added);

      // And every removal is journaled too.
      for (const [name, record] of added) {
        if (name === "roleBindings") state.deleteBinding(record.uid);
        else state.collection(name as (typeof KIND_NAMES)[number]).delete(record.uid);
      }
      state.touch();
      await store.commit();
      const restarted = await restart(file);
      const kept = KIND_NAMES.filter((name) =>
        restarted.collection(name).has(added.get(name)?.uid ?? ""),
      );
      expect(kept, "collections whose removal was lost").toEqual([]);
    } finally {
      await store.close();
    }
  });
});
