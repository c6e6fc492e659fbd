/**
 * The emulator's clock: real time plus an offset that `/emulator/clock` moves
 * forward, so tests can expire tokens and page tokens without waiting.
 *
 * The clock stays before `MAX_CLOCK_MS` (9000-01-01): timestamps keep four-digit
 * years, and a token minted at the last moment still expires before the year 9999.
 */
export const MAX_CLOCK_MS = Date.UTC(9000, 0, 1);
export const MAX_CLOCK_ISO = new Date(MAX_CLOCK_MS).toISOString();

export class Clock {
  constructor(private offsetMs = 0) {
    if (!Clock.isValidOffset(offsetMs))
      throw new RangeError(`clock offset ${offsetMs} is out of range`);
  }

  /** A non-negative offset that keeps the clock before MAX_CLOCK_MS. */
  static isValidOffset(offsetMs: number): boolean {
    return Number.isFinite(offsetMs) && offsetMs >= 0 && Date.now() + offsetMs < MAX_CLOCK_MS;
  }

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

  /** Whether `advance(seconds)` keeps the clock in range. */
  canAdvance(seconds: number): boolean {
    return (
      Number.isFinite(seconds) &&
      seconds >= 0 &&
      Clock.isValidOffset(this.offsetMs + seconds * 1000)
    );
  }

  /** Moves the clock forward; a move out of range throws and changes nothing. */
  advance(seconds: number): void {
    if (!this.canAdvance(seconds)) {
      throw new RangeError(`advancing the clock by ${seconds} s takes it out of range`);
    }
    this.offsetMs += seconds * 1000;
  }

  get offset(): number {
    return this.offsetMs;
  }
}
