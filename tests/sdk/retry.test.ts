import { describe, expect, it } from "vitest";
import {
  BadResponseError,
  ConnectionError,
  InternalError,
  InvalidArgumentError,
  NotFoundError,
  OutcomeUnknownError,
  RateLimitedError,
  TimeoutError,
  UnavailableError,
} from "../../sdk/core/errors";
import {
  isRetryable,
  parseRetryAfter,
  type RetrySettings,
  retryDelayMs,
  withRetries,
} from "../../sdk/core/retry";

const settings: RetrySettings = {
  retries: 3,
  minDelayMs: 100,
  maxDelayMs: 1000,
  maxRetryTimeMs: 10_000,
  maxRetryAfterMs: 5000,
};

const unavailable = () => new UnavailableError({ code: 14, message: "busy", status: 503 });

describe("isRetryable", () => {
  it("retries the service's UNAVAILABLE and RESOURCE_EXHAUSTED for every method", () => {
    for (const idempotent of [true, false]) {
      expect(isRetryable(unavailable(), idempotent)).toBe(true);
      expect(
        isRetryable(new RateLimitedError({ code: 8, message: "", status: 429 }), idempotent),
      ).toBe(true);
    }
  });

  it("retries 502/504 only when repeating is harmless", () => {
    const gateway = new BadResponseError({ code: 14, message: "", status: 502 });
    const timeout = new BadResponseError({ code: 14, message: "", status: 504 });
    expect(isRetryable(gateway, true)).toBe(true);
    expect(isRetryable(timeout, true)).toBe(true);
    expect(isRetryable(gateway, false)).toBe(false);
  });

  it("retries a connection failed before sending for every method, after sending only if idempotent", () => {
    const before = new ConnectionError({ code: 14, message: "", beforeSend: true });
    const after = new ConnectionError({ code: 14, message: "", beforeSend: false });
    expect(isRetryable(before, false)).toBe(true);
    expect(isRetryable(after, true)).toBe(true);
    expect(isRetryable(after, false)).toBe(false);
    expect(isRetryable(new TimeoutError({ code: 4, message: "" }), true)).toBe(true);
    expect(isRetryable(new TimeoutError({ code: 4, message: "" }), false)).toBe(false);
  });

  it("never retries an unknown outcome, client errors, INTERNAL or foreign errors", () => {
    expect(isRetryable(new OutcomeUnknownError({ code: 2, message: "" }), true)).toBe(false);
    expect(isRetryable(new InvalidArgumentError({ code: 3, message: "", status: 400 }), true)).toBe(
      false,
    );
    expect(isRetryable(new NotFoundError({ code: 5, message: "", status: 404 }), true)).toBe(false);
    expect(isRetryable(new InternalError({ code: 13, message: "", status: 500 }), true)).toBe(
      false,
    );
    expect(isRetryable(new Error("boom"), true)).toBe(false);
  });

  it("retries a garbled success body only when idempotent", () => {
    const garbled = new BadResponseError({ code: 2, message: "", status: 200 });
    expect(isRetryable(garbled, true)).toBe(true);
    expect(isRetryable(garbled, false)).toBe(false);
  });
});

describe("retryDelayMs", () => {
  it("doubles from minDelayMs, caps at maxDelayMs, with jitter between half and all", () => {
    expect(retryDelayMs(1, unavailable(), settings, () => 0)).toBe(50);
    expect(retryDelayMs(1, unavailable(), settings, () => 1)).toBe(100);
    expect(retryDelayMs(3, unavailable(), settings, () => 1)).toBe(400);
    expect(retryDelayMs(10, unavailable(), settings, () => 1)).toBe(1000);
    expect(retryDelayMs(10, unavailable(), settings, () => 0)).toBe(500);
  });

  it("uses Retry-After, capped by maxRetryAfterMs", () => {
    const hinted = (ms: number) =>
      new RateLimitedError({ code: 8, message: "", status: 429, retryAfterMs: ms });
    expect(retryDelayMs(1, hinted(2000), settings, () => 0)).toBe(2000);
    expect(retryDelayMs(1, hinted(3_600_000), settings, () => 0)).toBe(5000);
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates, ignores garbage", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    const now = Date.parse("2026-11-21T10:00:00Z");
    expect(parseRetryAfter("Sat, 21 Nov 2026 10:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("Sat, 21 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe("withRetries", () => {
  const fast: RetrySettings = { ...settings, minDelayMs: 1, maxDelayMs: 2 };

  it("repeats a retryable failure until success and reports each retry", async () => {
    let attempts = 0;
    const notices: number[] = [];
    const result = await withRetries(
      async () => {
        attempts++;
        if (attempts < 3) throw unavailable();
        return "ok";
      },
      { settings: fast, idempotent: true, onRetry: (n) => notices.push(n.retryNumber) },
    );
    expect(result).toBe("ok");
    expect(attempts).toBe(3);
    expect(notices).toEqual([1, 2]);
  });

  it("stops after `retries` retries with the last error", async () => {
    let attempts = 0;
    const run = withRetries(
      async () => {
        attempts++;
        throw unavailable();
      },
      { settings: fast, idempotent: true },
    );
    await expect(run).rejects.toBeInstanceOf(UnavailableError);
    expect(attempts).toBe(fast.retries + 1);
  });

  it("does not retry a non-retryable error", async () => {
    let attempts = 0;
    const run = withRetries(
      async () => {
        attempts++;
        throw new NotFoundError({ code: 5, message: "gone", status: 404 });
      },
      { settings: fast, idempotent: true },
    );
    await expect(run).rejects.toBeInstanceOf(NotFoundError);
    expect(attempts).toBe(1);
  });

  it("gives up at once when the wait would exceed the total time budget", async () => {
    let attempts = 0;
    const run = withRetries(
      async () => {
        attempts++;
        throw new RateLimitedError({ code: 8, message: "", status: 429, retryAfterMs: 60_000 });
      },
      { settings: { ...fast, maxRetryTimeMs: 1000, maxRetryAfterMs: 120_000 }, idempotent: true },
    );
    await expect(run).rejects.toBeInstanceOf(RateLimitedError);
    expect(attempts).toBe(1);
  });

  it("stops waiting when the caller aborts", async () => {
    const controller = new AbortController();
    const run = withRetries(
      async () => {
        setTimeout(() => controller.abort(new Error("caller gave up")), 5);
        throw new RateLimitedError({ code: 8, message: "", status: 429, retryAfterMs: 4000 });
      },
      { settings, idempotent: true, signal: controller.signal },
    );
    await expect(run).rejects.toThrow("caller gave up");
  });
});
