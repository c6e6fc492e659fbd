/**
 * A create that times out while the service is still working on it: the provider's
 * request waits behind a latency spike longer than the client's timeout, so the SDK
 * reports the outcome as unknown. A look-up right away finds nothing yet; the
 * provider must keep looking (it backs off for at least ten seconds) instead of
 * creating again, or the first request completes too and the object exists twice.
 * A dropped connection after the service acted is covered by
 * dropped-connections.test.ts: there the first look-up finds the object.
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
  it("is found once the first request completes, and not created again", async () => {
    await emu.fault({ match: { method: "POST" }, latencyMs: SPIKE_MS, count: 1 });
    await emu.clearRequests();
    const created = await runtime.group.create({
      parentUid: emu.rootGroupUid,
      name: "slow team",
      description: "",
    });
    // Give a second create, had one been sent, time to land before counting.
    await new Promise((resolve) => setTimeout(resolve, SPIKE_MS + 500));
    const log = await emu.requests();
    const page = await client.iam.groups.list({ childrenOf: emu.rootGroupUid, name: "slow team" });
    expect(page.items.map((g) => g.uid)).toEqual([created.id]);
    const posts = log.filter((e) => e.method === "POST");
    const lookups = log.filter((e) => e.method === "GET" && e.query.includes("name="));
    expect(posts.map((e) => e.status)).toEqual([200]);
    // At least one look-up came back empty before the delayed create finished, and the
    // provider kept looking rather than creating again.
    expect(lookups.length).toBeGreaterThanOrEqual(2);
  });
});
