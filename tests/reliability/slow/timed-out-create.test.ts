/**
 * A create that times out while the service is still working on it.
 *
 * KNOWN BUG, pinned by asserting today's exact symptom, so that this test fails the
 * day the bug is fixed (then assert one object instead): the provider's create times
 * out (its request
 * waits behind a latency spike longer than the client's timeout), reports the outcome
 * as unknown, looks the object up at once, finds nothing yet, and creates it again;
 * then the first request completes too, and the service holds the object twice.
 * A dropped connection after the service acted does not do this (see
 * dropped-connections.test.ts): there the first lookup finds the object.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/runtime";
import { IrmClient } from "../../../sdk/index";
import { startTestEmulator, type TestEmulator } from "../../support/emulator";

/** Client timeout of the provider in this file; the spike is longer. */
const TIMEOUT_MS = 1000;
const SPIKE_MS = 2500;

let emu: TestEmulator;
let client: IrmClient;

beforeAll(async () => {
  // Read when the runtime builds its client, which happens at the first call below.
  process.env.IRM_TIMEOUT_MS = String(TIMEOUT_MS);
  emu = await startTestEmulator();
  client = new IrmClient({ baseUrl: emu.url, token: emu.token });
  const config: Record<string, string> = { "irm:apiUrl": emu.url, "irm:token": emu.token };
  await runtime.configure({
    config: {
      get: (key: string) => config[key],
      require: (key: string) => {
        if (config[key] === undefined) throw new Error(`missing ${key}`);
        return config[key];
      },
    },
  });
});

afterAll(async () => {
  delete process.env.IRM_TIMEOUT_MS;
  await client?.close();
  await emu?.close();
});

describe("a create that times out while the service still works on it", () => {
  it("KNOWN BUG: leaves two objects today, where one is right", async () => {
    await emu.fault({ match: { method: "POST" }, latencyMs: SPIKE_MS, count: 1 });
    await emu.clearRequests();
    const created = await runtime.group.create({
      parentUid: emu.rootGroupUid,
      name: "slow team",
      description: "",
    });
    // Let the delayed first request finish before counting.
    await new Promise((resolve) => setTimeout(resolve, SPIKE_MS + 500));
    const page = await client.iam.groups.list({ childrenOf: emu.rootGroupUid, name: "slow team" });
    // The symptom, exactly: two creates took effect, and the one lookup between them
    // (logged when answered) came back before the first create was done.
    const log = (await emu.requests()).filter(
      (e) => e.method === "POST" || e.query.includes("name="),
    );
    expect(log.map((e) => `${e.method} ${e.status}`)).toEqual([
      "GET 200",
      "POST 200",
      "POST 200",
      "GET 200",
    ]);
    expect(page.items).toHaveLength(2);
    expect(page.items.map((g) => g.uid)).toContain(created.id);
  });
});
