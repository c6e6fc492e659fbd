/**
 * Recovery after a lost create acts only on what that attempt can have made. A group
 * invite carries nothing that says whose it is: when the answer to its create is lost,
 * the provider deletes the invite that create made (its code is lost with the answer)
 * only when exactly one alike invite can be it. Another stack's invite made before the
 * attempt, a sibling resource's invite of the same program, and any invite made while
 * the attempt was under way are never deleted: when it cannot tell, it fails naming the
 * candidates and deletes nothing. Objects adopted after a lost create (groups and the
 * rest) never take a sibling resource's object either.
 */
import { describe, expect, it } from "vitest";
import type {
  GroupInviteInputs,
  GroupInviteOutputs,
} from "../../../provider/handlers/group-invite";
import * as runtime from "../../../provider/runtime";
import { type ProviderFixture, useProviderFixture } from "../../support/provider-fixture";

let emu: ProviderFixture;
let viewerRoleUid: string;
const { freshGroup } = useProviderFixture({
  groupPrefix: "ownership",
  async onStart(fixture) {
    emu = fixture;
    const roles = (await emu.client.iam.roles.list({ pageSize: 200 })).items;
    viewerRoleUid = roles.find((r) => r.name === "viewer")!.uid;
  },
});

async function createInvite(news: Record<string, unknown>) {
  const checked = await runtime.invite.check({}, news);
  expect(checked.failures).toEqual([]);
  const result = await runtime.invite.create(checked.inputs as GroupInviteInputs);
  return { id: result.id, outs: result.outs as GroupInviteOutputs };
}

async function inviteUids(groupUid: string): Promise<string[]> {
  return (await emu.client.iam.groupInvites.list({ childrenOf: groupUid })).items
    .map((i) => i.uid)
    .sort();
}

describe("a group invite's lost create", () => {
  it("another stack's identical invite made before the attempt is kept; the lost one is deleted", async () => {
    const groupUid = await freshGroup();
    const theirs = await emu.client.iam.groupInvites.create(groupUid, {
      roleUid: viewerRoleUid,
      ttl: "600s",
    });
    // Two seconds later on the emulator clock (well inside the old five-minute window):
    // the service's Date headers, of one-second resolution, then place the attempt
    // after that invite.
    await emu.advanceClock(2);
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groupInvites/${groupUid}` },
      drop: "after",
    });
    const ours = await createInvite({ groupUid, roleUid: viewerRoleUid, ttl: 600 });
    const left = await inviteUids(groupUid);
    expect(left).toContain(theirs.uid);
    expect(left).toContain(ours.id);
    expect(left).toHaveLength(2);
    const deletes = (await emu.requests()).filter((r) => r.method === "DELETE");
    expect(deletes).toHaveLength(1);
  });

  it("an identical invite made while the attempt was under way: fails naming both, deletes nothing", async () => {
    const groupUid = await freshGroup();
    // The create is held 800 ms, handled, then its answer dropped; meanwhile someone
    // else (another stack, the same service) makes an identical invite.
    const held = await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groupInvites/${groupUid}` },
      latencyMs: 800,
      drop: "after",
    });
    const attempt = createInvite({ groupUid, roleUid: viewerRoleUid, ttl: 600 }).then(
      () => undefined,
      (error: Error) => error,
    );
    await emu.untilFaultTaken(held);
    const theirs = await emu.client.iam.groupInvites.create(groupUid, {
      roleUid: viewerRoleUid,
      ttl: "600s",
    });
    const error = await attempt;
    expect(error).toBeInstanceOf(Error);
    const left = await inviteUids(groupUid);
    expect(left).toHaveLength(2);
    expect(left).toContain(theirs.uid);
    for (const uid of left) expect(error!.message).toContain(uid);
    expect(error!.message).toMatch(/which invite it made cannot be told/);
    expect(error!.message).toMatch(/Nothing was deleted/);
    expect((await emu.requests()).filter((r) => r.method === "DELETE")).toEqual([]);
  });

  it("a sibling resource's identical invite, answered while the attempt was under way, is kept", async () => {
    const groupUid = await freshGroup();
    const held = await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groupInvites/${groupUid}` },
      latencyMs: 800,
      drop: "after",
    });
    const attempt = createInvite({ groupUid, roleUid: viewerRoleUid, ttl: 600 });
    await emu.untilFaultTaken(held);
    // The same program's other GroupInvite, same inputs, through the same provider.
    const sibling = await createInvite({ groupUid, roleUid: viewerRoleUid, ttl: 600 });
    const ours = await attempt;
    const left = await inviteUids(groupUid);
    expect(left).toEqual([sibling.id, ours.id].sort());
    expect(sibling.outs.code).not.toBe("");
    expect((await emu.requests()).filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("a sibling's identical create still under way at the recovery: fails, deletes nothing", async () => {
    const groupUid = await freshGroup();
    // Ours: answer dropped at once. The sibling's: held 1.5 s before it is handled.
    const held = await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groupInvites/${groupUid}` },
      latencyMs: 300,
      drop: "after",
    });
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groupInvites/${groupUid}` },
      latencyMs: 1500,
    });
    const attempt = createInvite({ groupUid, roleUid: viewerRoleUid, ttl: 600 }).then(
      () => undefined,
      (error: Error) => error,
    );
    await emu.untilFaultTaken(held);
    const sibling = createInvite({ groupUid, roleUid: viewerRoleUid, ttl: 600 });
    const error = await attempt;
    const siblingInvite = await sibling;
    expect(error?.message).toMatch(/another create of the same invite in this program/);
    expect(await inviteUids(groupUid)).toContain(siblingInvite.id);
    expect((await emu.requests()).filter((r) => r.method === "DELETE")).toEqual([]);
  });
});

describe("a lost create of an object found by its fields", () => {
  it("never takes the object a sibling resource of the same program holds", async () => {
    const parentUid = await freshGroup();
    // Ours is held 800 ms and answered by a proxy's HTML 503 (not handled: an unknown
    // outcome); meanwhile a sibling Group resource of this program makes "team" and is
    // answered. The sibling's group matches what ours sent and was made after it.
    const held = await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groups/${parentUid}` },
      latencyMs: 800,
      status: 503,
      html: true,
    });
    const attempt = runtime.group.create({ parentUid, name: "team", description: "" } as never);
    await emu.untilFaultTaken(held);
    const sibling = await runtime.group.create({
      parentUid,
      name: "team",
      description: "",
    } as never);
    const ours = await attempt;
    // Taking it over would leave two resources managing (and deleting) one group.
    expect(ours.id).not.toBe(sibling.id);
    const teams = (await emu.client.iam.groups.list({ childrenOf: parentUid })).items;
    expect(teams.map((g) => g.uid).sort()).toEqual([ours.id, sibling.id].sort());
  });
});
