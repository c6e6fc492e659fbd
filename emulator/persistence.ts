/**
 * `--data FILE`: the whole state as one JSON document, written atomically (temp
 * file in the same directory, fsync, rename) so a crash leaves either the old or
 * the new file, never half of one. Writes are coalesced: many changes in a burst
 * cost one write.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import type { SavedState } from "./state";

export const DEFAULT_WRITE_DELAY_MS = 200;

export async function readDataFile(file: string): Promise<SavedState | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let saved: SavedState;
  try {
    saved = JSON.parse(text) as SavedState;
  } catch {
    throw new Error(`${file}: not a JSON document written by the emulator`);
  }
  if (saved?.version !== 1 || typeof saved.rootGroupUid !== "string") {
    throw new Error(`${file}: not a state file of this emulator version`);
  }
  return saved;
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

export async function writeAtomically(file: string, contents: string): Promise<void> {
  const directory = path.dirname(file);
  const temporary = path.join(
    directory,
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  const handle = await fs.open(temporary, "w", 0o600);
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
  // Make the rename itself durable; not every platform can fsync a directory.
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

export class DataFileWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private savedRevision = -1;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => { revision: number; state: SavedState },
    private readonly delayMs = DEFAULT_WRITE_DELAY_MS,
  ) {}

  /** Called after changes; writes once the burst has settled for `delayMs`. */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch((error: unknown) => {
        process.stderr.write(`emulator: could not write ${this.file}: ${String(error)}\n`);
      });
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes now if anything changed since the last write; waits for a write in progress. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.writing) await this.writing;
    const { revision, state } = this.snapshot();
    if (revision === this.savedRevision) return;
    const write = writeAtomically(this.file, JSON.stringify(state)).then(() => {
      this.savedRevision = revision;
    });
    this.writing = write.finally(() => {
      this.writing = undefined;
    });
    await this.writing;
  }
}
