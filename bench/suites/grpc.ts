/**
 * The emulator's gRPC face against its HTTP face: requests per second for the same
 * list and the same create, sent by the same number of concurrent callers, to one
 * emulator process serving both on one port.
 */
import { Client, credentials, Metadata } from "@grpc/grpc-js";
import { Agent } from "undici";
import { loadGrpcDefinitions } from "../../emulator/grpc/descriptors";
import { BENCH_KEEP_ALIVE_MS, startEmulatorProcess } from "../lib/emulator-process";
import { bareOk } from "../lib/http";
import type { Measurement, Section } from "../lib/report";
import { median, now } from "../lib/stats";
import type { Suite, SuiteContext } from "../lib/suite";

const CONCURRENT = 20;
const GROUPS = 200;
const SERVICE = "/chainguard.platform.iam.v2beta1.GroupsService";

interface Rate {
  requestsPerSecond: number;
  completed: number;
  failures: number;
  medianMs: number;
}

/** `CONCURRENT` callers each send `call()` back to back for `durationMs`. */
async function rate(durationMs: number, call: (n: number) => Promise<void>): Promise<Rate> {
  const latencies: number[] = [];
  let failures = 0;
  let sent = 0;
  const begin = now();
  const deadline = begin + durationMs;
  await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      while (now() < deadline) {
        const at = now();
        try {
          await call(sent++);
          latencies.push(now() - at);
        } catch {
          failures++;
        }
      }
    }),
  );
  const elapsed = now() - begin;
  return {
    requestsPerSecond: (latencies.length / elapsed) * 1000,
    completed: latencies.length,
    failures,
    medianMs: median(latencies),
  };
}

async function run(context: SuiteContext): Promise<Section[]> {
  const loadMs = context.pick(4_000, 1_000);
  const emu = await startEmulatorProcess();
  const defs = loadGrpcDefinitions();
  const section: Section = {
    id: "emulator-grpc",
    title: "6c. Emulator: gRPC and HTTP, requests per second",
    method:
      `${CONCURRENT} concurrent callers send the same call back to back for ${(loadMs / 1000).toFixed(1)} s ` +
      "to one emulator process serving both faces on one port: over HTTP/1.1 with undici (one " +
      `connection each), over gRPC with @grpc/grpc-js (one HTTP/2 connection, ${CONCURRENT} calls in ` +
      `flight). List: the children of the organisation, ${GROUPS} groups, first page of 50. ` +
      "Create: a new group under the organisation (a fresh name each time).",
    measurements: [],
    notes: [],
  };
  const grpcUrl = emu.bootstrap.grpcUrl;
  if (!defs || !grpcUrl) {
    await emu.close();
    section.notes.push("Not measured: this build has no gRPC descriptor set (Go was absent).");
    return [section];
  }
  const agent = new Agent({ connections: CONCURRENT, keepAliveTimeout: BENCH_KEEP_ALIVE_MS });
  const client = new Client(new URL(grpcUrl).host, credentials.createInsecure());
  try {
    await emu.seed({
      generate: { kind: "groups", count: GROUPS, parentUid: emu.rootGroupUid, namePrefix: "g" },
    });
    const list = defs.methods.get(`${SERVICE}/ListGroups`)!;
    const create = defs.methods.get(`${SERVICE}/CreateGroup`)!;
    const metadata = new Metadata();
    metadata.set("authorization", `Bearer ${emu.token}`);
    const unary = (path: string, bytes: Uint8Array) =>
      new Promise<Buffer>((resolve, reject) => {
        client.makeUnaryRequest(
          path,
          (value: Uint8Array) => Buffer.from(value),
          (value: Buffer) => value,
          bytes,
          metadata,
          (error, value) => (error || !value ? reject(error) : resolve(value)),
        );
      });
    const listBytes = list.input
      .encode(list.input.fromObject({ uidp: { children_of: emu.rootGroupUid }, page_size: 50 }))
      .finish();
    const root = encodeURIComponent(emu.rootGroupUid);
    const listPath = `/iam/v2beta1/groups?uidp.children_of=${root}&page_size=50`;

    // Each face answers the same first page before anything is timed.
    const overHttp = await bareOk<{ groups: unknown[] }>(
      agent,
      "GET",
      `${emu.url}${listPath}`,
      emu.token,
    );
    const overGrpc = list.output.decode(await unary(list.path, listBytes)) as unknown as {
      groups: unknown[];
    };
    if (overHttp.groups.length !== 50 || overGrpc.groups.length !== 50) {
      throw new Error("the two faces do not answer the same first page");
    }

    const results: Array<[string, string, Rate]> = [];
    context.log("grpc: list over HTTP, then over gRPC");
    results.push([
      "list-http",
      "list, HTTP/1.1",
      await rate(loadMs, async () => {
        await bareOk(agent, "GET", `${emu.url}${listPath}`, emu.token);
      }),
    ]);
    results.push([
      "list-grpc",
      "list, gRPC",
      await rate(loadMs, async () => {
        await unary(list.path, listBytes);
      }),
    ]);
    context.log("grpc: create over HTTP, then over gRPC");
    results.push([
      "create-http",
      "create, HTTP/1.1",
      await rate(loadMs, async (n) => {
        await bareOk(agent, "POST", `${emu.url}/iam/v2beta1/groups/${root}`, emu.token, {
          name: `http-${n}`,
        });
      }),
    ]);
    results.push([
      "create-grpc",
      "create, gRPC",
      await rate(loadMs, async (n) => {
        const message = create.input.fromObject({
          parent: emu.rootGroupUid,
          group: { name: `grpc-${n}` },
        });
        await unary(create.path, create.input.encode(message).finish());
      }),
    ]);
    for (const [id, label, result] of results) {
      const measurement: Measurement = {
        id: `rps-${id}`,
        label,
        value: result.requestsPerSecond,
        unit: "req/s",
        detail: `${result.completed} answered, ${result.failures} failed; median ${result.medianMs.toFixed(2)} ms`,
      };
      section.measurements.push(measurement);
    }
    section.notes.push(
      "A gRPC call is translated into the HTTP request of its method's rule and its answer back " +
        "into the output message: the difference between the two faces is that translation plus " +
        "the transport.",
    );
    return [section];
  } finally {
    client.close();
    await agent.close();
    await emu.close();
  }
}

export const grpcSuite: Suite = { name: "grpc", sectionIds: ["emulator-grpc"], run };
