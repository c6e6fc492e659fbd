/**
 * `GroupInvite`: provider methods called directly against the emulator (request counts
 * from its log). An invite never changes, and its code is answered only to the create:
 * these tests prove any change replaces it, the code survives refreshes and expiry,
 * and a lost create leaves no invite whose code nobody has.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN_VALUE } from "../../provider/checks";
import type { GroupInviteInputs, GroupInviteOutputs } from "../../provider/handlers/group-invite";
import * as runtime from "../../provider/runtime";
import { type ProviderFixture, useProviderFixture } from "../support/provider-fixture";
import { groupInviteProvider } from "../support/provider-texts";

let emu: ProviderFixture;
let viewerRoleUid: string;
let pullRoleUid: string;
/** A group of its own per test, so listings and counts are the test's alone. */
const { freshGroup } = useProviderFixture({
  groupPrefix: "invites",
  async onStart(fixture) {
    emu = fixture;
    const roles = (await emu.client.iam.roles.list({ pageSize: 200 })).items;
    viewerRoleUid = roles.find((r) => r.name === "viewer")!.uid;
    pullRoleUid = roles.find((r) => r.name === "registry.pull")!.uid;
  },
});

async function checked(news: Record<string, unknown>): Promise<GroupInviteInputs> {
  const result = await runtime.invite.check({}, news);
  expect(result.failures).toEqual([]);
  return result.inputs as GroupInviteInputs;
}

async function created(news: Record<string, unknown>) {
  const result = await runtime.invite.create(await checked(news));
  return { id: result.id, outs: result.outs as GroupInviteOutputs };
}

describe("GroupInvite check", () => {
  it("names each bad field and its rule before any request; invites cannot be adopted", async () => {
    const result = await runtime.invite.check(
      {},
      {
        groupUid: "root",
        roleUid: "viewer",
        ttl: "168h",
        email: "not an address",
        singleUse: "yes",
        adoptUid: `${emu.rootGroupUid}/0123456789abcdef`,
      },
    );
    const byProperty = Object.fromEntries(
      (result.failures ?? []).map((f) => [f.property, f.reason]),
    );
    expect(Object.keys(byProperty).sort()).toEqual([
      "adoptUid",
      "email",
      "groupUid",
      "roleUid",
      "singleUse",
      "ttl",
    ]);
    expect(byProperty.ttl).toMatch(/duration string such as "3600s", got "168h"/);
    expect(byProperty.adoptUid).toMatch(/cannot be adopted/);
    expect(await emu.requests()).toEqual([]);
  });

  it("ttl: seconds or a duration string, 1 ms to 365 days, kept in its shortest form", async () => {
    const ttlOf = async (ttl: unknown) =>
      runtime.invite.check({}, { groupUid: emu.rootGroupUid, roleUid: viewerRoleUid, ttl });
    expect((await ttlOf(3600)).inputs).toMatchObject({ ttl: "3600s", email: "", singleUse: false });
    expect((await ttlOf("0090.500s")).inputs).toMatchObject({ ttl: "90.5s" });
    expect((await ttlOf(0.25)).inputs).toMatchObject({ ttl: "0.25s" });
    for (const bad of [0, "0.0001s", 31_536_001, "31536000.5s"]) {
      expect((await ttlOf(bad)).failures).toEqual([
        { property: "ttl", reason: expect.stringMatching(/between 1ms and 365 days/) },
      ]);
    }
    expect((await ttlOf(undefined)).failures).toEqual([
      { property: "ttl", reason: expect.stringMatching(/is required/) },
    ]);
    expect((await ttlOf(UNKNOWN_VALUE)).failures).toEqual([]);
  });
});

