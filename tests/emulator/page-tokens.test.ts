/**
 * Page tokens are opaque and tamper-evident: the cursor is sealed with AES-256-GCM under
 * a key of the emulator, so a reader learns nothing from a token (not the sort key of
 * the last item, which may be a value the reader cannot see), and a client can rewrite
 * neither its issue time (to dodge the 3-day restart), nor its query, nor its position;
 * a token of another emulator is refused too. With `--data`, the key persists with the
 * signing keys, so tokens survive a restart. The 3-day rule holds.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { caller, enc, reasonOf } from "../support/emulator-http";

interface Page {
  groups: Array<{ uid: string; name: string }>;
  nextPageToken?: string;
  code?: number;
  message?: string;
}

let emu: TestEmulator;
let parent = "";
const QUERY = () => `uidp.children_of=${enc(parent)}&page_size=2`;

function list(target: TestEmulator, query: string) {
  return caller(target.url, target.token)<Page>("GET", `/iam/v2beta1/groups?${query}`);
}

async function firstToken(target: TestEmulator = emu): Promise<string> {
  const reply = await list(target, QUERY());
  expect(reply.status).toBe(200);
  const token = reply.body.nextPageToken ?? "";
  expect(token).not.toBe("");
  return token;
}

/** The token's bytes with one bit flipped at `at` (negative: from the end). */
function flipped(token: string, at: number): string {
  const bytes = Buffer.from(token, "base64url");
  bytes[at < 0 ? bytes.length + at : at] ^= 1;
  return bytes.toString("base64url");
}

beforeAll(async () => {
  emu = await startTestEmulator({ seed: false });
  const root = caller(emu.url, emu.token);
  parent = (
    await root<{ uid: string }>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
      body: { name: "paged" },
    })
  ).body.uid;
  for (const name of ["group 1", "group 2", "group 3", "group 4", "group 5"]) {
    await root("POST", `/iam/v2beta1/groups/${parent}`, { body: { name } });
  }
});

afterAll(async () => {
  await emu?.close();
});

describe("a page token cannot be altered", () => {
  it("an untouched token pages on", async () => {
    const second = await list(emu, `${QUERY()}&page_token=${enc(await firstToken())}`);
    expect(second.status).toBe(200);
    expect(second.body.groups).toHaveLength(2);
  });

  const tampering: Array<[string, (token: string) => string]> = [
    ["a bit of the nonce flipped", (t) => flipped(t, 0)],
    ["a bit of the sealed cursor flipped", (t) => flipped(t, 14)],
    ["a bit of the sealed cursor's end flipped", (t) => flipped(t, -17)],
    ["a bit of the tag flipped", (t) => flipped(t, -1)],
    ["truncated", (t) => t.slice(0, -4)],
    ["extended", (t) => `${t}AAAA`],
    ["too short to hold a cursor", (t) => t.slice(0, 20)],
    ["not base64url", (t) => `${t.slice(0, -1)}.`],
    [
      "a readable cursor with a MAC (the old form), pointing anywhere",
      () =>
        `${Buffer.from(
          JSON.stringify({ q: "AAAAAAAAAAAAAAAA", k: "", u: `${parent}/0`, t: Date.now() }),
        ).toString("base64url")}.AAAAAAAAAAAAAAAAAAAAAA`,
    ],
  ];

  it.each(tampering)("%s: INVALID_ARGUMENT on page_token", async (_what, alter) => {
    const reply = await list(emu, `${QUERY()}&page_token=${enc(alter(await firstToken()))}`);
    expect(reply.status).toBe(400);
    expect(reasonOf(reply.body)).toBe("INVALID_ARGUMENT");
    expect(reply.body.message).toMatch(/^Invalid argument: page_token: /);
  });

  it("a token issued by another emulator is refused", async () => {
    const other = await startTestEmulator({ seed: false });
    try {
      await caller(other.url, other.token)("POST", `/iam/v2beta1/groups/${other.rootGroupUid}`, {
        body: { name: "other" },
      });
      // The same query on the other emulator (no uid in it), so only the key differs.
      const foreign = await list(other, "page_size=1");
      const token = foreign.body.nextPageToken ?? "";
      expect(token).not.toBe("");
      const reply = await list(emu, `page_size=1&page_token=${enc(token)}`);
      expect(reply.status).toBe(400);
      expect(reply.body.message).toBe(
        "Invalid argument: page_token: has been altered or was issued by another emulator",
      );
    } finally {
      await other.close();
    }
  });
});

describe("a page token reveals nothing", () => {
  it("holds neither the last item's sort key nor its uid, readable or encoded", async () => {
    const reply = await list(emu, `${QUERY()}&order_by=name`);
    expect(reply.status).toBe(200);
    const token = reply.body.nextPageToken ?? "";
    const last = reply.body.groups[reply.body.groups.length - 1] as { uid: string; name: string };
    const bytes = Buffer.from(token, "base64url").toString("latin1");
    for (const secret of [last.name, last.uid, last.uid.slice(-16), '{"', "name"]) {
      expect(token).not.toContain(secret);
      expect(bytes).not.toContain(secret);
      if (secret.length >= 8) {
        expect(token).not.toContain(Buffer.from(secret).toString("base64url").slice(2, -2));
      }
    }
    // The same page asked twice: two unrelated tokens, both good.
    const again = await list(emu, `${QUERY()}&order_by=name`);
    expect(again.body.nextPageToken).not.toBe(token);
    const next = await list(emu, `${QUERY()}&order_by=name&page_token=${enc(token)}`);
    expect(next.status).toBe(200);
  });
});

describe("the 3-day lifetime still holds", () => {
  it("a token used within 3 days continues; one older than 3 days restarts the query", async () => {
    const first = await list(emu, QUERY());
    const token = first.body.nextPageToken ?? "";
    await emu.advanceClock(3 * 24 * 3600 - 60);
    const soon = await list(emu, `${QUERY()}&page_token=${enc(token)}`);
    expect(soon.body.groups[0].uid).not.toBe(first.body.groups[0].uid);
    await emu.advanceClock(120);
    const late = await list(emu, `${QUERY()}&page_token=${enc(token)}`);
    expect(late.status).toBe(200);
    expect(late.body.groups.map((g) => g.uid)).toEqual(first.body.groups.map((g) => g.uid));
  });
});

describe("with --data, page tokens survive a restart", () => {
  let dir = "";
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-page-tokens-"));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a token of the first run pages on in the second", async () => {
    const dataFile = path.join(dir, "state.json");
    const before = await startTestEmulator({ dataFile, seed: false });
    let token: string;
    let firstUids: string[];
    try {
      const root = caller(before.url, before.token);
      for (const name of ["restart 1", "restart 2", "restart 3"]) {
        await root("POST", `/iam/v2beta1/groups/${before.rootGroupUid}`, { body: { name } });
      }
      const first = await list(before, "page_size=2");
      token = first.body.nextPageToken ?? "";
      firstUids = first.body.groups.map((g) => g.uid);
      expect(token).not.toBe("");
    } finally {
      await before.close();
    }
    const after = await startTestEmulator({ dataFile, seed: false });
    try {
      const next = await list(after, `page_size=2&page_token=${enc(token)}`);
      expect(next.status).toBe(200);
      expect(next.body.groups.length).toBeGreaterThan(0);
      for (const group of next.body.groups) expect(firstUids).not.toContain(group.uid);
    } finally {
      await after.close();
    }
  });
});
