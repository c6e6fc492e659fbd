/**
 * Test controls under `/emulator/` (docs/architecture.md, "Emulator: test
 * controls"): request log, faults, clock, seed data, tokens, rate limiting.
 * They need no token and are never logged.
 */

import type { EmulatorContext } from "./api";
import { MAX_CLOCK_ISO, MAX_CLOCK_MS } from "./clock";
import { invalidArgument, notFound } from "./errors";
import {
  checkRetryAfter,
  type FaultTable,
  MAX_REQUESTS_PER_SECOND,
  type RateLimiter,
} from "./faults";
import type { RequestLog } from "./request-log";
import { type ApiRequest, type ApiResponse, bodyObject, type JsonObject, ok } from "./requests";
import { requiredString, seed } from "./seed";

export interface ControlDeps {
  ctx: EmulatorContext;
  log: RequestLog;
  faults: FaultTable;
  rateLimiter: RateLimiter;
}

/** Longest lifetime of a token minted by `/emulator/tokens`: ten years. */
const MAX_TOKEN_TTL_SECONDS = 10 * 365 * 86_400;

/**
 * A required number in [min, max]. JSON's `1e400` parses as Infinity: it is out of
 * range, not "not a number", so the message tells the bound.
 */
function boundedNumber(
  body: JsonObject,
  field: string,
  min: number,
  max: number,
  rule: string,
): number {
  const value = body[field];
  if (typeof value !== "number" || Number.isNaN(value))
    throw invalidArgument(field, "must be a number");
  if (!(value >= min && value <= max)) throw invalidArgument(field, rule);
  return value;
}

export async function handleControl(deps: ControlDeps, request: ApiRequest): Promise<ApiResponse> {
  const { ctx, log, faults, rateLimiter } = deps;
  switch (`${request.method} ${request.path}`) {
    case "GET /emulator/requests":
      return ok({ requests: log.list() });
    case "DELETE /emulator/requests":
      log.clear();
      return ok({});
    case "GET /emulator/connections":
      return ok({ ...log.connections() });
    case "POST /emulator/faults": {
      const fault = faults.add(bodyObject(request));
      return ok({ id: fault.id });
    }
    case "GET /emulator/faults":
      return ok({ taken: faults.taken() });
    case "DELETE /emulator/faults":
      faults.clear();
      return ok({});
    case "POST /emulator/clock": {
      const body = bodyObject(request);
      if (body.advanceSeconds === undefined || body.advanceSeconds === null) {
        throw invalidArgument("advanceSeconds", "is required");
      }
      // Up to the last whole second before MAX_CLOCK_MS.
      const maxSeconds = Math.max(0, Math.floor((MAX_CLOCK_MS - 1 - ctx.clock.nowMs()) / 1000));
      const seconds = boundedNumber(
        body,
        "advanceSeconds",
        0,
        maxSeconds,
        `must be a number from 0 to ${maxSeconds}: the emulator clock stays before ${MAX_CLOCK_ISO}`,
      );
      ctx.clock.advance(seconds);
      ctx.state.touch();
      return ok({ now: ctx.clock.isoNow() });
    }
    case "GET /emulator/clock":
      return ok({ now: ctx.clock.isoNow() });
    case "POST /emulator/tokens": {
      const body = bodyObject(request);
      const identityUid = requiredString(body, "identityUid", "identityUid");
      const ttlSeconds =
        body.ttlSeconds === undefined || body.ttlSeconds === null
          ? 3600
          : boundedNumber(
              body,
              "ttlSeconds",
              Number.MIN_VALUE,
              MAX_TOKEN_TTL_SECONDS,
              `must be a number of seconds above 0 and at most ${MAX_TOKEN_TTL_SECONDS} (ten years)`,
            );
      if (!ctx.state.identities.has(identityUid)) throw notFound(identityUid);
      const token = await ctx.tokens.mintApiToken(identityUid, ttlSeconds, ctx.clock.now());
      return ok({ token });
    }
    case "POST /emulator/rate-limit": {
      const body = bodyObject(request);
      const perSecond = boundedNumber(
        body,
        "requestsPerSecond",
        0,
        MAX_REQUESTS_PER_SECOND,
        `must be a number from 0 to ${MAX_REQUESTS_PER_SECOND} (0 turns rate limiting off)`,
      );
      // Both fields validated before the limiter changes: a refused call changes nothing.
      const retryAfter = checkRetryAfter(body.retryAfter === null ? undefined : body.retryAfter);
      rateLimiter.configure(perSecond, retryAfter);
      return ok({});
    }
    case "POST /emulator/seed":
      return ok(seed(ctx, bodyObject(request)));
    default:
      throw notFound(`${request.method} ${request.path}`);
  }
}
