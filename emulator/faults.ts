/**
 * Injected faults (`POST /emulator/faults`) and the optional rate limiter.
 * A fault matches API and auth requests by method and path; each match uses up
 * one of its `count` (0 = until cleared).
 */
import { invalidArgument } from "./errors";

export interface FaultSpec {
  match: { method?: string; path?: string; pathRegex?: string };
  status?: number;
  retryAfter?: number;
  latencyMs?: number;
  drop?: "before" | "after";
  truncate?: boolean;
  html?: boolean;
  count?: number;
  probability?: number;
}

export interface Fault extends FaultSpec {
  id: string;
  /** Matches left; Infinity when `count` is 0. */
  remaining: number;
  pathPattern?: RegExp;
}

function check(condition: boolean, field: string, reason: string): void {
  if (!condition) throw invalidArgument(field, reason);
}

function isOptional(value: unknown, type: "string" | "number" | "boolean"): boolean {
  return value === undefined || typeof value === type;
}

/** Bounds of fault fields: each keeps the emulator answering and the headers valid. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;
export const MAX_LATENCY_MS = 600_000;
export const MAX_FAULT_COUNT = 1_000_000_000;
export const MAX_REQUESTS_PER_SECOND = 1_000_000;

/** Undefined, or an integer in [min, max] (JSON's 1e400 parses as Infinity: refused too). */
function isOptionalInteger(value: unknown, min: number, max: number): boolean {
  return (
    value === undefined ||
    (Number.isInteger(value) && (value as number) >= min && (value as number) <= max)
  );
}

/** Undefined, or a finite number in [min, max]. */
function isOptionalNumberIn(value: unknown, min: number, max: number): boolean {
  return (
    value === undefined ||
    (typeof value === "number" && Number.isFinite(value) && value >= min && value <= max)
  );
}

/** `Retry-After` seconds: an integer (the header allows nothing else) within a day. */
export function checkRetryAfter(value: unknown, field = "retryAfter"): number | undefined {
  check(
    isOptionalInteger(value, 0, MAX_RETRY_AFTER_SECONDS),
    field,
    `must be an integer from 0 to ${MAX_RETRY_AFTER_SECONDS}`,
  );
  return value as number | undefined;
}

/** Validates a fault body, naming the first wrong field. */
export function parseFault(body: Record<string, unknown>, id: string): Fault {
  const match = body.match ?? {};
  check(
    typeof match === "object" && match !== null && !Array.isArray(match),
    "match",
    "must be an object",
  );
  const { method, path, pathRegex } = match as Record<string, unknown>;
  check(isOptional(method, "string"), "match.method", "must be a string");
  check(isOptional(path, "string"), "match.path", "must be a string");
  check(isOptional(pathRegex, "string"), "match.pathRegex", "must be a string");
  let pathPattern: RegExp | undefined;
  if (typeof pathRegex === "string") {
    try {
      pathPattern = new RegExp(pathRegex);
    } catch {
      throw invalidArgument("match.pathRegex", "must be a valid regular expression");
    }
  }
  const { status, retryAfter, latencyMs, drop, truncate, html, count, probability } = body;
  check(
    isOptionalInteger(status, 200, 599),
    "status",
    "must be an HTTP status code from 200 to 599",
  );
  checkRetryAfter(retryAfter);
  check(
    isOptionalNumberIn(latencyMs, 0, MAX_LATENCY_MS),
    "latencyMs",
    `must be a number from 0 to ${MAX_LATENCY_MS}`,
  );
  check(
    drop === undefined || drop === "before" || drop === "after",
    "drop",
    'must be "before" or "after"',
  );
  check(isOptional(truncate, "boolean"), "truncate", "must be a boolean");
  check(isOptional(html, "boolean"), "html", "must be a boolean");
  check(
    isOptionalInteger(count, 0, MAX_FAULT_COUNT),
    "count",
    `must be an integer from 0 to ${MAX_FAULT_COUNT}`,
  );
  check(isOptionalNumberIn(probability, 0, 1), "probability", "must be a number from 0 to 1");
  const times = (count as number | undefined) ?? 1;
  return {
    id,
    match: {
      method: typeof method === "string" ? method.toUpperCase() : undefined,
      path: path as string | undefined,
      pathRegex: pathRegex as string | undefined,
    },
    pathPattern,
    status: status as number | undefined,
    retryAfter: retryAfter as number | undefined,
    latencyMs: latencyMs as number | undefined,
    drop: drop as Fault["drop"],
    truncate: truncate as boolean | undefined,
    html: html as boolean | undefined,
    count: times,
    probability: probability as number | undefined,
    remaining: times === 0 ? Number.POSITIVE_INFINITY : times,
  };
}

/** One request a fault was applied to (`GET /emulator/faults`). */
export interface TakenFault {
  /** The fault's id (as `POST /emulator/faults` answered it). */
  id: string;
  method: string;
  /** The raw path, without the query. */
  path: string;
}

/** How many takings `GET /emulator/faults` keeps (the oldest go first). */
export const TAKEN_FAULTS_LIMIT = 1000;

export class FaultTable {
  private faults: Fault[] = [];
  private nextId = 1;
  private takenList: TakenFault[] = [];

  add(body: Record<string, unknown>): Fault {
    // Validated whole before anything changes: a refused fault uses no id.
    const fault = parseFault(body, `fault-${this.nextId}`);
    this.nextId++;
    this.faults.push(fault);
    return fault;
  }

  clear(): void {
    this.faults = [];
  }

  /**
   * The requests faults were applied to, oldest first: each is recorded as its fault
   * is taken, before any latency, so a test knows a held request has arrived (the
   * request log records it only once it is answered). Ids are never reused, and
   * `clear()` leaves this record as it is.
   */
  taken(): TakenFault[] {
    return [...this.takenList];
  }

  /** The first fault matching the request; uses one of its matches. */
  take(method: string, rawPath: string): Fault | undefined {
    for (const fault of this.faults) {
      if (fault.match.method && fault.match.method !== method) continue;
      if (fault.match.path && !rawPath.startsWith(fault.match.path)) continue;
      if (fault.pathPattern && !fault.pathPattern.test(rawPath)) continue;
      if (fault.probability !== undefined && Math.random() >= fault.probability) continue;
      fault.remaining--;
      if (fault.remaining <= 0) this.faults = this.faults.filter((other) => other !== fault);
      this.takenList.push({ id: fault.id, method, path: rawPath });
      if (this.takenList.length > TAKEN_FAULTS_LIMIT) this.takenList.shift();
      return fault;
    }
    return undefined;
  }
}

/** Fixed one-second windows on the emulator clock; off until configured. */
export class RateLimiter {
  private requestsPerSecond = 0;
  private retryAfter = 1;
  private windowStart = 0;
  private used = 0;

  /** Callers validate first (controls.ts): this only stores. */
  configure(requestsPerSecond: number, retryAfter: number | undefined): void {
    this.requestsPerSecond = requestsPerSecond;
    this.retryAfter = retryAfter ?? 1;
    this.used = 0;
    this.windowStart = 0;
  }

  /** Undefined when the request may pass, else the Retry-After seconds to answer. */
  admit(nowMs: number): number | undefined {
    if (this.requestsPerSecond <= 0) return undefined;
    const window = Math.floor(nowMs / 1000);
    if (window !== this.windowStart) {
      this.windowStart = window;
      this.used = 0;
    }
    if (this.used >= this.requestsPerSecond) return this.retryAfter;
    this.used++;
    return undefined;
  }
}
