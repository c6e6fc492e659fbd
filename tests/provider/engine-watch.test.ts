/**
 * The dynamic-provider host exits once its engine is gone (`provider/engine-watch.ts`):
 * a CLI killed outright stops nothing it started. The real host of `@pulumi/pulumi` is
 * given the address of a listener standing in for the engine, loads this package's
 * runtime through a resource's provider text, and exits when the listener goes away;
 * `watchEngine` itself never judges an address that never answered, nor one still up.
 */
import * as net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerProject, createConsumerProject } from "../../harness/installed-package";
import { type ProviderHost, startProviderHost } from "../../harness/provider-host";
import { parseEngineAddress, watchEngine } from "../../provider/engine-watch";
import { type ProviderFixture, startProviderFixture } from "../support/provider-fixture";
import { groupProvider } from "../support/provider-texts";

const PROJECT = "engine-watch";
const URN = `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/irm:Group::team`;

/** A listener standing in for the engine; `accepted()` counts the probes it answered. */
function listener(): Promise<{
  server: net.Server;
  address: { host: string; port: number };
  accepted: () => number;
}> {
  let accepted = 0;
  return new Promise((resolve) => {
    const server = net.createServer((socket) => {
      accepted++;
      socket.destroy();
    });
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({ server, address: { host: "127.0.0.1", port }, accepted: () => accepted });
    });
  });
}

const closed = (server: net.Server) => new Promise<void>((done) => server.close(() => done()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves once `done()` holds, or after `withinMs` (the assertion that follows says what is missing). */
async function until(done: () => boolean, withinMs: number): Promise<void> {
  const end = Date.now() + withinMs;
  while (!done() && Date.now() < end) await sleep(10);
}

describe("watchEngine", () => {
  it("calls back once an engine that answered refuses twice, never while it is up", async () => {
    const { server, address } = await listener();
    let gone = 0;
    const stop = watchEngine(address, () => gone++, 50);
    await sleep(400);
    expect(gone).toBe(0);
    await closed(server);
    await until(() => gone > 0, 2000);
    await sleep(150);
    stop();
    expect(gone).toBe(1);
  });

  it("tries at once: an engine gone within the first interval is seen gone", async () => {
    const { server, address } = await listener();
    let gone = 0;
    const stop = watchEngine(address, () => gone++, 300);
    await sleep(100);
    await closed(server);
    await until(() => gone > 0, 2000);
    stop();
    expect(gone).toBe(1);
  });

  it("never judges an address that never answered", async () => {
    const { server, address } = await listener();
    await closed(server);
    let gone = 0;
    const stop = watchEngine(address, () => gone++, 50);
    await sleep(500);
    stop();
    expect(gone).toBe(0);
  });

  it("reads the address the engine hands the host", () => {
    expect(parseEngineAddress("127.0.0.1:40123")).toEqual({ host: "127.0.0.1", port: 40123 });
    expect(parseEngineAddress("[::1]:5")).toEqual({ host: "::1", port: 5 });
    for (const bad of [undefined, "", "127.0.0.1", "x:0", "x:70000", "a b:1"]) {
      expect(parseEngineAddress(bad)).toBeUndefined();
    }
  });
});

describe("the real provider host after its engine is gone", () => {
  let project: ConsumerProject;
  let emu: ProviderFixture;
  let host: ProviderHost | undefined;

  beforeAll(async () => {
    project = createConsumerProject({ name: PROJECT, requiredSubpaths: ["./provider/runtime"] });
    emu = await startProviderFixture();
  });

  afterAll(async () => {
    await host?.close();
    await emu?.close();
    project?.remove();
  });

  it("exits by itself once its engine stops answering", async () => {
    const engine = await listener();
    host = await startProviderHost({
      cwd: project.dir,
      projectName: PROJECT,
      engineAddress: `${engine.address.host}:${engine.address.port}`,
    });
    await host.configure({ "irm:apiUrl": emu.url, "irm:token": emu.token }, ["irm:token"]);
    const news = { parentUid: emu.rootGroupUid, name: "team", description: "" };
    // The provider text loads the runtime, as the engine's first call of a run does.
    const checked = await host.check(URN, {}, { ...news, __provider: groupProvider });
    expect(checked.failures).toEqual([]);
    let exited = false;
    void host.exited.then(() => {
      exited = true;
    });
    // While the engine answers, the host stays: two probes answered (the one as the
    // runtime loaded, and one a whole interval later), and it is still running.
    await until(() => engine.accepted() >= 2, 10_000);
    expect(engine.accepted()).toBeGreaterThanOrEqual(2);
    expect(exited).toBe(false);
    await closed(engine.server);
    const code = await Promise.race([host.exited, sleep(15_000).then(() => "still running")]);
    expect(code).not.toBe("still running");
  }, 40_000);
});
