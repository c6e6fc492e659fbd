/**
 * `check` asks once per process whether a parent group exists, and remembers the
 * answer; the answer is one client's (one API URL and token), never another's.
 */
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { type ProviderFixture, startProviderFixture } from "../support/provider-fixture";

let folder: string;
let first: ProviderFixture;
let second: ProviderFixture;

/**
 * Two emulators (two API URLs, two tokens) of one organisation: the same saved state,
 * so a group made in one afterwards is NOT_FOUND in the other, as it would be for a
 * token of another organisation's copy, or a second API.
 */
beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), "irm-parent-check-"));
  const original = path.join(folder, "first.json");
  const copy = path.join(folder, "second.json");
  await (await startProviderFixture({ dataFile: original, seed: false })).close();
  await fs.copyFile(original, copy);
  [first, second] = await Promise.all([
    startProviderFixture({ dataFile: original, seed: false }),
    startProviderFixture({ dataFile: copy, seed: false }),
  ]);
  expect(second.rootGroupUid).toBe(first.rootGroupUid);
});

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  if (folder) await fs.rm(folder, { recursive: true, force: true });
});

/** GETs of `uid` in an emulator's request log. */
async function getsOf(emu: ProviderFixture, uid: string): Promise<number> {
  const path = `/iam/v2beta1/groups/${uid}`;
  return (await emu.requests()).filter((r) => r.method === "GET" && r.path === path).length;
}

describe("the parent check's memory of existing groups", () => {
  it("is kept per client: a group one API holds is still asked for, and missing, at another", async () => {
    const parent = await first.client.iam.groups.create(first.rootGroupUid, {
      name: "parent-of-the-first",
    });
    const news = { parentUid: parent.uid, name: "child" };
    await first.configureRuntime();
    await first.clearRequests();
    expect((await runtime.group.check({}, news)).failures).toEqual([]);
    expect((await runtime.group.check({}, news)).failures).toEqual([]);
    // Remembered for this client: one GET for two checks.
    expect(await getsOf(first, parent.uid)).toBe(1);

    // Other settings (another API, another token) in the same process: asked again there.
    await second.configureRuntime();
    await second.clearRequests();
    const result = await runtime.group.check({}, news);
    expect(result.failures).toEqual([
      {
        property: "parentUid",
        reason: `no group ${parent.uid} exists (or this token may not see it); nothing was created`,
      },
    ]);
    expect(await getsOf(second, parent.uid)).toBe(1);
  });

  it("needs no GET when a replacement is checked again without its old inputs", async () => {
    // The engine checks a replacement twice: with the old inputs (same parent: trusted,
    // as state holds the object under it), then without them, as a new object's.
    const parent = await first.client.iam.groups.create(first.rootGroupUid, {
      name: "parent-of-a-replaced",
    });
    await first.configureRuntime();
    await first.clearRequests();
    const olds = { parentUid: parent.uid, sink: "https://hooks.example.com/old" };
    const news = { parentUid: parent.uid, sink: "https://hooks.example.com/new" };
    expect((await runtime.subscription.check(olds, news)).failures).toEqual([]);
    expect((await runtime.subscription.check({}, news)).failures).toEqual([]);
    expect(await getsOf(first, parent.uid)).toBe(0);
  });

  it("needs no GET for a group this client has just created: a child in the same run", async () => {
    await first.configureRuntime();
    const parent = await runtime.group.create({
      parentUid: first.rootGroupUid,
      name: "made-in-this-run",
      description: "",
    });
    await first.clearRequests();
    const news = { parentUid: parent.id, name: "its-child" };
    expect((await runtime.group.check({}, news)).failures).toEqual([]);
    expect((await runtime.identity.check({}, { ...news, claimMatch: CLAIMS })).failures).toEqual(
      [],
    );
    expect(await getsOf(first, parent.id)).toBe(0);
  });
});

const CLAIMS = { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/x" };
