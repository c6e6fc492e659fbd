/**
 * `--data FILE`: a snapshot plus an append-only journal, so that an answered write is
 * on disk before its answer leaves (docs/emulator.md, "`--data` files").
 *
 * - `FILE` is a snapshot: the whole state as one JSON document, written atomically
 *   (temporary file in the same directory, fsync, rename, fsync of the directory).
 * - `FILE.journal` holds the changes made since that snapshot, one record a line:
 *   `<crc32 of the JSON, 8 hex> <JSON {seq, clockOffsetMs, ops}>\n`. A record is
 *   appended and fsync'd before any request whose change it carries is answered; the
 *   changes of requests that arrive while one fsync runs share the next one (group
 *   commit).
 * - The journal is folded into a new snapshot (compaction) when it grows as large as
 *   the snapshot, every 30 s while it is not empty, after a very large change (a
 *   `generate` seed), and at a clean stop, which then removes it.
 * - On start: the snapshot, then every journal record with a higher `seq` than the
 *   snapshot's `journalSeq`. A damaged last record (a crash in the middle of an append,
 *   never acknowledged) is dropped; damage before a good record is refused.
 */
import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import * as path from "node:path";
import { crc32 } from "node:zlib";
import type { Clock } from "./clock";
import { KIND_NAMES } from "./kinds";
import { type Change, type SavedState, type State, savedRecords } from "./state";

/** Suffix of the journal beside the data file. */
export const JOURNAL_SUFFIX = ".journal";
/** Compaction at least this often while the journal holds records. */
export const COMPACT_INTERVAL_MS = 30_000;
/** A batch of more changed records than this is saved as a snapshot instead. */
export const MAX_JOURNALED_RECORDS = 20_000;
/** The journal may grow to the snapshot's size, and at least to this, before compaction. */
export const MIN_JOURNAL_BYTES_BEFORE_COMPACTION = 4 * 1024 * 1024;

export function journalFileOf(file: string): string {
  return `${file}${JOURNAL_SUFFIX}`;
}

/** `O_NOFOLLOW` where the platform has it (not on Windows, where links need privileges). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Opens one of the `--data` files without following a symbolic link at its name, and
 * only when it is a regular file, for writing one with no other name (no hard link): a
 * link planted there must not have the emulator truncate, append to or read another
 * file. Throws naming the file and the rule; ENOENT passes through.
 */
