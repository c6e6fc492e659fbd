/**
 * Test controls refuse what they cannot honour (issue 14, item 14): bounded numbers,
 * INVALID_ARGUMENT naming the field and the rule, all-or-nothing seeds, and a
 * bootstrap file only its owner can read.
 */
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/index";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { startCli, stopCleanly } from "../support/emulator-cli";
import { type Caller, caller, reasonOf } from "../support/emulator-http";

type Json = Record<string, unknown>;

let dir: string;
let emu: TestEmulator;
let control: Caller;
let owner: Caller;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "irm-emu-bounds-"));
  emu = await startTestEmulator({ dataFile: join(dir, "state.json") });
  control = caller(emu.url, null);
  owner = caller(emu.url, emu.token);
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

/** Sends a raw JSON body, so numbers JSON.stringify cannot write (1e400) reach the emulator. */
function raw(path: string, body: string) {
  return control<Json>("POST", path, {
    rawBody: body,
    headers: { "content-type": "application/json" },
  });
}

function expectInvalid(reply: { status: number; body: Json }, field: string, rule: RegExp): void {
  expect(reply.status).toBe(400);
  expect(reasonOf(reply.body)).toBe("INVALID_ARGUMENT");
  expect(String(reply.body.message)).toMatch(
    new RegExp(`^Invalid argument: ${field.replace(/[[\].]/g, "\\$&")}: `),
  );
  expect(String(reply.body.message)).toMatch(rule);
}

async function groupsNamed(name: string): Promise<Json[]> {
  return (await owner<{ groups: Json[] }>("GET", `/iam/v2beta1/groups?name=${name}`)).body.groups;
}

describe("POST /emulator/clock", () => {
  it("refuses an advance that would take the clock past the supported range, and keeps working", async () => {
    // Its own emulator: before the fix, this case broke the one it ran on.
    const isolated = await startTestEmulator({ dataFile: join(dir, "huge-advance.json") });
    try {
      await refusesHugeAdvances(isolated);
    } finally {
      await isolated.close();
    }
    const reloaded = await startEmulator({ port: 0, dataFile: join(dir, "huge-advance.json") });
    await reloaded.close();
  });

  async function refusesHugeAdvances(target: TestEmulator): Promise<void> {
    const control = caller(target.url, null);
    const raw = (path: string, body: string) =>
      control<Json>("POST", path, {
        rawBody: body,
        headers: { "content-type": "application/json" },
      });
    const before = (await control<Json>("GET", "/emulator/clock")).body.now;
    for (const body of [
      '{"advanceSeconds": 1e20}',
      '{"advanceSeconds": 1e400}',
      `{"advanceSeconds": ${300_000 * 365 * 86_400}}`,
    ]) {
      expectInvalid(await raw("/emulator/clock", body), "advanceSeconds", /at most|before/);
    }
    expectInvalid(await raw("/emulator/clock", '{"advanceSeconds": -1}'), "advanceSeconds", /0/);
    expectInvalid(
      await raw("/emulator/clock", '{"advanceSeconds": "10"}'),
      "advanceSeconds",
      /number/,
    );
    // Nothing moved, everything still answers, and the data file still loads.
    const after = (await control<Json>("GET", "/emulator/clock")).body.now as string;
    expect(Date.parse(after) - Date.parse(before as string)).toBeLessThan(60_000);
    const api = caller(target.url, target.token);
    expect((await api("GET", `/iam/v2beta1/groups/${target.rootGroupUid}`)).status).toBe(200);
  }

  it("repeated large advances stop at the bound instead of breaking the clock", async () => {
    const isolated = await startTestEmulator({ dataFile: join(dir, "clock.json") });
    try {
      const api = caller(isolated.url, null);
      let refused: { status: number; body: Json } | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const reply = await api<Json>("POST", "/emulator/clock", {
          body: { advanceSeconds: 100 * 365 * 86_400 },
        });
        if (reply.status !== 200) refused = reply;
      }
      expect(refused).toBeDefined();
      expectInvalid(refused as { status: number; body: Json }, "advanceSeconds", /before/);
      const now = (await api<Json>("GET", "/emulator/clock")).body.now as string;
      expect(now).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    } finally {
      await isolated.close();
    }
    // The saved clock loads again.
    const reloaded = await startEmulator({ port: 0, dataFile: join(dir, "clock.json") });
    await reloaded.close();
  });

  it("a data file whose clock an earlier version ran out of range loads, with the clock back at real time", async () => {
    const dataFile = join(dir, "bricked.json");
    const first = await startEmulator({ port: 0, dataFile });
    await first.close();
    const saved = JSON.parse(await readFile(dataFile, "utf8")) as Json;
    await writeFile(dataFile, JSON.stringify({ ...saved, clockOffsetMs: 1e20 }));
    const again = await startTestEmulator({ dataFile });
    try {
      const now = (await caller(again.url, null)<Json>("GET", "/emulator/clock")).body
        .now as string;
      expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(60_000);
    } finally {
      await again.close();
    }
  });
});

