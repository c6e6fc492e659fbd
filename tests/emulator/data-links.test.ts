/**
 * The `--data` files are opened without following links: a symbolic link (or, for the
 * journal the emulator appends to and truncates, a hard link) planted at the snapshot's
 * or the journal's name makes the start fail, naming the file, and the file it points
 * to is neither read, truncated nor appended to.
 */
import { link, lstat, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import { journalFileOf, writeAtomically } from "../../emulator/persistence";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "irm-emu-links-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const PRECIOUS = "precious contents, not the emulator's\n";

async function victim(name: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, PRECIOUS);
  return file;
}

describe("--data files and links", () => {
  it("a journal that is a symbolic link to another file: refused at start, the other file untouched", async () => {
    const target = await victim("victim-1.txt");
    const data = join(dir, "one.json");
    await symlink(target, journalFileOf(data));
    await expect(startEmulator({ dataFile: data, grpc: false })).rejects.toThrow(
      `${journalFileOf(data)} is a symbolic link`,
    );
    expect(await readFile(target, "utf8")).toBe(PRECIOUS);
  });

  it("a journal that is a symbolic link, beside an existing snapshot: refused, nothing truncated or appended", async () => {
    const data = join(dir, "two.json");
    const first = await startEmulator({ dataFile: data, grpc: false });
    await first.close();
    const target = await victim("victim-2.txt");
    await symlink(target, journalFileOf(data));
    await expect(startEmulator({ dataFile: data, grpc: false })).rejects.toThrow(
      "is a symbolic link",
    );
    expect(await readFile(target, "utf8")).toBe(PRECIOUS);
  });

  it("a journal that is a hard link to another file: refused, the other file untouched", async () => {
    const target = await victim("victim-3.txt");
    const data = join(dir, "three.json");
    const first = await startEmulator({ dataFile: data, grpc: false });
    await first.close();
    await link(target, journalFileOf(data));
    await expect(startEmulator({ dataFile: data, grpc: false })).rejects.toThrow("a hard link");
    expect(await readFile(target, "utf8")).toBe(PRECIOUS);
  });

  it("a snapshot that is a symbolic link: refused at start, naming the file", async () => {
    const data = join(dir, "four.json");
    const first = await startEmulator({ dataFile: data, grpc: false });
    await first.close();
    const real = join(dir, "four-real.json");
    await writeFile(real, await readFile(data));
    await rm(data);
    await symlink(real, data);
    await expect(startEmulator({ dataFile: data, grpc: false })).rejects.toThrow(
      `${data} is a symbolic link`,
    );
  });
});

describe("files replaced whole (the bootstrap file, the snapshot)", () => {
  it("a link at the name is replaced by a new file, never written through", async () => {
    const target = await victim("victim-5.txt");
    const bootstrap = join(dir, "bootstrap.json");
    await symlink(target, bootstrap);
    await writeAtomically(bootstrap, '{"token":"t"}\n');
    expect(await readFile(target, "utf8")).toBe(PRECIOUS);
    expect((await lstat(bootstrap)).isSymbolicLink()).toBe(false);
    expect(await readFile(bootstrap, "utf8")).toBe('{"token":"t"}\n');
  });
});