export async function openDataFile(
  file: string,
  flags: number,
  mode = 0o600,
): Promise<fs.FileHandle> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, flags | NO_FOLLOW, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new Error(
        `${file} is a symbolic link; the emulator opens its --data files only as regular files (name the link's target instead)`,
      );
    }
    throw error;
  }
  try {
    const stat = await handle.stat();
    const writing = (flags & (constants.O_WRONLY | constants.O_RDWR)) !== 0;
    if (!stat.isFile() || (writing && stat.nlink > 1)) {
      throw new Error(
        `${file} is ${stat.isFile() ? "a file with another name (a hard link)" : "not a regular file"}; the emulator opens its --data files only as regular files of one name`,
      );
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** A `--data` file's text, opened as `openDataFile` does; undefined when it is missing. */
async function readDataText(file: string): Promise<string | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await openDataFile(file, constants.O_RDONLY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

export async function readDataFile(file: string): Promise<SavedState | undefined> {
  const text = await readDataText(file);
  if (text === undefined) return undefined;
  let saved: SavedState;
  try {
    saved = JSON.parse(text) as SavedState;
  } catch {
    throw new Error(`${file}: not a JSON document written by the emulator`);
  }
  if (saved?.version !== 1 || typeof saved.rootGroupUid !== "string") {
    throw new Error(`${file}: not a state file of this emulator version`);
  }
  if (saved.journalSeq !== undefined && !Number.isSafeInteger(saved.journalSeq)) {
    throw new Error(`${file}: journalSeq must be an integer`);
  }
  return saved;
}

/** One journal record: the changes of one group commit. */
export interface JournalRecord {
  seq: number;
  clockOffsetMs: number;
  ops: Change[];
}

export interface ReadJournal {
  /** Whole records with `seq` above the snapshot's, in order. */
  records: JournalRecord[];
  /** Bytes of a damaged last record that were dropped (0 when the journal ended cleanly). */
  droppedBytes: number;
}

function checksum(json: string): string {
  return crc32(json).toString(16).padStart(8, "0");
}

export function encodeRecord(record: JournalRecord): string {
  const json = JSON.stringify(record);
  return `${checksum(json)} ${json}\n`;
}

/** A line's record, or undefined when the line is not a whole, intact record. */
function decodeLine(line: string): JournalRecord | undefined {
  const match = /^([0-9a-f]{8}) (.*)$/s.exec(line);
  if (!match || checksum(match[2]) !== match[1]) return undefined;
  try {
    const record = JSON.parse(match[2]) as JournalRecord;
    if (!Number.isSafeInteger(record.seq) || !Array.isArray(record.ops)) return undefined;
    return record;
  } catch {
    return undefined;
  }
}

export async function readJournal(file: string, afterSeq: number): Promise<ReadJournal> {
  const text = await readDataText(file);
  if (text === undefined) return { records: [], droppedBytes: 0 };
  const records: JournalRecord[] = [];
  let offset = 0;
  let damagedAt: number | undefined;
  while (offset < text.length) {
    const end = text.indexOf("\n", offset);
    const line = text.slice(offset, end < 0 ? text.length : end);
    const record = end < 0 ? undefined : decodeLine(line);
    if (!record) {
      damagedAt ??= offset;
    } else if (damagedAt !== undefined) {
      // A whole record after a damaged one: not a torn append but a damaged file.
      throw new Error(
        `${file}: the journal is damaged at byte ${Buffer.byteLength(text.slice(0, damagedAt))} ` +
          "before later records; move it away to start from the snapshot alone",
      );
    } else if (record.seq > afterSeq) {
      records.push(record);
    }
    offset = end < 0 ? text.length : end + 1;
  }
  const droppedBytes =
    damagedAt === undefined
      ? 0
      : Buffer.byteLength(text) - Buffer.byteLength(text.slice(0, damagedAt));
  return { records, droppedBytes };
}

/**
 * The snapshot with the journal's records applied, as one state to load: replayed on
 * plain maps and loaded in bulk, so a long journal costs no sorted insert per record.
 */
export function foldJournal(saved: SavedState, records: readonly JournalRecord[]): SavedState {
  if (records.length === 0) return saved;
  const folded: SavedState = { ...saved };
  const byCollection = new Map<string, Map<string, { uid: string }>>();
  for (const name of KIND_NAMES) {
    const records = savedRecords(saved, name) ?? [];
    byCollection.set(name, new Map(records.map((record) => [record.uid, record])));
  }
  for (const record of records) {
    for (const [op, name, value] of record.ops) {
      const collection = byCollection.get(name);
      if (!collection) throw new Error(`journal record ${record.seq}: unknown collection ${name}`);
      if (op === "put" && typeof value === "object" && typeof value?.uid === "string") {
        collection.set(value.uid, value);
      } else if (op === "del" && typeof value === "string") {
        collection.delete(value);
      } else {
        throw new Error(`journal record ${record.seq}: malformed change`);
      }
    }
    folded.clockOffsetMs = record.clockOffsetMs;
    folded.journalSeq = record.seq;
  }
  for (const name of KIND_NAMES) {
    // Each collection keeps its own record type; the journal stored them as they were.
    (folded as unknown as Record<string, unknown[]>)[name] = [
      ...(byCollection.get(name)?.values() ?? []),
    ];
  }
  return folded;
}

/** Removes temporary files a crashed emulator left beside `file` (they never replace it). */
export async function removeStaleTemporaries(file: string): Promise<void> {
  const directory = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix) && name.endsWith(".tmp"))
      .map((name) => fs.rm(path.join(directory, name), { force: true })),
  );
}

