/**
 * Small API mismatches (issue 14): a PATCH that changes nothing keeps `updateTime` and
 * is no change (the `--data` file is not rewritten); tags carry `createTime` like every
 * other resource; a custom role may not take a built-in role's name (addendum, 7).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc, reasonOf } from "../support/emulator-http";

type Json = Record<string, unknown>;

let dir = "";
let dataFile = "";
let emu: TestEmulator;
let api: Caller;

/**
 * Waits until the request log holds the last `count` requests sent, each answered: the
 * log records a request after its change is on disk (the durability wait comes first,
 * emulator/server.ts), so then nothing it changed is still to be written.
 */
async function loggedAndSaved(count: number): Promise<void> {
  const answered = (await emu.requests()).slice(-count);
  expect(answered).toHaveLength(count);
  expect(answered.every((entry) => entry.status === 200)).toBe(true);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-mismatches-"));
  dataFile = path.join(dir, "state.json");
  emu = await startTestEmulator({ dataFile });
  api = caller(emu.url, emu.token);
});

afterAll(async () => {
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a PATCH whose values equal the current ones changes nothing", () => {
  it("groups, identities, roles and role bindings keep updateTime, and --data is not rewritten", async () => {
    const root = emu.rootGroupUid;
    const group = (
      await api<Json>("POST", `/iam/v2beta1/groups/${root}`, {
        body: { name: "same", description: "d" },
      })
    ).body;
    const identity = (
      await api<Json>("POST", `/iam/v2beta1/identities/${group.uid}`, {
        body: { name: "same", claimMatch: { issuer: emu.issuer, subject: "same" } },
      })
    ).body;
    const role = (
      await api<Json>("POST", `/iam/v2beta1/roles/${group.uid}`, {
        body: { name: "same", capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_IAM_GROUPS_LIST"] },
      })
    ).body;
    const binding = (
      await api<Json>("POST", `/iam/v2beta1/roleBindings/${group.uid}`, {
        body: { identityUid: identity.uid, roleUid: role.uid },
      })
    ).body;
    // Later on the emulator clock, so that a moved updateTime would show.
    await emu.advanceClock(60);
    // A real change, so lastSeenTime of the caller is refreshed now, not during the no-ops.
    await api("PATCH", `/iam/v2beta1/groups/${root}?updateMask=description`, {
      body: { description: "touched" },
    });
    await loggedAndSaved(1);
    // A rewrite would bring the same bytes: compare the files themselves, the snapshot
    // and its journal (inode, size and mtime).
    const stamp = () =>
      [dataFile, `${dataFile}.journal`]
        .map((file) => {
          if (!fs.existsSync(file)) return "absent";
          const stat = fs.statSync(file);
          return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
        })
        .join(" ");
    const before = stamp();

    const noOps: Array<[string, string, Json, Json]> = [
      [`/iam/v2beta1/groups/${group.uid}`, "", { name: "same", description: "d" }, group],
      [
        `/iam/v2beta1/groups/${group.uid}`,
        "?updateMask=*",
        { name: "same", description: "d" },
        group,
      ],
      [
        `/iam/v2beta1/identities/${identity.uid}`,
        "?updateMask=claimMatch",
        { claimMatch: { issuer: emu.issuer, subject: "same" } },
        identity,
      ],
      [
        `/iam/v2beta1/roles/${role.uid}`,
        "?updateMask=capabilities",
        // Another order and a duplicate: the same set.
        { capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_IAM_GROUPS_LIST", "CAP_IAM_GROUPS_LIST"] },
        role,
      ],
      [`/iam/v2beta1/roleBindings/${binding.uid}`, "", { roleUid: role.uid }, binding],
    ];
    for (const [target, query, body, original] of noOps) {
      const reply = await api<Json>("PATCH", `${target}${query}`, { body });
      expect(reply.status, target).toBe(200);
      expect(reply.body.updateTime, target).toBe(original.updateTime);
      const got = await api<Json>("GET", target);
      expect(got.body.updateTime, target).toBe(original.updateTime);
    }
    // Each no-op's PATCH and GET.
    await loggedAndSaved(2 * noOps.length);
    expect(stamp(), "the data file was rewritten").toBe(before);

    // A real change still moves updateTime.
    const changed = await api<Json>("PATCH", `/iam/v2beta1/groups/${group.uid}`, {
      body: { description: "other" },
    });
    expect(changed.body.updateTime).not.toBe(group.updateTime);
  });
});

describe("tags carry createTime", () => {
  it("in Get and List, ISO with milliseconds, and order_by create_time works on tags", async () => {
    const listed = await api<{ tags: Json[] }>(
      "GET",
      `/registry/v2beta1/tags?uidp.descendants_of=${enc(emu.rootGroupUid)}&order_by=${enc("create_time desc")}`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.tags.length).toBeGreaterThan(0);
    for (const tag of listed.body.tags) {
      expect(tag.createTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const one = await api<Json>("GET", `/registry/v2beta1/tags/${listed.body.tags[0].uid}`);
    expect(one.body.createTime).toBe(listed.body.tags[0].createTime);
  });
});

describe("a custom role may not take a built-in role's name", () => {
  it.each(["owner", "editor", "viewer", "registry.pull"])(
    "%s: INVALID_ARGUMENT on name at create and at rename",
    async (name) => {
      const created = await api<Json>("POST", `/iam/v2beta1/roles/${emu.rootGroupUid}`, {
        body: { name, capabilities: ["CAP_IAM_GROUPS_LIST"] },
      });
      expect(created.status).toBe(400);
      expect(reasonOf(created.body)).toBe("INVALID_ARGUMENT");
      expect(created.body.message).toBe("Invalid argument: name: is the name of a built-in role");
      const custom = (
        await api<Json>("POST", `/iam/v2beta1/roles/${emu.rootGroupUid}`, {
          body: { name: `not-${name}`, capabilities: ["CAP_IAM_GROUPS_LIST"] },
        })
      ).body;
      const renamed = await api<Json>("PATCH", `/iam/v2beta1/roles/${custom.uid}`, {
        body: { name },
      });
      expect(renamed.status).toBe(400);
      expect(renamed.body.message).toBe("Invalid argument: name: is the name of a built-in role");
      // Lookup by name stays unambiguous: one role of that name.
      const byName = await api<{ roles: Json[] }>("GET", `/iam/v2beta1/roles?name=${enc(name)}`);
      expect(byName.body.roles).toHaveLength(1);
    },
  );

  it("other duplicate names stay allowed", async () => {
    for (let i = 0; i < 2; i++) {
      const reply = await api<Json>("POST", `/iam/v2beta1/roles/${emu.rootGroupUid}`, {
        body: { name: "deployer", capabilities: ["CAP_IAM_GROUPS_LIST"] },
      });
      expect(reply.status).toBe(200);
    }
  });
});
