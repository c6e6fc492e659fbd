/** The service's clock as bounded by `Date` headers (one-second resolution). */
import { describe, expect, it } from "vitest";
import { ServerClock } from "../../sdk";

const SECOND = Date.parse("2026-11-22T15:00:07.000Z");

describe("ServerClock", () => {
  it("knows nothing before an answer", () => {
    expect(new ServerClock().at(Date.now())).toBeUndefined();
  });

  it("one answer bounds the server's time by the header's second and the round trip", () => {
    const clock = new ServerClock();
    // Local clock 10 s behind; sent at local t, answered 40 ms later; header rounded down.
    const sentAtMs = SECOND - 10_000 + 300;
    clock.observe({ serverDateMs: SECOND, sentAtMs, receivedAtMs: sentAtMs + 40 });
    const bounds = clock.at(sentAtMs)!;
    const truth = sentAtMs + 10_000; // the server's real time when the request left
    expect(bounds.earliest).toBeLessThanOrEqual(truth);
    expect(bounds.latest).toBeGreaterThanOrEqual(truth);
    expect(bounds.latest - bounds.earliest).toBeLessThanOrEqual(1_040);
  });

  it("answers on both sides of a second narrow the bounds; contradicting ones (a clock was set) replace them", () => {
    const clock = new ServerClock();
    // Server = local exactly. The first answer is written at .900, the second at 1.100.
    clock.observe({ serverDateMs: SECOND, sentAtMs: SECOND + 880, receivedAtMs: SECOND + 920 });
    clock.observe({
      serverDateMs: SECOND + 1000,
      sentAtMs: SECOND + 1080,
      receivedAtMs: SECOND + 1120,
    });
    const bounds = clock.at(SECOND + 500)!;
    expect(bounds.earliest).toBeLessThanOrEqual(SECOND + 500);
    expect(bounds.latest).toBeGreaterThanOrEqual(SECOND + 500);
    expect(bounds.latest - bounds.earliest).toBe(240); // offsets -120..+120 ms: the tick fell between
    // The server's clock jumps an hour ahead: the newest evidence wins.
    const later = SECOND + 3_600_000;
    clock.observe({
      serverDateMs: later + 5000,
      sentAtMs: SECOND + 5000,
      receivedAtMs: SECOND + 5010,
    });
    expect(clock.at(SECOND + 5000)!.earliest).toBeGreaterThan(later);
  });
});
