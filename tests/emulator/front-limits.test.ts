/**
 * What one client may hold on the emulator's port, whichever face (HTTP/1.1, HTTP/2,
 * gRPC) its socket ends in: a request head dribbled line by line, a body that never
 * ends, thousands of streams on one connection, a gRPC message announced at 100 MiB.
 * Each is refused promptly (408 and close, RST_STREAM, GOAWAY, RESOURCE_EXHAUSTED as
 * HTTP/2 and gRPC specify), not read to its end or kept open.
 */
import { once } from "node:events";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import * as http2 from "node:http2";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFront,
  DEFAULT_TIMEOUTS,
  type Front,
  HTTP2_LIMITS,
  HTTP2_SERVER_OPTIONS,
} from "../../emulator/front";
import { descriptorFilePath } from "../../emulator/grpc/descriptors";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Resolves once `done()` holds, or after `withinMs` (the assertions that follow then say what is missing). */
async function until(done: () => boolean, withinMs = 2000): Promise<void> {
  const end = Date.now() + withinMs;
  while (!done() && Date.now() < end) await sleep(20);
}
const PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/** A raw TCP connection, with what it received and whether (and when) it closed. */
interface Raw {
  socket: Socket;
  received(): Buffer;
  closedAt(): number | undefined;
}

async function raw(port: number): Promise<Raw> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  const chunks: Buffer[] = [];
  let closedAt: number | undefined;
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", () => undefined);
  socket.on("close", () => {
    closedAt = Date.now();
  });
  return { socket, received: () => Buffer.concat(chunks), closedAt: () => closedAt };
}

/** Writes `lines` one every `everyMs` until the socket closes; the time it closed, if it did. */
async function dribble(connection: Raw, lines: string[], everyMs: number): Promise<void> {
  for (const line of lines) {
    if (connection.closedAt() !== undefined) return;
    connection.socket.write(line);
    await sleep(everyMs);
  }
}

const slowHead = (count: number) => [
  "GET /ping/v2beta1/ping HTTP/1.1\r\n",
  "Host: 127.0.0.1\r\n",
  ...Array.from({ length: count }, (_, i) => `X-Slow-${i}: ${i}\r\n`),
];

