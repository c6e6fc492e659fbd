/**
 * The setup every slow reliability file shares, written once: an emulator of its own, an
 * owner client of it, and, when the file deploys, one engine stack against it; all
 * closed after the file, in reverse order. Call at the top level of a test file; the
 * fields of the returned handle are set once the file's `beforeAll` ran.
 */
import { afterAll, beforeAll } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { IrmClient, type IrmClientOptions } from "../../../sdk/index";
import type { EngineStack } from "../engine-stack";

export interface Scenario {
  emu: TestEmulator;
  /** An owner client of `emu` (its bootstrap token). */
  client: IrmClient;
  /** The file's stack; only when `useScenario` was given `stack`. */
  stack: EngineStack;
}

export interface ScenarioOptions {
  /** Client options beyond the emulator's URL and token (retries, timeouts). */
  client?: Omit<IrmClientOptions, "baseUrl" | "token">;
  /** Makes the file's stack once the emulator runs (`bigOrgStack`, `createEngineStack`). */
  stack?: (emu: TestEmulator, client: IrmClient) => Promise<EngineStack>;
  /** Runs after the stack is made (identities to deploy as, config), before any test. */
  prepare?: (scenario: Scenario) => Promise<void>;
  /** Runs first at teardown, while the emulator still answers (e.g. lift a rate limit). */
  cleanup?: (scenario: Scenario) => Promise<void>;
}

export function useScenario(options: ScenarioOptions = {}): Scenario {
  const scenario = {} as Scenario;
  beforeAll(async () => {
    scenario.emu = await startTestEmulator();
    scenario.client = new IrmClient({
      ...options.client,
      baseUrl: scenario.emu.url,
      token: scenario.emu.token,
    });
    if (options.stack) scenario.stack = await options.stack(scenario.emu, scenario.client);
    await options.prepare?.(scenario);
  });
  afterAll(async () => {
    if (scenario.emu) await options.cleanup?.(scenario);
    await scenario.stack?.dispose();
    await scenario.client?.close();
    await scenario.emu?.close();
  });
  return scenario;
}
