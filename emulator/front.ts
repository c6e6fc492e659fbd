/**
 * One port for HTTP/1.1 and plaintext HTTP/2 (h2c with prior knowledge, which gRPC
 * clients speak to an `http://` address): each accepted socket's first bytes are
 * compared with the HTTP/2 connection preface; a socket that starts with it is handed
 * to the HTTP/2 server, any other to the HTTP/1.1 server, the bytes read put back.
 */
import type { Server as HttpServer } from "node:http";
import type { Http2Server, ServerHttp2Session } from "node:http2";
import { createServer, type Server, type Socket } from "node:net";

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/** A socket that sends nothing for this long is closed (as the HTTP server's header timeout would). */
const FIRST_BYTES_TIMEOUT_MS = 60_000;

export interface Front {
  server: Server;
  /**
   * Ends every connection: HTTP/2 sessions and every socket, handed over or not (the
   * HTTP/1.1 server tracks connections only when it listens itself, which it does not).
   */
  closeAll(): void;
}

export function createFront(
  http1: HttpServer,
  http2: Http2Server | undefined,
  onConnection: (socket: Socket) => void,
): Front {
  const sessions = new Set<ServerHttp2Session>();
  const sockets = new Set<Socket>();
  http2?.on("session", (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  const server = createServer((socket) => {
    onConnection(socket);
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    if (!http2) {
      http1.emit("connection", socket);
      return;
    }
    let seen = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const compared = Math.min(seen.length, PREFACE.length);
      const isPrefix = seen.subarray(0, compared).equals(PREFACE.subarray(0, compared));
      if (isPrefix && seen.length < PREFACE.length) return;
      socket.off("data", onData);
      socket.setTimeout(0);
      socket.off("timeout", onTimeout);
      socket.pause();
      socket.unshift(seen);
      if (isPrefix) {
        // The session takes the buffered bytes and then reads the socket itself.
        http2.emit("connection", socket);
      } else {
        http1.emit("connection", socket);
        socket.resume();
      }
    };
    const onTimeout = () => socket.destroy();
    socket.on("data", onData);
    socket.setTimeout(FIRST_BYTES_TIMEOUT_MS);
    socket.on("timeout", onTimeout);
    socket.on("error", () => socket.destroy());
  });
  return {
    server,
    closeAll() {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
    },
  };
}
