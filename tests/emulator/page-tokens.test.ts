/**
 * Page tokens are tamper-evident: an HMAC keyed per emulator covers the cursor, so a
 * client can rewrite neither its issue time (to dodge the 3-day restart), nor its query,
 * nor its position; a token of another emulator is refused too. With `--data`, the key
 * persists with the signing keys, so tokens survive a restart. The 3-day rule holds.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { caller, enc, reasonOf } from "../support/emulator-http";

interface Page {
  groups: Array<{ uid: string }>;
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

/** Rewrites the readable part of a token, keeping its MAC (if it has one). */
function rewrite(token: string, change: (cursor: Record<string, unknown>) => void): string {
  const [payload, mac] = token.split(".");
  const cursor = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  change(cursor);
  const rewritten = Buffer.from(JSON.stringify(cursor)).toString("base64url");
  return mac === undefined ? rewritten : `${rewritten}.${mac}`;
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
    [
      "issue time moved forward (dodging the 3-day restart)",
      (t) =>
        rewrite(t, (c) => {
          c.t = (c.t as number) + 10 * 24 * 3600 * 1000;
        }),
    ],
    [
      "issue time moved back",
      (t) =>
        rewrite(t, (c) => {
          c.t = 0;
        }),
    ],
    [
      "query hash replaced",
      (t) =>
        rewrite(t, (c) => {
          c.q = "AAAAAAAAAAAAAAAA";
        }),
    ],
    [
      "position moved",
      (t) =>
        rewrite(t, (c) => {
          c.u = `${parent}/0000000000000000`;
        }),
    ],
    ["MAC removed (the old unsigned form)", (t) => t.split(".")[0]],
    [
      "MAC altered",
      (t) => {
        const [payload, mac] = t.split(".");
        const bytes = Buffer.from(mac, "base64url");
        bytes[0] ^= 1;
        return `${payload}.${bytes.toString("base64url")}`;
      },
    ],
    ["MAC truncated", (t) => t.slice(0, -4)],
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
