/**
 * Emulator fixture for the provider tests: the shared test emulator, a client of its
 * own for arranging data, and the runtime configured against it the way the provider
 * host does (from `irm:` config).
 */

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

/** The `updateMask` of a logged request, split into paths. */
export function maskOf(request: LogEntry): string[] {
  return (new URLSearchParams(request.query).get("updateMask") ?? "").split(",").filter(Boolean);
}
