/** `GET /emulator/connections`: the connection count that shows whether a client reuses sockets. */
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";

interface ConnectionCounts {
  opened: number;
  open: number;
}

let emu: TestEmulator;
/** Reads the counts over its own single kept-alive connection, opened once before the tests. */
let controlAgent: Agent;

async function counts(): Promise<ConnectionCounts> {
  const response = await request(`${emu.url}/emulator/connections`, { dispatcher: controlAgent });
  return (await response.body.json()) as ConnectionCounts;
}

async function getRootGroup(dispatcher: Agent): Promise<number> {
  const response = await request(`${emu.url}/iam/v2beta1/groups/${emu.rootGroupUid}`, {
    dispatcher,
    headers: { authorization: `Bearer ${emu.token}` },
  });
  await response.body.text();
  return response.statusCode;
}

beforeAll(async () => {
  emu = await startTestEmulator();
  controlAgent = new Agent({ connections: 1, keepAliveTimeout: 60_000 });
  await counts();
});
afterAll(async () => {
  await controlAgent.close();
  await emu.close();
});

describe("connection counts", () => {
  it("count one connection for requests that reuse it and one per fresh client", async () => {
    const before = await counts();
    const reusing = new Agent({ connections: 1, keepAliveTimeout: 60_000 });
    for (let i = 0; i < 5; i++) expect(await getRootGroup(reusing)).toBe(200);
    const afterReuse = await counts();
    expect(afterReuse.opened - before.opened).toBe(1);
    expect(afterReuse.open - before.open).toBe(1);

    const fresh = [new Agent(), new Agent(), new Agent()];
    for (const agent of fresh) expect(await getRootGroup(agent)).toBe(200);
    expect((await counts()).opened - afterReuse.opened).toBe(3);

    await Promise.all([reusing, ...fresh].map((agent) => agent.close()));
    // The server sees the closes asynchronously: wait until they are counted.
    let after = await counts();
    for (let tries = 0; after.open !== before.open && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await counts();
    }
    expect(after.open).toBe(before.open);
    expect(after.opened - before.opened).toBe(4);
  });

  it("is not reset when the request log is cleared", async () => {
    const before = await counts();
    await emu.clearRequests();
    expect((await counts()).opened).toBeGreaterThanOrEqual(before.opened);
    expect((await counts()).opened).toBeGreaterThan(0);
  });
});
