/**
 * `Subscription`: provider methods called directly against the emulator (request counts
 * from its log). No update: a new sink or group replaces it.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN_VALUE } from "../../provider/checks";
import type { SubscriptionInputs, SubscriptionOutputs } from "../../provider/handlers/subscription";
import * as runtime from "../../provider/runtime";
import { type ProviderFixture, useProviderFixture } from "../support/provider-fixture";

let emu: ProviderFixture;
const { freshGroup } = useProviderFixture({
  groupPrefix: "hooks",
  onStart(fixture) {
    emu = fixture;
  },
});

async function checked(news: Record<string, unknown>): Promise<SubscriptionInputs> {
  const result = await runtime.subscription.check({}, news);
  expect(result.failures).toEqual([]);
  return result.inputs as SubscriptionInputs;
}

const lines = async () => (await emu.requests()).map((r) => `${r.method} ${r.path}`);

describe("Subscription", () => {
  it("check names a bad group and a sink that is not https, before any request", async () => {
    const result = await runtime.subscription.check(
      {},
      { parentUid: "nope", sink: "http://hooks.example.com" },
    );
    expect((result.failures ?? []).map((f) => f.property).sort()).toEqual(["parentUid", "sink"]);
    expect(result.failures?.find((f) => f.property === "sink")?.reason).toMatch(/https/);
    const missing = await runtime.subscription.check({}, { parentUid: emu.rootGroupUid });
    expect(missing.failures).toEqual([{ property: "sink", reason: "is required" }]);
    expect(await emu.requests()).toEqual([]);
    const preview = await runtime.subscription.check(
      {},
      { parentUid: UNKNOWN_VALUE, sink: UNKNOWN_VALUE },
    );
    expect(preview.failures).toEqual([]);
  });

  it("create is one POST, read one GET, a new sink replaces, delete one DELETE", async () => {
    const parentUid = await freshGroup();
    const inputs = await checked({ parentUid, sink: "https://hooks.example.com/a" });
    await emu.clearRequests();
    const made = await runtime.subscription.create(inputs);
    const outs = made.outs as SubscriptionOutputs;
    expect(outs).toMatchObject({ uid: made.id, parentUid, sink: "https://hooks.example.com/a" });
    expect(await lines()).toEqual([`POST /events/v2beta1/subscriptions/${parentUid}`]);

    await emu.clearRequests();
    const read = await runtime.subscription.read(made.id, outs);
    expect(read.props).toMatchObject(outs);
    expect(await lines()).toEqual([`GET /events/v2beta1/subscriptions/${made.id}`]);

    expect(await runtime.subscription.diff(made.id, outs, inputs)).toEqual({ changes: false });
    const moved = await checked({ parentUid, sink: "https://hooks.example.com/b" });
    expect(await runtime.subscription.diff(made.id, outs, moved)).toMatchObject({
      changes: true,
      replaces: ["sink"],
    });

    await emu.clearRequests();
    await runtime.subscription.delete(made.id, outs);
    expect(await lines()).toEqual([`DELETE /events/v2beta1/subscriptions/${made.id}`]);
    expect((await runtime.subscription.read(made.id, outs)).id).toBe("");
  });

  it("adopts a subscription of the same sink, and refuses one of another", async () => {
    const parentUid = await freshGroup();
    const existing = await emu.client.events.subscriptions.create(parentUid, {
      sink: "https://hooks.example.com/old",
    });
    await emu.clearRequests();
    const adopted = await runtime.subscription.create(
      await checked({ parentUid, sink: existing.sink, adoptUid: existing.uid }),
    );
    expect(adopted.id).toBe(existing.uid);
    expect(await lines()).toEqual([`GET /events/v2beta1/subscriptions/${existing.uid}`]);
    await expect(
      runtime.subscription.create(
        await checked({ parentUid, sink: "https://other.example.com", adoptUid: existing.uid }),
      ),
    ).rejects.toThrow(/a sink cannot change/);
  });
});
