/**
 * The emulator's clock: real time plus an offset that `/emulator/clock` moves
 * forward, so tests can expire tokens and page tokens without waiting.
 */
export class Clock {
  constructor(private offsetMs = 0) {}

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** ISO 8601 with milliseconds and `Z`, the API's timestamp format. */
  isoNow(): string {
    return this.now().toISOString();
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  get offset(): number {
    return this.offsetMs;
  }
}