describe("the front's timeouts (small ones, on plain servers)", () => {
  const TIMEOUTS = { headMs: 600, requestMs: 1200 };
  let http1: HttpServer;
  let h2: http2.Http2Server;
  let front: Front;
  let port = 0;

  beforeAll(async () => {
    http1 = createHttpServer((request, response) => {
      request.resume();
      request.on("end", () => response.end("ok"));
    });
    h2 = http2.createServer(HTTP2_SERVER_OPTIONS, (request, response) => {
      request.resume();
      request.on("end", () => response.end("ok"));
    });
    front = createFront(http1, h2, () => undefined, TIMEOUTS);
    front.server.listen(0, "127.0.0.1");
    await once(front.server, "listening");
    port = (front.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    front.closeAll();
    await new Promise((resolve) => front.server.close(resolve));
  });

  it("an HTTP/1.1 head dribbled a line at a time is answered 408 and closed at the head timeout", async () => {
    const connection = await raw(port);
    const started = Date.now();
    await dribble(connection, slowHead(40), 100);
    expect(connection.closedAt()).toBeDefined();
    expect(connection.closedAt()! - started).toBeLessThan(TIMEOUTS.headMs + 1000);
    expect(connection.received().toString("latin1")).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("a second head on a kept-alive connection has the same bound", async () => {
    const connection = await raw(port);
    connection.socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await until(() => /^HTTP\/1\.1 200 /.test(connection.received().toString("latin1")));
    expect(connection.received().toString("latin1")).toMatch(/^HTTP\/1\.1 200 /);
    const started = Date.now();
    await dribble(connection, slowHead(40), 100);
    expect(connection.closedAt()).toBeDefined();
    expect(connection.closedAt()! - started).toBeLessThan(TIMEOUTS.headMs + 1000);
  });

  it("an HTTP/1.1 body dribbled a byte at a time is cut at the request timeout", async () => {
    const connection = await raw(port);
    const started = Date.now();
    connection.socket.write(
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\nContent-Type: application/json\r\n\r\n",
    );
    await dribble(connection, Array(60).fill("x"), 100);
    expect(connection.closedAt()).toBeDefined();
    expect(connection.closedAt()! - started).toBeLessThan(TIMEOUTS.requestMs + 1000);
  });

  it("a connection that never finishes the HTTP/2 preface is closed at the head timeout", async () => {
    const connection = await raw(port);
    const started = Date.now();
    await dribble(connection, PREFACE.split("").slice(0, 20), 100);
    expect(connection.closedAt()).toBeDefined();
    expect(connection.closedAt()! - started).toBeLessThan(TIMEOUTS.headMs + 1000);
  });

  it("an HTTP/2 request whose body never ends is reset (CANCEL) at the request timeout", async () => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on("error", () => undefined);
    try {
      const stream = session.request({ ":method": "POST", ":path": "/" });
      stream.on("error", () => undefined);
      const started = Date.now();
      const writer = setInterval(() => {
        if (!stream.destroyed) stream.write("x");
      }, 100);
      await once(stream, "close");
      clearInterval(writer);
      expect(stream.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
      expect(Date.now() - started).toBeLessThan(TIMEOUTS.requestMs + 1000);
    } finally {
      session.destroy();
    }
  });
});

// ------------------------------------------------------------- HTTP/2 frames, by hand

function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

/** An HPACK string literal without Huffman coding (lengths below 127). */
const literal = (text: string) => Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);

/** HEADERS of a gRPC call to `path`, no END_STREAM: the call stays open. */
function grpcHeaders(path: string): Buffer {
  return Buffer.concat([
    Buffer.from([0x83, 0x86]), // :method POST, :scheme http (static table)
    Buffer.from([0x04]), // :path, literal without indexing
    literal(path),
    Buffer.from([0x01]), // :authority
    literal("127.0.0.1"),
    Buffer.from([0x0f, 0x10]), // content-type (static index 31)
    literal("application/grpc"),
  ]);
}

interface Frame {
  type: number;
  flags: number;
  streamId: number;
  payload: Buffer;
}

function frames(bytes: Buffer): Frame[] {
  const out: Frame[] = [];
  let at = 0;
  while (at + 9 <= bytes.length) {
    const length = bytes.readUIntBE(at, 3);
    if (at + 9 + length > bytes.length) break;
    out.push({
      type: bytes[at + 3],
      flags: bytes[at + 4],
      streamId: bytes.readUInt32BE(at + 5) & 0x7fffffff,
      payload: bytes.subarray(at + 9, at + 9 + length),
    });
    at += 9 + length;
  }
  return out;
}

const GROUPS_LIST = "/chainguard.platform.iam.v2beta1.GroupsService/ListGroups";
const built = descriptorFilePath() !== undefined || Boolean(process.env.CI);

describe.runIf(built)("the emulator's HTTP/2 and gRPC limits", () => {
  let emu: TestEmulator;
  let port = 0;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: false });
    port = Number(new URL(emu.url).port);
  });
  afterAll(async () => {
    await emu?.close();
  });

  it("advertises a stream limit, and refuses streams past it on one connection", async () => {
    const connection = await raw(port);
    connection.socket.write(
      Buffer.concat([Buffer.from(PREFACE), frame(0x4, 0, 0, Buffer.alloc(0))]),
    );
    await until(() => frames(connection.received()).some((f) => f.type === 0x4 && f.flags === 0));
    const settings = frames(connection.received()).find((f) => f.type === 0x4 && f.flags === 0);
    expect(settings).toBeDefined();
    const advertised = new Map<number, number>();
    for (let at = 0; at + 6 <= settings!.payload.length; at += 6) {
      advertised.set(settings!.payload.readUInt16BE(at), settings!.payload.readUInt32BE(at + 2));
    }
    // SETTINGS_MAX_CONCURRENT_STREAMS
    expect(advertised.get(0x3)).toBe(HTTP2_LIMITS.maxConcurrentStreams);
    connection.socket.write(frame(0x4, 0x1, 0, Buffer.alloc(0))); // ACK
    const opened = 3 * HTTP2_LIMITS.maxConcurrentStreams;
    const block = grpcHeaders(GROUPS_LIST);
    const burst: Buffer[] = [];
    for (let i = 0; i < opened; i++) burst.push(frame(0x1, 0x4, 1 + 2 * i, block));
    connection.socket.write(Buffer.concat(burst));
    const refusedEnough = () => {
      const got = frames(connection.received());
      return (
        got.some((f) => f.type === 0x7) ||
        got.filter((f) => f.type === 0x3).length >= opened - HTTP2_LIMITS.maxConcurrentStreams
      );
    };
    await until(refusedEnough);
    const answered = frames(connection.received());
    const refusedStreams = answered.filter((f) => f.type === 0x3).length;
    const goaway = answered.some((f) => f.type === 0x7);
    // Refused promptly: each stream past the limit reset, or the connection ended.
    expect(goaway || refusedStreams >= opened - HTTP2_LIMITS.maxConcurrentStreams).toBe(true);
    connection.socket.destroy();
  });

  it("a gRPC message announced at 100 MiB is refused with RESOURCE_EXHAUSTED once its prefix is read", async () => {
    const session = http2.connect(emu.url);
    session.on("error", () => undefined);
    try {
      const stream = session.request({
        ":method": "POST",
        ":path": GROUPS_LIST,
        "content-type": "application/grpc",
        te: "trailers",
        authorization: `Bearer ${emu.token}`,
      });
      stream.on("error", () => undefined);
      let status: string | undefined;
      let writtenWhenAnswered: number | undefined;
      let written = 0;
      stream.on("trailers", (trailers) => {
        status = String(trailers["grpc-status"]);
        writtenWhenAnswered ??= written;
      });
      stream.on("response", (headers) => {
        if (headers["grpc-status"] !== undefined) {
          status = String(headers["grpc-status"]);
          writtenWhenAnswered ??= written;
        }
      });
      stream.resume();
      const closed = once(stream, "close");
      const prefix = Buffer.alloc(5);
      prefix.writeUInt32BE(100 * 1024 * 1024, 1);
      stream.write(prefix);
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      while (status === undefined && stream.writable && written < 8 * 1024 * 1024) {
        written += chunk.length;
        if (!stream.write(chunk)) {
          await Promise.race([once(stream, "drain"), closed, sleep(2000)]);
        }
      }
      await Promise.race([closed, sleep(2000)]);
      expect(status).toBe(String(8)); // RESOURCE_EXHAUSTED
      expect(writtenWhenAnswered).toBeLessThan(2 * 1024 * 1024);
      expect(stream.destroyed).toBe(true);
    } finally {
      session.destroy();
    }
  });
});

