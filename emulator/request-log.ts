/**
 * The log of API and auth requests that `GET /emulator/requests` answers, and the
 * count of TCP connections that `GET /emulator/connections` answers (so benchmarks
 * and tests can check that a client reuses its connections).
 */

export interface LogEntry {
  seq: number;
  method: string;
  /** Raw path, as sent, without the query. */
  path: string;
  /** Raw query string without `?`. */
  query: string;
  /** HTTP status answered; 0 when the connection was dropped. */
  status: number;
  /** Emulator-clock time of the request, ISO 8601. */
  time: string;
}

export const DEFAULT_REQUEST_LOG_LIMIT = 100_000;

/** Connections accepted since the emulator started, and those still open. */
export interface ConnectionCounts {
  opened: number;
  open: number;
}

export class RequestLog {
  private entries: LogEntry[] = [];
  private seq = 0;
  private readonly connectionCounts: ConnectionCounts = { opened: 0, open: 0 };

  constructor(private readonly limit = DEFAULT_REQUEST_LOG_LIMIT) {}

  record(entry: Omit<LogEntry, "seq">): void {
    this.entries.push({ seq: ++this.seq, ...entry });
    // Trim in chunks so a long run does not shift the array on every request.
    if (this.entries.length > this.limit + Math.max(1, Math.floor(this.limit / 10))) {
      this.entries = this.entries.slice(this.entries.length - this.limit);
    }
  }

  list(): LogEntry[] {
    return this.entries.length > this.limit
      ? this.entries.slice(this.entries.length - this.limit)
      : [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }

  /** Counts a newly accepted connection until it closes. Not reset by `clear`. */
  trackConnection(socket: { once(event: "close", listener: () => void): unknown }): void {
    this.connectionCounts.opened++;
    this.connectionCounts.open++;
    socket.once("close", () => {
      this.connectionCounts.open--;
    });
  }

  connections(): ConnectionCounts {
    return { ...this.connectionCounts };
  }
}
