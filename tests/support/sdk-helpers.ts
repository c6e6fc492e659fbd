/** Shared set-up of the SDK's emulator tests. */

import type { LogEntry, TestEmulator } from "../../harness/emulator";
import { IrmClient, type IrmClientOptions, type SdkEvent } from "../../sdk";

export interface TestClient {
  client: IrmClient;
  events: SdkEvent[];
}

const open: IrmClient[] = [];

/** A client of `emu` with the owner token, tiny backoff delays and no ambient IRM_* variables. */
export function clientFor(emu: TestEmulator, options: IrmClientOptions = {}): TestClient {
  const events: SdkEvent[] = [];
  const client = new IrmClient({
    baseUrl: emu.url,
    token: options.tokenSource || options.identity ? undefined : emu.token,
    env: {},
    logger: (event) => events.push(event),
    ...options,
    retry: { minDelayMs: 1, maxDelayMs: 5, ...options.retry },
  });
  open.push(client);
  return { client, events };
}

export async function closeClients(): Promise<void> {
  await Promise.all(open.splice(0).map((client) => client.close()));
}

/** `METHOD path?query -> status` lines of the emulator's request log, for readable assertions. */
export async function requestLines(emu: TestEmulator): Promise<string[]> {
  return (await emu.requests()).map(line);
}

export function line(entry: LogEntry): string {
  return `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ""} -> ${entry.status}`;
}

/** Catches the rejection of `promise` for assertions on the error object. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}
