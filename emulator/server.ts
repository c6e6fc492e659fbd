/**
 * The HTTP face: Node's HTTP/1.1 server (and HTTP/2 requests that are not gRPC) hands
 * each request here. Paths under `/emulator/` go to the test controls' handler
 * (control-route.ts), every other path through the API pipeline (pipeline.ts); bodies
 * are read by body.ts, answers written by replies.ts. Every failure is an AIP-193 body
 * (never a crash, never an unanswered request unless a fault says so).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { readRequestBody } from "./body";
import { checkControlCaller } from "./control-guard";
import { createControlHandler, isControlPath } from "./control-route";
import { ApiError, invalidArgument } from "./errors";
import { createApiPipeline, decodePath, type PipelineDeps } from "./pipeline";
import { describe, errorResponse, reply, toApiError } from "./replies";

export interface ServerDeps extends PipelineDeps {
  /** Test controls answer callers beyond loopback too (`--open-controls`). */
  openControls?: boolean;
}

/**
 * Requests Node's HTTP parser refuses before any handler runs (not HTTP, headers or URL
 * too large, conflicting framing) get an AIP-193 body too, instead of Node's bare 400.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  const reason = tooLarge ? "headers (or the URL) are too large" : "is not a valid HTTP request";
  const body = JSON.stringify(invalidArgument("request", reason).toBody());
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `/oidc/token` however its path is spelled (percent-escapes, a trailing slash aside). */
function isOidcTokenPath(rawPath: string): boolean {
  try {
    return decodePath(rawPath).replace(/\/+$/, "") === "/oidc/token";
  } catch {
    return false;
  }
}

/**
 * The handler of every HTTP request: the test controls' paths to their own handler,
 * the others to the API's.
 */
export function createRequestHandler(deps: ServerDeps) {
  const { clock } = deps.ctx;
  const answerApi = createApiPipeline(deps);
  const handleControlRequest = createControlHandler(deps);

  async function handleApiRequest(
    request: IncomingMessage,
    response: ServerResponse,
    rawPath: string,
    query: string,
  ): Promise<void> {
    if (request.method === "POST" && isOidcTokenPath(rawPath)) {
      // Its tokens are accepted by the built-in `platform-user` identity: it answers
      // the callers the test controls answer, no one else.
      try {
        checkControlCaller(request, deps.openControls === true, "the test issuer's token endpoint");
      } catch (error) {
        request.resume();
        reply(clock, response, errorResponse(toApiError(error)));
        return;
      }
    }
    const outcome = await answerApi({
      method: request.method ?? "GET",
      rawPath,
      query,
      authorization: request.headers.authorization,
      readBody: () => readRequestBody(request, response),
    });
    if (outcome.kind === "drop") {
      request.socket.destroy();
      return;
    }
    reply(clock, response, outcome.result, { truncate: outcome.truncate, html: outcome.html });
  }

  return (request: IncomingMessage, response: ServerResponse): void => {
    const url = request.url ?? "/";
    const queryAt = url.indexOf("?");
    const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
    const query = queryAt < 0 ? "" : url.slice(queryAt + 1);
    const work = isControlPath(rawPath)
      ? handleControlRequest(request, response, rawPath, query)
      : handleApiRequest(request, response, rawPath, query);
    work.catch((error: unknown) => {
      // Last resort: a bug must still answer, not hang the client.
      process.stderr.write(`emulator: unexpected failure: ${describe(error)}\n`);
      if (!response.headersSent) {
        reply(
          clock,
          response,
          errorResponse(new ApiError("INTERNAL", "Internal: unexpected failure")),
        );
      } else {
        response.destroy();
      }
    });
  };
}
