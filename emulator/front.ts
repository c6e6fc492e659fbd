/**
 * One port for HTTP/1.1 and plaintext HTTP/2 (h2c with prior knowledge, which gRPC
 * clients speak to an `http://` address): each accepted socket's first bytes are
 * compared with the HTTP/2 connection preface; a socket that starts with it is handed
 * to the HTTP/2 server, any other to the HTTP/1.1 server, the bytes read put back.
 *
 * The front also bounds what one client may hold, whichever face its socket ends in
 * (the HTTP/1.1 server applies its own header and request timeouts only to sockets it
 * accepted itself, and these are handed to it):
 * - a request's head (or the HTTP/2 preface) must arrive whole within `headMs` of the
 *   connection, or of the end of the answer before it on a kept-alive connection;
 *   else `408` and the socket is closed;
 * - a request must arrive whole (head and body) within `requestMs`: past it an HTTP/1.1
 *   socket is closed (`408` when no answer has started), an HTTP/2 stream reset
 *   (`RST_STREAM` `CANCEL`);
 * - an HTTP/2 connection holds at most `HTTP2_LIMITS.maxConcurrentStreams` open
 *   requests (advertised in its SETTINGS; one more is refused with `RST_STREAM`
 *   `REFUSED_STREAM`, and one past what the client acknowledged ends the connection
 *   with `GOAWAY`) and `HTTP2_LIMITS.maxSessionMemory` MiB of buffered data.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from "node:http";
import {
  type Http2Server,
  type ServerOptions as Http2ServerOptions,
  constants as http2Constants,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from "node:http2";
import { createServer, type Server, type Socket } from "node:net";

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

export interface FrontTimeouts {
  /** From the connection (or the last answer) to a whole request head; default 10 s. */
  headMs: number;
  /** From a request's head to the end of its body; default 60 s. */
  requestMs: number;
}

export const DEFAULT_TIMEOUTS: FrontTimeouts = { headMs: 10_000, requestMs: 60_000 };

/** The HTTP/2 server's limits per connection (`createServer` options of `node:http2`). */
export const HTTP2_LIMITS = {
  /** Open requests (streams) one connection may hold; HTTP/2 asks that it be at least 100. */
  maxConcurrentStreams: 100,
  /** Buffered data of one connection, in MiB, past which new streams are refused (Node.js's default, stated). */
  maxSessionMemory: 10,
} as const;

/** The options the emulator's HTTP/2 server is created with. */
export const HTTP2_SERVER_OPTIONS: Http2ServerOptions = {
  settings: { maxConcurrentStreams: HTTP2_LIMITS.maxConcurrentStreams },
  maxSessionMemory: HTTP2_LIMITS.maxSessionMemory,
};

const REQUEST_TIMEOUT_ANSWER =
  "HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

export interface Front {
  server: Server;
  /**
   * Ends every connection: HTTP/2 sessions and every socket, handed over or not (the
   * HTTP/1.1 server tracks connections only when it listens itself, which it does not).
   */
  closeAll(): void;
}

/** The one timer of an HTTP/1.1 socket: for the next head, or for a request's body. */
interface SocketClock {
  timer?: NodeJS.Timeout;
  /** Requests read and not yet answered (more than one only when pipelined). */
  open: number;
  /** Whether an answer has started (a timeout then closes without a 408). */
  answering: boolean;
  /** The request whose body the timer waits for; undefined while it waits for a head. */
  bodyOf?: IncomingMessage;
}

export function createFront(
  http1: HttpServer,
  http2: Http2Server | undefined,
  onConnection: (socket: Socket) => void,
  timeouts: FrontTimeouts = DEFAULT_TIMEOUTS,
): Front {
  const sessions = new Set<ServerHttp2Session>();
  const sockets = new Set<Socket>();
  const clocks = new WeakMap<Socket, SocketClock>();

  /** Closes `socket` `ms` from now, with a 408 unless an answer has started. */
  const arm = (socket: Socket, clock: SocketClock, ms: number, bodyOf?: IncomingMessage) => {
    clearTimeout(clock.timer);
    clock.bodyOf = bodyOf;
    clock.timer = setTimeout(() => {
      if (!clock.answering && socket.writable) socket.end(REQUEST_TIMEOUT_ANSWER);
      socket.destroy();
    }, ms);
    clock.timer.unref();
  };

  /** Hands `socket` to HTTP/1.1, its first head due `headMs` after `acceptedAt`. */
  const toHttp1 = (socket: Socket, acceptedAt: number) => {
    const clock: SocketClock = { open: 0, answering: false };
    clocks.set(socket, clock);
    arm(socket, clock, Math.max(0, timeouts.headMs - (Date.now() - acceptedAt)));
    socket.once("close", () => clearTimeout(clock.timer));
    http1.emit("connection", socket);
  };

  // Runs before the request handler: the head is in, the body must follow in time.
  http1.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const clock = clocks.get(socket);
    if (!clock) return;
    clock.open++;
    arm(socket, clock, timeouts.requestMs, request);
    const bodyIn = () => {
      // Answering takes the time it takes (a fault's latency included).
      if (clock.bodyOf === request) {
        clearTimeout(clock.timer);
        clock.bodyOf = undefined;
      }
    };
    if (request.complete) bodyIn();
    else request.once("end", bodyIn);
    const answered = () => {
      clock.answering = false;
      // With no request left, the next head has its whole time again (keep-alive).
      if (--clock.open === 0 && !socket.destroyed) arm(socket, clock, timeouts.headMs);
    };
    response.once("prefinish", () => {
      clock.answering = true;
    });
    response.once("finish", answered);
  });

  http2?.on("session", (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  http2?.on("stream", (stream: ServerHttp2Stream) => {
    // The request's body must be in within `requestMs` of its head.
    const timer = setTimeout(() => {
      if (!stream.destroyed) stream.close(http2Constants.NGHTTP2_CANCEL);
    }, timeouts.requestMs);
    timer.unref();
    const done = () => clearTimeout(timer);
    if (stream.readableEnded) done();
    stream.once("end", done);
    stream.once("close", done);
  });

  const server = createServer((socket) => {
    onConnection(socket);
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const acceptedAt = Date.now();
    if (!http2) {
      toHttp1(socket, acceptedAt);
      return;
    }
    let seen = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const compared = Math.min(seen.length, PREFACE.length);
      const isPrefix = seen.subarray(0, compared).equals(PREFACE.subarray(0, compared));
      if (isPrefix && seen.length < PREFACE.length) return;
      socket.off("data", onData);
      clearTimeout(firstBytes);
      socket.pause();
      socket.unshift(seen);
      if (isPrefix) {
        // The session takes the buffered bytes and then reads the socket itself.
        http2.emit("connection", socket);
      } else {
        toHttp1(socket, acceptedAt);
        socket.resume();
      }
    };
    // Until the face is known, the head's time runs for both: a preface or a request.
    const firstBytes = setTimeout(() => socket.destroy(), timeouts.headMs);
    firstBytes.unref();
    socket.once("close", () => clearTimeout(firstBytes));
    socket.on("data", onData);
  });
  return {
    server,
    closeAll() {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
    },
  };
}
