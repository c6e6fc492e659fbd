/**
 * The saved-state check of a collection: `make` writes through a first emulator on a
 * fresh `--data` file, `check` reads through a second one started on the same file.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestEmulator } from "../../harness/emulator";
import { type Caller, caller } from "./emulator-http";

export async function acrossRestart<T>(
  make: (call: Caller, rootGroupUid: string) => Promise<T>,
  check: (call: Caller, made: T) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "irm-restart-"));
  try {
    const file = join(dir, "state.json");
    const first = await startTestEmulator({ dataFile: file });
    let made: T;
    try {
      made = await make(caller(first.url, first.token), first.rootGroupUid);
    } finally {
      await first.close();
    }
    const second = await startTestEmulator({ dataFile: file });
    try {
      await check(caller(second.url, second.token), made);
    } finally {
      await second.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
