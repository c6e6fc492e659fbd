/**
 * An identity's `lastSeenTime` is a write like any other: it reaches the `--data`
 * journal when it changes, so a crash right after cannot set it back.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index";
import { journalFileOf } from "../../emulator/persistence";

describe("lastSeenTime and the --data journal", () => {
  let dir: string;
  let emulator: RunningEmulator;
  let dataFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "irm-last-seen-"));
    dataFile = join(dir, "data.json");
    emulator = await startEmulator({ host: "127.0.0.1", port: 0, dataFile });
  });
  afterAll(async () => {
    await emulator?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("is journaled when a token of the identity is used", async () => {
    const { bootstrap } = emulator;
    const identities = await fetch(
      `${emulator.url}/iam/v2beta1/identities?uidp.children_of=${bootstrap.rootGroupUid}`,
      { headers: { authorization: `Bearer ${bootstrap.token}` } },
    );
    const builtIn = (
      (await identities.json()) as { identities: Array<{ uid: string; name: string }> }
    ).identities.find((i) => i.name === "platform-user");
    expect(builtIn).toBeDefined();
    const minted = await fetch(`${emulator.url}/emulator/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ identityUid: builtIn?.uid }),
    });
    const { token } = (await minted.json()) as { token: string };
    const answer = await fetch(`${emulator.url}/iam/v2beta1/groups/${bootstrap.rootGroupUid}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status).toBe(200);

    const journal = await readFile(journalFileOf(dataFile), "utf8");
    const seen = journal
      .split("\n")
      .filter((line) => line.includes(builtIn?.uid ?? "?") && line.includes("lastSeenTime"));
    expect(seen.length).toBeGreaterThan(0);
  });
});