describe("POST /emulator/seed", () => {
  it("applies nothing when a later entry is refused (a repo's parent that does not exist)", async () => {
    const reply = await control<Json>("POST", "/emulator/seed", {
      body: {
        groups: [{ parentUid: emu.rootGroupUid, name: "seed-atomic-group" }],
        repos: [{ parentUid: `${emu.rootGroupUid}/0000000000000000`, name: "seed-atomic-repo" }],
      },
    });
    expectInvalid(reply, "repos[0].parentUid", /no group/);
    expect(await groupsNamed("seed-atomic-group")).toEqual([]);
  });

  it("refuses a generate name prefix that would make invalid names, and a tag name of the wrong form", async () => {
    expectInvalid(
      await control<Json>("POST", "/emulator/seed", {
        body: {
          generate: { kind: "groups", count: 2, parentUid: emu.rootGroupUid, namePrefix: "BAD" },
        },
      }),
      "generate.namePrefix",
      /must make names that match/,
    );
    expect(await groupsNamed("BAD-0")).toEqual([]);
    expectInvalid(
      await control<Json>("POST", "/emulator/seed", {
        body: {
          groups: [{ parentUid: emu.rootGroupUid, name: "seed-tag-group" }],
          repos: [{ parentUid: emu.rootGroupUid, name: "seed-tag-repo", tags: [{ name: "" }] }],
        },
      }),
      "repos[0].tags[0].name",
      /required/,
    );
    expect(await groupsNamed("seed-tag-group")).toEqual([]);
  });
});

describe("POST /emulator/faults, /emulator/tokens, /emulator/rate-limit", () => {
  it("refuse unbounded, infinite or fractional numbers, naming the field", async () => {
    const cases: Array<[string, string, string]> = [
      ["/emulator/faults", '{"latencyMs": 1e400}', "latencyMs"],
      ["/emulator/faults", '{"latencyMs": 100000000000}', "latencyMs"],
      ["/emulator/faults", '{"retryAfter": 1e400, "status": 429}', "retryAfter"],
      ["/emulator/faults", '{"retryAfter": 1.5, "status": 429}', "retryAfter"],
      ["/emulator/faults", '{"status": 101}', "status"],
      ["/emulator/faults", '{"count": 1e400}', "count"],
      [
        "/emulator/tokens",
        `{"identityUid": "${emu.bootstrap.rootGroupUid}", "ttlSeconds": 1e20}`,
        "ttlSeconds",
      ],
      ["/emulator/rate-limit", '{"requestsPerSecond": 5, "retryAfter": -1}', "retryAfter"],
      ["/emulator/rate-limit", '{"requestsPerSecond": 5, "retryAfter": 1e12}', "retryAfter"],
      ["/emulator/rate-limit", '{"requestsPerSecond": 1e400}', "requestsPerSecond"],
    ];
    for (const [path, body, field] of cases) {
      const reply = await raw(path, body);
      expect({ path, body, status: reply.status }).toEqual({ path, body, status: 400 });
      expectInvalid(reply, field, /must/);
    }
    // None of them took effect: no fault, no rate limit.
    for (let i = 0; i < 8; i++) {
      expect((await owner("GET", "/iam/v2beta1/roles")).status).toBe(200);
    }
  });

  it("a refused rate limit leaves the previous setting in place", async () => {
    await emu.rateLimit(0);
    const reply = await raw(
      "/emulator/rate-limit",
      '{"requestsPerSecond": 1, "retryAfter": "soon"}',
    );
    expectInvalid(reply, "retryAfter", /must/);
    for (let i = 0; i < 5; i++) {
      expect((await owner("GET", "/iam/v2beta1/roles")).status).toBe(200);
    }
  });
});

describe("--bootstrap-file", () => {
  it("is rewritten with mode 0600 even when it existed world-readable", async () => {
    const bootstrapFile = join(dir, "existing-bootstrap.json");
    await writeFile(bootstrapFile, "{}\n");
    await chmod(bootstrapFile, 0o644);
    const running = await startCli(["--port", "0", "--bootstrap-file", bootstrapFile]);
    try {
      expect((await stat(bootstrapFile)).mode & 0o777).toBe(0o600);
      const written = JSON.parse(await readFile(bootstrapFile, "utf8")) as Json;
      expect(typeof written.token).toBe("string");
    } finally {
      expect(await stopCleanly(running)).toBe(0);
    }
  });
});