describe("GroupInvite lifecycle", () => {
  it("create (1 POST, code kept), refresh (1 GET) keeps the code through expiry, any change replaces, delete", async () => {
    const groupUid = await freshGroup();
    const invite = await created({
      groupUid,
      roleUid: viewerRoleUid,
      ttl: 3600,
      email: "dev@example.com",
    });
    expect(invite.id).toMatch(new RegExp(`^${groupUid}/[0-9a-f]{16}$`));
    expect(invite.outs).toMatchObject({
      uid: invite.id,
      groupUid,
      roleUid: viewerRoleUid,
      ttl: "3600s",
      email: "dev@example.com",
      singleUse: false,
    });
    expect(invite.outs.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invite.outs.keyId).toMatch(/^[0-9a-f]{32}$/);
    // Only what the invite owns: no copy of the role, whose name may change under it.
    expect(invite.outs).not.toHaveProperty("role");
    expect(Date.parse(invite.outs.expirationTime) - Date.parse(invite.outs.createTime)).toBe(
      3_600_000,
    );
    expect((await emu.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /iam/v2beta1/groupInvites/${groupUid}`,
    ]);

    await emu.clearRequests();
    // The same declaration, ttl written another way: no change.
    const same = await checked({
      groupUid,
      roleUid: viewerRoleUid,
      ttl: "3600.0s",
      email: "dev@example.com",
    });
    expect(await runtime.invite.diff(invite.id, invite.outs, same)).toEqual({
      changes: false,
    });
    // Every change replaces: there is no update.
    const other = await checked({ ...same, roleUid: pullRoleUid, singleUse: true, ttl: 60 });
    expect(await runtime.invite.diff(invite.id, invite.outs, other)).toEqual({
      changes: true,
      replaces: ["roleUid", "ttl", "singleUse"],
    });
    // A singleUse not yet known (preview) may differ: it replaces, not "no change".
    const pending = await checked({ ...same, singleUse: UNKNOWN_VALUE });
    expect(await runtime.invite.diff(invite.id, invite.outs, pending)).toEqual({
      changes: true,
      replaces: ["singleUse"],
    });
    await expect(runtime.invite.update(invite.id, invite.outs, other)).rejects.toThrow(
      /cannot be changed/,
    );
    expect(await emu.requests()).toEqual([]);

    // Past its expiry the invite stays, and so does its state.
    await emu.advanceClock(7200);
    const refreshed = await runtime.invite.read(invite.id, invite.outs);
    // The refresh also writes this release's provider text into both.
    expect(refreshed.props).toEqual({ ...invite.outs, __provider: groupInviteProvider });
    expect(refreshed.inputs).toEqual({ ...same, __provider: groupInviteProvider });
    expect((await emu.requests()).map((r) => r.method)).toEqual(["GET"]);

    await emu.clearRequests();
    await runtime.invite.delete(invite.id, refreshed.props!);
    await runtime.invite.delete(invite.id, refreshed.props!);
    expect((await emu.requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      "DELETE 200",
      "DELETE 404",
    ]);
    expect(await runtime.invite.read(invite.id, refreshed.props)).toEqual({ id: "" });
  });

  it("a lost create answer: the invite it made is deleted and one with a code is made", async () => {
    const groupUid = await freshGroup();
    // Someone else's invites for the same role, made just before the attempt: each
    // differs from the lost create in one attribute (email, lifetime), which spares it.
    const otherEmail = await emu.client.iam.groupInvites.create(groupUid, {
      roleUid: viewerRoleUid,
      ttl: "600s",
      email: "other@example.com",
    });
    const otherTtl = await emu.client.iam.groupInvites.create(groupUid, {
      roleUid: viewerRoleUid,
      ttl: "601s",
    });
    await emu.clearRequests();
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groupInvites/${groupUid}` },
      drop: "after",
    });
    const invite = await created({ groupUid, roleUid: viewerRoleUid, ttl: 600 });
    expect(invite.outs.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const log = await emu.requests();
    expect(log.map((r) => `${r.method} ${r.status}`)).toEqual([
      "POST 0",
      "GET 200",
      "DELETE 200",
      "POST 200",
    ]);
    const left = (await emu.client.iam.groupInvites.list({ childrenOf: groupUid })).items;
    expect(left.map((i) => i.uid).sort()).toEqual([otherEmail.uid, otherTtl.uid, invite.id].sort());
  });

  it("a create that timed out and lands later: waited for, deleted, and made once more", async () => {
    const groupUid = await freshGroup();
    // The request timeout comes from the environment when the client is made: another
    // (equivalent) auth URL makes the runtime make a new one.
    process.env.IRM_TIMEOUT_MS = "400";
    await emu.configureRuntime({ "irm:authUrl": emu.url });
    // The service makes the invite 1.5 s after the client gave up waiting at 0.4 s.
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groupInvites/${groupUid}` },
      latencyMs: 1500,
      count: 1,
    });
    const invite = await created({ groupUid, roleUid: viewerRoleUid, ttl: 600 }).finally(() => {
      delete process.env.IRM_TIMEOUT_MS;
    });
    const log = (await emu.requests()).map((r) => `${r.method} ${r.status}`);
    // The late invite is found by a later look-up, deleted, and one with a code made.
    expect(log.filter((r) => r.startsWith("DELETE"))).toEqual(["DELETE 200"]);
    expect(log[log.length - 1]).toBe("POST 200");
    const left = (await emu.client.iam.groupInvites.list({ childrenOf: groupUid })).items;
    expect(left.map((i) => i.uid)).toEqual([invite.id]);
  });

  it("a create dropped before it reached the service: looked up, nothing deleted, made once", async () => {
    const groupUid = await freshGroup();
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groupInvites/${groupUid}` },
      drop: "before",
    });
    const invite = await created({ groupUid, roleUid: viewerRoleUid, ttl: 600, singleUse: true });
    expect((await emu.requests()).map((r) => `${r.method} ${r.status}`)).toEqual([
      "POST 0",
      "GET 200",
      "POST 200",
    ]);
    const left = (await emu.client.iam.groupInvites.list({ childrenOf: groupUid })).items;
    expect(left.map((i) => i.uid)).toEqual([invite.id]);
  });

  it("the invite outlives its role, and a change of the role is no change of the invite", async () => {
    const groupUid = await freshGroup();
    const role = await emu.client.iam.roles.create(groupUid, {
      name: "short lived",
      capabilities: ["CAP_REPO_LIST"],
    });
    const invite = await created({ groupUid, roleUid: role.uid, ttl: 600 });
    await emu.client.iam.roles.update(
      role.uid,
      { name: "renamed", capabilities: ["CAP_REPO_LIST", "CAP_TAG_LIST"] },
      { updateMask: ["name", "capabilities"] },
    );
    expect((await runtime.invite.read(invite.id, invite.outs)).props).toEqual({
      ...invite.outs,
      __provider: groupInviteProvider,
    });
    await emu.client.iam.roles.delete(role.uid);
    const refreshed = await runtime.invite.read(invite.id, invite.outs);
    expect(refreshed.props).toEqual({ ...invite.outs, __provider: groupInviteProvider });
    await runtime.invite.delete(invite.id, refreshed.props!);
  });
});
