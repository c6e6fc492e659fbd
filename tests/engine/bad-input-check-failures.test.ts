/**
 * Bad input through the engine and the real provider host: a malformed parent uid and
 * an issuer that is not https fail the resource in `check`, naming its field, before
 * anything is written; whatever the engine created before it stopped is in state and
 * nothing else. The same inputs without an engine, every field of every resource:
 * tests/reliability/fast/bad-input-provider.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { createEngineStack, describeOnEngine, type EngineStack } from "../support/engine-stack";
import { FIXTURES } from "../support/reliability/org";

describeOnEngine("through the engine and the real provider host", { timeout: 300_000 }, () => {
  let emu: TestEmulator;
  const stacks: EngineStack[] = [];
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(async () => {
    for (const stack of stacks) await stack.dispose();
    await emu?.close();
  });

  const WRITES = new Set(["POST", "PATCH", "DELETE"]);

  async function bigOrg(name: string, projectConfig: Record<string, string>) {
    const stack = await createEngineStack({
      name,
      program: FIXTURES.bigOrg,
      emulator: emu,
      projectConfig: { rootUid: emu.rootGroupUid, issuer: emu.issuer, ...projectConfig },
    });
    stacks.push(stack);
    return stack;
  }

  it("a malformed parent uid fails a resource with its field named; nothing is written", async () => {
    const stack = await bigOrg("bad-input-parent", { rootUid: "../../etc/passwd", teams: "2" });
    const result = await stack.up();
    // The engine checks the teams in parallel: whichever it checked first is named.
    expect(result.error).toMatch(
      /resource 'team-\d': property parentUid value .* has a problem: must be a group uid/,
    );
    expect(await stack.resources()).toEqual([]);
    expect((await emu.requests()).filter((e) => WRITES.has(e.method))).toEqual([]);
  });

  it("an issuer that is not https fails the identity before it is written", async () => {
    const stack = await bigOrg("bad-input-issuer", {
      issuer: "http://token.actions.example",
      teams: "1",
    });
    const result = await stack.up();
    expect(result.error).toMatch(
      /resource 'ci-0': property claimMatch value \{(?!<nil>).*\} has a problem: claimMatch\.issuer: must be an https URL/,
    );
    const writes = (await emu.requests()).filter((e) => WRITES.has(e.method));
    expect(writes.some((e) => e.path.startsWith("/iam/v2beta1/identities"))).toBe(false);
    // Whatever the engine wrote before it stopped (the groups, which do not wait for the
    // identity) is in state, and nothing else: state and service agree.
    expect(writes.every((e) => e.method === "POST" && e.path.split("/")[3] === "groups")).toBe(
      true,
    );
    const resources = await stack.resources();
    expect(resources.map((r) => r.name).every((name) => ["team-0", "svc-0"].includes(name))).toBe(
      true,
    );
    expect(resources).toHaveLength(writes.length);
  });
});
