/**
 * Secrets through the engine: a sentinel token configured as the Pulumi secret
 * `irm:token` or as the `IRM_TOKEN` environment variable appears nowhere in state (the
 * serialized providers included), in the program's or the provider host's output
 * (with `IRM_DEBUG=1` too), or in any file the runs leave. A refused token:
 * tests/engine/new-user.test.ts; the SDK's own output: tests/reliability/fast/secrets.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import {
  createEngineStack,
  describeOnEngine,
  type EngineStack,
  type RunOutcome,
} from "../support/engine-stack";
import { expectNoSecret } from "../support/no-secret";
import { FIXTURES } from "../support/reliability/org";

// Several engine runs per test, each a CLI, a language host and a provider host.
describeOnEngine("through the engine: up, refresh and destroy", { timeout: 400_000 }, () => {
  let emu: TestEmulator;
  let ownerUid: string;
  const stacks: EngineStack[] = [];

  beforeAll(async () => {
    emu = await startTestEmulator();
    ownerUid = JSON.parse(Buffer.from(emu.token.split(".")[1], "base64url").toString("utf8"))
      .sub as string;
  });

  afterAll(async () => {
    for (const stack of stacks) await stack.dispose();
    await emu?.close();
  });

  /** A one-team stack of the reliability fixture; IRM_DEBUG=1 makes the provider log. */
  async function bigOrg(name: string, env: Record<string, string> = {}, tokenFromEnv = false) {
    const stack = await createEngineStack({
      name,
      program: FIXTURES.bigOrg,
      emulator: emu,
      projectConfig: { rootUid: emu.rootGroupUid, issuer: emu.issuer, teams: "1" },
      env: { IRM_DEBUG: "1", ...env },
      tokenFromEnv,
    });
    stacks.push(stack);
    return stack;
  }

  /** Everything a user could see or keep: what each run printed, state, files on disk. */
  async function everything(
    stack: EngineStack,
    runs: RunOutcome[],
  ): Promise<Record<string, string>> {
    return {
      "the runs' output and events": runs.map((run) => run.output).join("\n"),
      "the runs' errors": runs.map((run) => run.error ?? "").join("\n"),
      "state (stack export)": JSON.stringify(await stack.resources()),
      "state, backups, history, logs and config on disk": stack.persistedText(),
    };
  }

  /** One stack for the tokens given in config: each test sets the one it tries. */
  let configStack: Promise<EngineStack> | undefined;
  const withConfigToken = () => {
    configStack ??= bigOrg("secrets-config");
    return configStack;
  };

  it("a token given as the Pulumi secret irm:token stays out of state and output", async () => {
    const sentinel = await emu.mintToken(ownerUid, 3600);
    const stack = await withConfigToken();
    await stack.setConfig("irm:token", sentinel, true);
    // Some 503s, so that the debug log has retries to report.
    await emu.fault({ match: { method: "POST" }, status: 503, count: 3 });
    // Each run without its preview: a preview runs the same program and provider code
    // (a refresh's reads the same objects, a destroy's calls the provider not at
    // all), and what is checked here is what the runs that send requests print.
    const created = await stack.up({ skipPreview: true });
    expect(created.error, created.output).toBeUndefined();
    const resources = await stack.resources();
    expect(resources).toHaveLength(5);
    // The provider host's debug log reached the engine's output: what is checked is real.
    expect(created.output).toMatch(/retry/i);
    const providers = resources.map((r) => String(r.inputs.__provider));
    expect(providers.every((text) => text.includes("pulumi-irm/provider/runtime"))).toBe(true);
    const refreshed = await stack.refresh({ skipPreview: true });
    expect(refreshed.error).toBeUndefined();
    const afterRefresh = await everything(stack, [created, refreshed]);
    const destroyed = await stack.destroy({ skipPreview: true });
    expect(destroyed.error).toBeUndefined();
    expectNoSecret(sentinel, {
      ...afterRefresh,
      "the serialized providers": providers.join("\n"),
      "the output of destroy": destroyed.output,
    });
  });

  it("a token given as IRM_TOKEN stays out of state and output", async () => {
    const sentinel = await emu.mintToken(ownerUid, 3600);
    const stack = await bigOrg("secrets-env", { IRM_TOKEN: sentinel }, true);
    await emu.fault({ match: { method: "GET" }, status: 503, count: 2 });
    const created = await stack.up({ skipPreview: true });
    expect(created.error, created.output).toBeUndefined();
    expect(await stack.resources()).toHaveLength(5);
    // The provider was handed the token from the environment, not from config.
    expect(stack.persistedText()).not.toContain("irm:token");
    expectNoSecret(sentinel, await everything(stack, [created]));
  });
  // A refused token (not a JWT, expired) in no output, error or file of the failed run:
  // tests/engine/new-user.test.ts, where the same preview names irm:token once.
});
