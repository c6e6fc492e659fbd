/**
 * The gRPC face with no descriptor file on the client's side: server reflection (v1 and
 * v1alpha) answered from the shipped descriptor set, read here by a client written from
 * the reflection protocol's field numbers (and by grpcurl, when one is installed: set
 * `GRPCURL` or have it on PATH or in `$(go env GOPATH)/bin`); and a method that is not
 * served answered UNIMPLEMENTED at once, while the client's stream is still open.
 */
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client, credentials, Metadata } from "@grpc/grpc-js";
import * as protobuf from "protobufjs";
import * as descriptor from "protobufjs/ext/descriptor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { descriptorFilePath, loadGrpcDefinitions } from "../../emulator/grpc/descriptors";
import { type RunningEmulator, startEmulator } from "../../emulator/index";

const built = descriptorFilePath() !== undefined || Boolean(process.env.CI);
const GROUPS = "chainguard.platform.iam.v2beta1.GroupsService";

/** A field of a message as bytes: `(number << 3) | 2`, then the length-delimited value. */
function field(number: number, value: Uint8Array | string): Uint8Array {
  const writer = protobuf.Writer.create().uint32((number << 3) | 2);
  return (typeof value === "string" ? writer.string(value) : writer.bytes(value)).finish();
}

/** The length-delimited fields of a message, by number. */
function fields(bytes: Uint8Array): Array<[number, Uint8Array]> {
  const out: Array<[number, Uint8Array]> = [];
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if ((tag & 7) === 2) out.push([tag >>> 3, reader.bytes()]);
    else reader.skipType(tag & 7);
  }
  return out;
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

/** grpcurl, if this machine has one. */
function findGrpcurl(): string | undefined {
  const candidates = [process.env.GRPCURL, "grpcurl"];
  const gopath = spawnSync("go", ["env", "GOPATH"], { encoding: "utf8" }).stdout?.trim();
  if (gopath) candidates.push(path.join(gopath, "bin", "grpcurl"));
  return candidates.find(
    (candidate) =>
      candidate !== undefined &&
      spawnSync(candidate, ["-version"], { encoding: "utf8" }).status === 0,
  );
}

describe.runIf(built)("gRPC server reflection and unserved methods", () => {
  let emu: RunningEmulator;
  let client: Client;

  beforeAll(async () => {
    emu = await startEmulator({ host: "127.0.0.1", port: 0 });
    client = new Client(new URL(emu.url).host, credentials.createInsecure());
  });

  afterAll(async () => {
    client?.close();
    await emu?.close();
  });

  /** Sends reflection requests on one stream and collects the answers until it ends. */
  function reflect(version: "v1" | "v1alpha", requests: Uint8Array[]): Promise<Uint8Array[]> {
    const call = client.makeBidiStreamRequest(
      `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`,
      (value: Uint8Array) => Buffer.from(value),
      (value: Buffer) => new Uint8Array(value),
      new Metadata(),
    );
    const answers: Uint8Array[] = [];
    return new Promise((resolve, reject) => {
      call.on("data", (answer: Uint8Array) => answers.push(answer));
      call.on("error", reject);
      call.on("end", () => resolve(answers));
      for (const request of requests) call.write(request);
      call.end();
    });
  }

  /** The names `list_services` (field 7) answers: list_services_response (6), service (1), name (1). */
  const serviceNames = (answer: Uint8Array) =>
    fields(answer)
      .filter(([n]) => n === 6)
      .flatMap(([, list]) => fields(list).filter(([n]) => n === 1))
      .map(([, service]) => text(fields(service).find(([n]) => n === 1)?.[1] ?? new Uint8Array()));

  /** The files of a file_descriptor_response (4): file_descriptor_proto (1), decoded. */
  const filesOf = (answer: Uint8Array) =>
    fields(answer)
      .filter(([n]) => n === 4)
      .flatMap(([, response]) => fields(response).filter(([n]) => n === 1))
      .map(
        ([, file]) =>
          descriptor.FileDescriptorProto.decode(file) as descriptor.IFileDescriptorProto,
      );

  it.each(["v1", "v1alpha"] as const)(
    "%s lists the served services and answers a symbol with its file and imports",
    async (version) => {
      const [list, symbol, missing] = await reflect(version, [
        field(7, ""),
        field(4, GROUPS),
        field(4, "no.such.Service"),
      ]);
      const services = serviceNames(list);
      expect(services).toContain(GROUPS);
      // Every listed service has a served method; the reflection services' files are not shipped.
      const served = [...loadGrpcDefinitions()!.methods.keys()].map((p) => p.split("/")[1]);
      for (const service of services) expect(served).toContain(service);
      expect(services.some((s) => s.startsWith("grpc.reflection."))).toBe(false);

      const files = filesOf(symbol);
      const own = files[0];
      expect(own.service?.map((s) => `${own.package}.${s.name}`)).toContain(GROUPS);
      // Each import is there too, so a client can build the types with nothing else.
      const names = new Set(files.map((f) => f.name));
      for (const file of files)
        for (const dependency of file.dependency ?? []) expect(names).toContain(dependency);

      // error_response (7): error_code (field 1, a varint) NOT_FOUND.
      const error = fields(missing).find(([n]) => n === 7);
      expect(error).toBeDefined();
      expect(protobuf.Reader.create(error![1]).skip(1).int32()).toBe(5);
    },
  );

  it.each([
    ["a method no service has", "/no.such.Service/Method"],
    ["a streaming method of a served service", undefined],
  ])(
    "%s is answered UNIMPLEMENTED while the client's stream is still open",
    async (_label, given) => {
      const streaming = [...loadGrpcDefinitions()!.methods.values()].find((m) => m.streaming)?.path;
      const method = given ?? streaming;
      if (method === undefined) return; // the set has no streaming method to try
      const call = client.makeBidiStreamRequest(
        method,
        (value: Uint8Array) => Buffer.from(value),
        (value: Buffer) => value,
        new Metadata(),
      );
      call.write(new Uint8Array());
      // The client never ends its side: the answer must not wait for it.
      const status = await new Promise<{ code: number; details: string }>((resolve) => {
        call.on("error", (error: { code: number; details: string }) => resolve(error));
        call.on("data", () => {});
        setTimeout(() => resolve({ code: -1, details: "no answer within 3 s" }), 3000).unref();
      });
      call.cancel();
      expect(status.code, status.details).toBe(12);
    },
  );

  const grpcurl = findGrpcurl();
  it.runIf(grpcurl !== undefined)(
    "grpcurl lists and describes with no flags but -plaintext",
    async () => {
      const host = new URL(emu.url).host;
      const run = (...args: string[]) =>
        new Promise<string>((resolve, reject) =>
          execFile(grpcurl!, ["-plaintext", "-max-time", "20", ...args], (error, stdout, stderr) =>
            error ? reject(new Error(`${stderr}${error.message}`)) : resolve(stdout),
          ),
        );
      expect((await run(host, "list")).split("\n")).toContain(GROUPS);
      const described = await run(host, "describe", GROUPS);
      expect(described).toContain(`${GROUPS} is a service:`);
      expect(described).toMatch(
        /rpc CreateGroup \( \.chainguard\.platform\.iam\.v2beta1\.CreateGroupRequest \)/,
      );
      expect(await run(host, "describe", "chainguard.platform.iam.v2beta1.Group")).toContain(
        "message Group {",
      );
    },
    60_000,
  );

  it("the descriptor set file is the one the build ships", () => {
    expect(fs.existsSync(descriptorFilePath()!)).toBe(true);
  });
});
