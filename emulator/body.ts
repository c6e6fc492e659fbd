/**
 * Reading a request's body, bounded: the HTTP server's API requests and test controls
 * read theirs here, and the gRPC face bounds its messages by the same size.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import { invalidArgument } from "./errors";
import type { ApiRequest } from "./requests";

/** Request bodies above this size are refused with INVALID_ARGUMENT on `body`. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Past `MAX_BODY_BYTES`, at most this much more of a body is read (and thrown away)
 * before the answer, so that a client still sending reads it. A longer body, or one
 * whose `Content-Length` announces more, is answered at once and read no further.
 */
export const MAX_DRAINED_BYTES = 4 * 1024 * 1024;

/** After answering an abandoned HTTP/1.1 body, how long the rest is read and dropped before the socket closes. */
const LINGER_MS = 1000;

export interface RawBody {
  bytes: Buffer;
  tooLarge: boolean;
  /** The body was not read to its end (past `MAX_DRAINED_BYTES`): close after the answer. */
  abandoned?: boolean;
}

/**
 * A request's body, at most `limit` bytes of it: past the limit up to
 * `MAX_DRAINED_BYTES` more are drained (so the client still reads the answer) but not
 * kept, and `tooLarge` is set; past that, or at once when `Content-Length` announces
 * more, reading stops and `abandoned` is set too. Over HTTP/2 flow control then holds
 * the client back; over HTTP/1.1 `closeAfterAbandoned` ends the connection.
 */
export function readBody(
  request: Readable & { headers?: Record<string, unknown> },
  limit = MAX_BODY_BYTES,
): Promise<RawBody> {
  const abandoned: RawBody = { bytes: Buffer.alloc(0), tooLarge: true, abandoned: true };
  if (Number(request.headers?.["content-length"] ?? 0) > limit + MAX_DRAINED_BYTES) {
    return Promise.resolve(abandoned);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit + MAX_DRAINED_BYTES) {
        request.off("data", onData);
        request.off("end", onEnd);
        request.pause();
        resolve(abandoned);
        return;
      }
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve({ bytes: Buffer.concat(chunks), tooLarge });
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", reject);
  });
}

/**
 * The answer to a request whose body was abandoned, over HTTP/1.1, ends its connection:
 * once the answer is out the socket's sending side closes, what still arrives is read
 * and dropped for `LINGER_MS` (closing at once would reset the connection, and the
 * client, still sending, would lose the answer), then the socket closes. Over HTTP/2
 * nothing is needed: flow control holds the client back.
 */
export function closeAfterAbandoned(request: IncomingMessage, response: ServerResponse): void {
  if (request.httpVersionMajor >= 2) return;
  response.once("finish", () => {
    const socket = request.socket;
    socket.end();
    request.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

/** A JSON body parsed, or the reason it cannot be (a form is kept for the token exchange). */
export function parseBody(
  raw: RawBody,
  contentType: string | undefined,
): Pick<ApiRequest, "body" | "bodyError" | "form"> {
  if (raw.tooLarge) {
    return {
      body: undefined,
      bodyError: invalidArgument("body", `must not exceed ${MAX_BODY_BYTES} bytes`),
    };
  }
  if (raw.bytes.length === 0) return { body: undefined };
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType === "application/x-www-form-urlencoded") {
    // Read by the token exchange; any other route refuses it as a body.
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(new TextDecoder("utf-8", { fatal: true }).decode(raw.bytes));
    } catch {
      return { body: undefined, bodyError: invalidArgument("body", "is not valid UTF-8") };
    }
    return {
      body: undefined,
      form,
      bodyError: invalidArgument("body", `Content-Type must be application/json, not ${mediaType}`),
    };
  }
  if (mediaType !== "" && mediaType !== "application/json" && !mediaType.endsWith("+json")) {
    return {
      body: undefined,
      bodyError: invalidArgument("body", `Content-Type must be application/json, not ${mediaType}`),
    };
  }
  let text: string;
  try {
    // Fatal decoding: invalid UTF-8 must not be stored as replacement characters.
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw.bytes);
  } catch {
    return { body: undefined, bodyError: invalidArgument("body", "is not valid UTF-8") };
  }
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { body: undefined, bodyError: invalidArgument("body", "is not valid JSON") };
  }
}

/** An HTTP request's body read and parsed; an abandoned one ends its connection after the answer. */
export async function readRequestBody(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<Pick<ApiRequest, "body" | "bodyError" | "form">> {
  const raw = await readBody(request);
  if (raw.abandoned) closeAfterAbandoned(request, response);
  return parseBody(raw, request.headers["content-type"]);
}
