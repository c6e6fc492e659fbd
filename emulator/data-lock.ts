/**
 * One emulator per `--data` file: `FILE.lock` holds the holder's pid (and, on Linux,
 * the process's start time, so a pid reused by another process is not taken for the
 * holder). A lock whose process is gone is taken over, so a crash (SIGKILL) never
 * blocks the next start; a live holder makes the start fail, naming the file and pid.
 *
 * The lock file appears with its contents already written (a hard link of a complete
 * temporary file), so no one ever reads a half-written lock and takes it for stale.
 * (Where there are no hard links, it is created exclusively and then written; a lock
 * that does not parse yet is given two seconds before it counts as stale.)
 */
import { randomBytes } from "node:crypto";
import { promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";

export const LOCK_SUFFIX = ".lock";

interface LockContents {
  pid: number;
  /** Field 22 of /proc/PID/stat (clock ticks after boot), where there is /proc. */
  startTime?: string;
}

export interface DataLock {
  readonly lockFile: string;
  /** Removes the lock file if it is still this process's. */
  release(): Promise<void>;
}

/** Lock files this process holds (two emulators in one process must exclude each other too). */
const heldHere = new Set<string>();
/** Lock files this process is taking right now, with how many starts are taking each. */
const takingHere = new Map<string, number>();

export function lockFileOf(dataFile: string): string {
  return `${dataFile}${LOCK_SUFFIX}`;
}

/** The start time of a process, or undefined where /proc does not tell it. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so split after the last `)`.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    return undefined;
  }
}

function isAlive(holder: LockContents, lockFile: string): boolean {
  const { pid } = holder;
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) {
    // A previous process that had our pid (its start time differs), or this very process:
    // then held, or about to be, by another start in it.
    const ours = startTimeOf(pid);
    if (holder.startTime !== undefined && ours !== undefined && holder.startTime !== ours) {
      return false;
    }
    return heldHere.has(lockFile) || takingHere.has(lockFile);
  }
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  if (holder.startTime !== undefined) {
    const current = startTimeOf(pid);
    // Another process now has that pid: the holder is gone.
    if (current !== undefined && current !== holder.startTime) return false;
  }
  return true;
}

function parseContents(text: string): LockContents | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<LockContents>;
    if (typeof parsed?.pid !== "number") return undefined;
    return {
      pid: parsed.pid,
      startTime: typeof parsed.startTime === "string" ? parsed.startTime : undefined,
    };
  } catch {
    return undefined;
  }
}

/** Removes a stale lock file, unless someone replaced it since `inode` was read. */
async function removeStale(lockFile: string, inode: number): Promise<void> {
  const aside = `${lockFile}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await fs.rename(lockFile, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // someone else removed it
    throw error;
  }
  const moved = await fs.stat(aside);
  if (moved.ino !== inode) {
    // Another starter took the lock between our read and our rename: give it back.
    await fs.link(aside, lockFile).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
}

/** Creates `lockFile` holding `text` if it does not exist; false if it does. */
async function createLockFile(lockFile: string, text: string): Promise<boolean> {
  const temporary = path.join(
    path.dirname(lockFile),
    `.${path.basename(lockFile)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  await fs.writeFile(temporary, text, { mode: 0o644, flag: "wx" });
  try {
    // Atomic: fails with EEXIST if anyone holds the lock, and never shows a partial file.
    await fs.link(temporary, lockFile);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") {
      throw error;
    }
  } finally {
    await fs.rm(temporary, { force: true });
  }
  // A file system without hard links: exclusive create, then write (readers wait for it).
  try {
    await fs.writeFile(lockFile, text, { mode: 0o644, flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** A lock file this recent that does not parse may still be being written. */
const FRESH_LOCK_MS = 2000;

/** Takes `DATA_FILE.lock`, or throws `DATA_FILE is in use by another emulator (pid N, ...)`. */
export async function acquireDataLock(dataFile: string): Promise<DataLock> {
  const lockFile = path.resolve(lockFileOf(dataFile));
  const startTime = startTimeOf(process.pid);
  const contents: LockContents = { pid: process.pid, ...(startTime ? { startTime } : {}) };
  const text = `${JSON.stringify(contents)}\n`;
  takingHere.set(lockFile, (takingHere.get(lockFile) ?? 0) + 1);
  try {
    return await takeLock(dataFile, lockFile, text);
  } finally {
    const left = (takingHere.get(lockFile) ?? 1) - 1;
    if (left > 0) takingHere.set(lockFile, left);
    else takingHere.delete(lockFile);
  }
}

async function takeLock(dataFile: string, lockFile: string, text: string): Promise<DataLock> {
  for (let attempt = 0; attempt < 50; attempt++) {
    let created: boolean;
    try {
      created = await createLockFile(lockFile, text);
    } catch (error) {
      throw new Error(
        `${dataFile}: could not create the lock ${lockFile}: ${(error as Error).message}`,
      );
    }
    if (created) {
      heldHere.add(lockFile);
      return { lockFile, release: () => release(lockFile) };
    }
    let lockText: string;
    let inode: number;
    let modifiedMs: number;
    try {
      const handle = await fs.open(lockFile, "r");
      try {
        const stat = await handle.stat();
        inode = stat.ino;
        modifiedMs = stat.mtimeMs;
        lockText = await handle.readFile("utf8");
      } finally {
        await handle.close();
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // released meanwhile
      throw error;
    }
    const holder = parseContents(lockText);
    if (holder && isAlive(holder, lockFile)) {
      throw new Error(
        `${dataFile} is in use by another emulator (pid ${holder.pid}, lock file ${lockFile}); ` +
          "stop that one, or give this one another --data file",
      );
    }
    if (!holder && Date.now() - modifiedMs < FRESH_LOCK_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    await removeStale(lockFile, inode);
  }
  throw new Error(`${dataFile}: could not take the lock ${lockFile} (too much contention)`);
}

async function release(lockFile: string): Promise<void> {
  if (!heldHere.delete(lockFile)) return;
  try {
    const holder = parseContents(await fs.readFile(lockFile, "utf8"));
    if (holder?.pid === process.pid) await fs.rm(lockFile, { force: true });
  } catch {
    /* already gone */
  }
}