async function syncDirectory(directory: string): Promise<void> {
  // Makes a rename or a new file durable; not every platform can fsync a directory.
  try {
    const dir = await fs.open(directory, "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    /* best effort */
  }
}

/**
 * Replaces `file` with `contents` so that a crash leaves the old or the new file, never
 * a mix: a new temporary file (mode 0600, whatever the old file's mode was) in the same
 * directory, fsync, rename, fsync of the directory.
 */
export async function writeAtomically(file: string, contents: string): Promise<void> {
  const directory = path.dirname(file);
  const temporary = path.join(
    directory,
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  const handle = await fs.open(temporary, "wx", 0o600);
  try {
    await handle.writeFile(contents, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
  await syncDirectory(directory);
}

interface Waiter {
  revision: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The `--data` file of a running emulator: `commit()` resolves once every change made
 * so far is durable. One write runs at a time; changes made meanwhile wait for the next.
 */
export class DataStore {
  private journal: fs.FileHandle | undefined;
  private seq: number;
  private durableRevision = -1;
  private journaledClockOffset: number;
  private journalBytes = 0;
  private snapshotBytes = 0;
  /** A change the journal cannot describe (a record changed in place) waits for a snapshot. */
  private snapshotDue = false;
  private compactionRequested = true;
  private waiters: Waiter[] = [];
  /** Callers of `snapshot()`, told once a compaction that started after their call ends. */
  private snapshotWaiters: Waiter[] = [];
  /** The write loop in progress (at most one). */
  private running: Promise<void> | undefined;
  private draining = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly state: State,
    private readonly clock: Clock,
    private readonly keys: () => SavedState["keys"],
    /** The highest journal seq already in the state (snapshot or replayed). */
    lastSeq: number,
    private readonly compactIntervalMs = COMPACT_INTERVAL_MS,
  ) {
    this.seq = lastSeq;
    this.journaledClockOffset = clock.offset;
  }

  /** Writes the first snapshot (folding in a replayed journal) and opens a fresh journal. */
  async open(): Promise<void> {
    this.journal = await openDataFile(
      journalFileOf(this.file),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
    );
    await syncDirectory(path.dirname(this.file));
    await this.snapshot();
    this.timer = setInterval(() => {
      if (this.journalBytes > 0 || this.snapshotDue) {
        this.compactionRequested = true;
        this.kick();
      }
    }, this.compactIntervalMs);
    this.timer.unref();
  }

  /** Resolves once every change made before the call is durable; rejects if it cannot be. */
  commit(): Promise<void> {
    const revision = this.state.revision;
    if (revision <= this.durableRevision) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error(`${this.file} is closed`));
    return new Promise((resolve, reject) => {
      this.waiters.push({ revision, resolve, reject });
      this.kick();
    });
  }

  /** Resolves once a snapshot holding every change made before the call is written. */
  snapshot(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`${this.file} is closed`));
    return new Promise((resolve, reject) => {
      this.snapshotWaiters.push({ revision: this.state.revision, resolve, reject });
      this.compactionRequested = true;
      this.kick();
    });
  }

  /** Final snapshot, then the journal is removed: a cleanly stopped emulator leaves one file. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearInterval(this.timer);
    await this.snapshot();
    this.closed = true;
    await this.running;
    await this.journal?.close();
    this.journal = undefined;
    await fs.rm(journalFileOf(this.file), { force: true });
    await syncDirectory(path.dirname(this.file));
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = true;
    this.running = this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.state.revision > this.durableRevision || this.compactionRequested) {
        try {
          if (
            this.compactionRequested ||
            this.state.pendingChangeCount > MAX_JOURNALED_RECORDS ||
            this.journalBytes >= Math.max(MIN_JOURNAL_BYTES_BEFORE_COMPACTION, this.snapshotBytes)
          ) {
            await this.compact();
          } else {
            await this.append();
          }
          this.settle((waiter) => waiter.revision <= this.durableRevision, undefined);
        } catch (error) {
          // What the failed write held is still in memory: the next attempt saves all of it.
          this.compactionRequested = true;
          const failure = new Error(`could not save ${this.file}: ${String(error)}`);
          process.stderr.write(`emulator: ${failure.message}\n`);
          this.settle(() => true, failure);
          const snapshotWaiters = this.snapshotWaiters;
          this.snapshotWaiters = [];
          for (const waiter of snapshotWaiters) waiter.reject(failure);
          return;
        }
      }
    } finally {
      // Cleared at once, not a microtask later, so a commit() right after starts a new write.
      this.draining = false;
    }
  }

  private settle(which: (waiter: Waiter) => boolean, error: Error | undefined): void {
    const done = this.waiters.filter(which);
    this.waiters = this.waiters.filter((waiter) => !which(waiter));
    for (const waiter of done) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  /** One journal record with every change since the last write, then one fsync. */
  private async append(): Promise<void> {
    const revision = this.state.revision;
    const clockOffsetMs = this.clock.offset;
    const ops = this.state.takeChanges();
    if (ops.length === 0 && clockOffsetMs === this.journaledClockOffset) {
      // Only an in-place change (an identity's lastSeenTime): the next snapshot keeps it.
      this.snapshotDue = true;
      this.durableRevision = revision;
      return;
    }
    // Serialised now, before any other request can change these live records.
    const line = Buffer.from(encodeRecord({ seq: this.seq + 1, clockOffsetMs, ops }), "utf8");
    const journal = this.requireJournal();
    await journal.write(line);
    await journal.datasync();
    this.seq++;
    this.journalBytes += line.length;
    this.journaledClockOffset = clockOffsetMs;
    this.durableRevision = revision;
  }

  /** A snapshot of the whole state, then an empty journal. */
  private async compact(): Promise<void> {
    this.compactionRequested = false;
    const told = this.snapshotWaiters;
    this.snapshotWaiters = [];
    try {
      const revision = this.state.revision;
      const clockOffsetMs = this.clock.offset;
      // The snapshot holds every change so far, journaled or not.
      this.state.discardChanges();
      const text = JSON.stringify(this.state.toSaved(clockOffsetMs, this.keys(), this.seq));
      await writeAtomically(this.file, text);
      // Records up to `seq` are in the snapshot now; were this truncation lost, a restart
      // would skip them by their seq anyway.
      const journal = this.requireJournal();
      await journal.truncate(0);
      await journal.datasync();
      this.snapshotBytes = Buffer.byteLength(text);
      this.journalBytes = 0;
      this.snapshotDue = false;
      this.journaledClockOffset = clockOffsetMs;
      this.durableRevision = revision;
    } catch (error) {
      this.snapshotWaiters.unshift(...told);
      throw error;
    }
    for (const waiter of told) waiter.resolve();
  }

  private requireJournal(): fs.FileHandle {
    if (!this.journal) throw new Error("the journal is not open");
    return this.journal;
  }
}
