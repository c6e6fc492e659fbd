/**
 * The one path every API request takes, whatever carried it (HTTP/1.1, HTTP/2, or a
 * gRPC call translated to a request): faults, the rate limit, the router, the
 * durability wait and the request log.
 */
import type { Api, EmulatorContext } from "./api";
import { errorForStatus, invalidArgument, notFound, resourceExhausted } from "./errors";
import type { Fault, FaultTable, RateLimiter } from "./faults";
import { durably, errorResponse, toApiError } from "./replies";
import type { RequestLog } from "./request-log";
import type { ApiRequest, ApiResponse } from "./requests";

export interface PipelineDeps {
  ctx: EmulatorContext;
  api: Api;
  log: RequestLog;
  faults: FaultTable;
  rateLimiter: RateLimiter;
  /**
   * Resolves once every change made so far is durable (`--data`); every answer waits
   * for it, so no answer tells of a change a crash could still lose.
   */
  commit: () => Promise<void>;
}

/** A path as sent, each segment's percent-escapes decoded. */
export function decodePath(rawPath: string): string {
  try {
    return rawPath
      .split("/")
      .map((segment) => decodeURIComponent(segment))
      .join("/");
  } catch {
    throw invalidArgument("path", "has malformed percent-encoding");
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One API request, whatever carried it (HTTP/1.1, or a gRPC call translated to it). */
export interface ApiCall {
  method: string;
  /** The path as sent, percent-escapes and all (faults and the log match it). */
  rawPath: string;
  query: string;
  authorization?: string;
  /** Reads the body (after any fault latency), parsed or with the reason it cannot be. */
  readBody(): Promise<Pick<ApiRequest, "body" | "bodyError">>;
}

/** What to do with a call: drop the connection, or send the answer (maybe as a fault shapes it). */
export type ApiOutcome =
  | { kind: "drop" }
  | { kind: "answer"; result: ApiResponse; truncate?: boolean; html?: boolean };

/**
 * The one path every API request takes: faults, the rate limit, the router, the
 * durability wait and the request log. The HTTP server and the gRPC face both use it,
 * so a call is refused, journaled and logged the same way whichever carried it.
 */
export function createApiPipeline(deps: PipelineDeps): (call: ApiCall) => Promise<ApiOutcome> {
  const { ctx, api, log, faults, rateLimiter } = deps;

  return async (call) => {
    const { method, rawPath, query } = call;
    const time = ctx.clock.isoNow();
    const record = (status: number) => log.record({ method, path: rawPath, query, status, time });

    const fault: Fault | undefined = faults.take(method, rawPath);
    if (fault?.drop === "before") {
      record(0);
      return { kind: "drop" };
    }
    let result: ApiResponse;
    try {
      const body = await call.readBody();
      if (fault?.latencyMs) await sleep(fault.latencyMs);
      if (fault?.status !== undefined && fault.drop !== "after") {
        // The status is the fault's own; the body carries the nearest gRPC code.
        const injected = {
          ...errorResponse(errorForStatus(fault.status, fault.retryAfter)),
          status: fault.status,
        };
        record(fault.status);
        return { kind: "answer", result: injected, truncate: fault.truncate, html: fault.html };
      }
      const retryAfter = rateLimiter.admit(ctx.clock.nowMs());
      if (retryAfter !== undefined) throw resourceExhausted(retryAfter);
      const parsed: ApiRequest = {
        method,
        path: decodePath(rawPath),
        query: new URLSearchParams(query),
        authorization: call.authorization,
        ...body,
      };
      const answer = await api.handle(parsed);
      if (!answer) throw notFound(`${method} ${rawPath}`);
      result = answer;
    } catch (error) {
      result = errorResponse(toApiError(error));
    }
    result = await durably(deps.commit, result);
    if (fault?.drop === "after") {
      record(0);
      return { kind: "drop" };
    }
    if (fault?.html) {
      // HTML without a status: the request took effect, then a proxy answered 502.
      const status = 502;
      record(status);
      return { kind: "answer", result: { status, body: null }, html: true };
    }
    record(result.status);
    return { kind: "answer", result, truncate: fault?.truncate };
  };
}
