/**
 * Emulator fixture for the provider tests: the shared test emulator, a client of its
 * own for arranging data, and the runtime configured against it the way the provider
 * host does (from `irm:` config).
 */

import { afterAll, beforeAll, beforeEach } from "vitest";
import type { EmulatorOptions } from "../../emulator/index";
import { type LogEntry, startTestEmulator, type TestEmulator } from "../../harness/emulator";
import * as runtime from "../../provider/runtime";
import { IrmClient } from "../../sdk/index";

export interface ProviderFixture extends TestEmulator {
  /** A client of its own, for arranging data and checking results. */
  client: IrmClient;
  /** Configures the runtime as the host would, from `irm:` config over the defaults. */
  configureRuntime(config?: Record<string, string>): Promise<void>;
}

export async function startProviderFixture(
  options: EmulatorOptions = {},
): Promise<ProviderFixture> {
  const emulator = await startTestEmulator(options);
  return {
    ...emulator,
    client: new IrmClient({ baseUrl: emulator.url, token: emulator.token }),
    async configureRuntime(config = {}) {
      const values: Record<string, string> = {
        "irm:apiUrl": emulator.url,
        "irm:token": emulator.token,
        ...config,
      };
      await runtime.configure({
        config: {
          get: (key) => values[key],
          require: (key) => {
            const value = values[key];
            if (value === undefined) throw new Error(`missing ${key}`);
            return value;
          },
        },
      });
    },
  };
}

export interface ProviderSuite {
  /** A group of its own under the root (`<prefix>-<n>`), the request log cleared after. */
  freshGroup(): Promise<string>;
  /** A name no other test of the file uses (`<prefix>-<n>`), so tests stay independent. */
  uniqueName(prefix: string): string;
}

/**
 * The usual setup of a provider test file: one fixture for the file (started before
 * all, closed after all, handed to `onStart`), and before each test the runtime
 * configured afresh with no faults and an empty request log.
 */
export function useProviderFixture(options: {
  /** Names the groups `freshGroup` makes. */
  groupPrefix?: string;
  onStart(fixture: ProviderFixture): void | Promise<void>;
}): ProviderSuite {
  let fixture: ProviderFixture | undefined;
  beforeAll(async () => {
    fixture = await startProviderFixture();
    await options.onStart(fixture);
  });
  afterAll(async () => {
    await fixture?.close();
  });
  beforeEach(async () => {
    await fixture?.configureRuntime();
    await fixture?.clearFaults();
    await fixture?.clearRequests();
  });
  let counter = 0;
  return {
    async freshGroup() {
      if (!fixture) throw new Error("freshGroup before the fixture started");
      counter += 1;
      const [uid] = (
        await fixture.seed({
          groups: [
            {
              parentUid: fixture.rootGroupUid,
              name: `${options.groupPrefix ?? "group"}-${counter}`,
            },
          ],
        })
      ).groups;
      await fixture.clearRequests();
      return uid;
    },
    uniqueName(prefix) {
      counter += 1;
      return `${prefix}-${counter}`;
    },
  };
}

/** The `updateMask` of a logged request, split into paths. */
export function maskOf(request: LogEntry): string[] {
  return (new URLSearchParams(request.query).get("updateMask") ?? "").split(",").filter(Boolean);
}