describe("the emulator's own head timeout", () => {
  const headMs = 1000;
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({
      seed: false,
      grpc: false,
      frontTimeouts: { ...DEFAULT_TIMEOUTS, headMs },
    });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it("is 10 s for a head and 60 s for a whole request unless configured", () => {
    expect(DEFAULT_TIMEOUTS).toEqual({ headMs: 10_000, requestMs: 60_000 });
  });

  it("a head dribbled a line at a time is closed with 408 at the head timeout, not kept open", async () => {
    const connection = await raw(Number(new URL(emu.url).port));
    const started = Date.now();
    await dribble(connection, slowHead(40), 100);
    expect(connection.closedAt()).toBeDefined();
    expect(connection.closedAt()! - started).toBeGreaterThanOrEqual(headMs - 50);
    expect(connection.closedAt()! - started).toBeLessThan(headMs + 1500);
    expect(connection.received().toString("latin1")).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe("request bodies far over the limit are not read to their end", () => {
  let emu: TestEmulator;
  let port = 0;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: false });
    port = Number(new URL(emu.url).port);
  });
  afterAll(async () => {
    await emu?.close();
  });

  const head = (framing: string) =>
    `POST /iam/v2beta1/groups/${emu.rootGroupUid} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    `Authorization: Bearer ${emu.token}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;

  /** Writes 64 KiB pieces (as `piece` frames them) until an answer arrives or `max` bytes are out. */
  async function sendUntilAnswered(
    connection: Raw,
    piece: (chunk: Buffer) => Buffer,
    max: number,
  ): Promise<number> {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let written = 0;
    while (connection.received().length === 0 && connection.closedAt() === undefined) {
      if (written >= max) break;
      written += chunk.length;
      if (!connection.socket.write(piece(chunk))) {
        await Promise.race([once(connection.socket, "drain").catch(() => undefined), sleep(1000)]);
      }
    }
    return written;
  }

  it("HTTP/1.1, a Content-Length of 100 MiB: answered before any of the body, then closed", async () => {
    const connection = await raw(port);
    connection.socket.write(head(`Content-Length: ${100 * 1024 * 1024}`));
    await until(
      () =>
        connection.received().toString("latin1").includes("must not exceed") ||
        connection.closedAt() !== undefined,
    );
    const answer = connection.received().toString("latin1");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain("must not exceed");
    await sendUntilAnswered(connection, (c) => c, 256 * 1024 * 1024);
    await until(() => connection.closedAt() !== undefined);
    expect(connection.closedAt()).toBeDefined();
  });

  it("HTTP/1.1, a chunked body that goes on: answered past the drained bound, then closed", async () => {
    const connection = await raw(port);
    connection.socket.write(head("Transfer-Encoding: chunked"));
    const written = await sendUntilAnswered(
      connection,
      (c) => Buffer.concat([Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from("\r\n")]),
      64 * 1024 * 1024,
    );
    await until(() => /^HTTP\/1\.1 400 /.test(connection.received().toString("latin1")));
    expect(connection.received().toString("latin1")).toMatch(/^HTTP\/1\.1 400 /);
    expect(written).toBeLessThan(16 * 1024 * 1024);
    await sendUntilAnswered(connection, (c) => c, 256 * 1024 * 1024);
    await until(() => connection.closedAt() !== undefined);
    expect(connection.closedAt()).toBeDefined();
  });

  it("HTTP/2 (not gRPC), a Content-Length of 100 MiB: answered before any of the body", async () => {
    const session = http2.connect(emu.url);
    session.on("error", () => undefined);
    try {
      const stream = session.request({
        ":method": "POST",
        ":path": `/iam/v2beta1/groups/${emu.rootGroupUid}`,
        "content-type": "application/json",
        "content-length": String(100 * 1024 * 1024),
        authorization: `Bearer ${emu.token}`,
      });
      stream.on("error", () => undefined);
      const status = await Promise.race([
        once(stream, "response").then(([headers]) => Number(headers[":status"])),
        sleep(2000).then(() => 0),
      ]);
      expect(status).toBe(400);
    } finally {
      session.destroy();
    }
  });
});
