/**
 * What a new user meets first, on the real engine with the real CLI's output: a preview
 * that says what the `up` then does (an edit and a rename of a group with children, a
 * protected child among them), errors of the program that arrive within seconds and
 * once, a refused token reported once before any request, a missing parent named before
 * any create, check failures of nested fields on the input the program wrote (or on no
 * input when its value holds a secret), and a delete blocked by an object the stack does
 * not manage, reported at once by name. One stack of `fixtures/new-user`, runs in order.
 *
 * Each kind of refusal is shown on the engine once; its other cases depend on the
 * provider alone and are proven without an engine: the settings refused before any
 * request (a token that is no JWT, an http:// address off this machine, no irm:apiUrl)
 * in tests/provider/config.test.ts, the failures of a nested field (an unknown
 * capability, a claimMatch.issuer that is not https) on their top-level input in
 * tests/provider/top-level-failures.test.ts, the latter also on the engine in
 * tests/engine/bad-input-check-failures.test.ts.
 */
import * as path from "node:path";
import { UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { writesOf } from "../../harness/request-names";
import {
  createEngineStack,
  type EngineStack,
  hasRealEngine,
  type RunOutcome,
  type Step,
} from "../support/engine-stack";
import { expectNoSecret } from "../support/no-secret";

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`).sort();

/** How many times `text` occurs in `within`. */
const count = (within: string, text: string) => within.split(text).length - 1;

/**
 * The CLI's summary of a run's diagnostics (each also shows once in the progress lines
 * above it): where "reported once" is counted.
 */
const diagnostics = (run: RunOutcome) => printed(run).split(/^Diagnostics:$/m)[1] ?? "";

/** The human output of the CLI (the JSON events the harness appends left out). */
const printed = (run: RunOutcome) =>
  run.output
    .split("\n")
    .filter((line) => !line.startsWith("{"))
    .join("\n");

describe.runIf(hasRealEngine())("what a new user meets first", { shuffle: false }, () => {
  let emulator: TestEmulator;
  let stack: EngineStack;
  let parentUid: string;

  beforeAll(async () => {
    emulator = await startTestEmulator();
    [parentUid] = (
      await emulator.seed({ groups: [{ parentUid: emulator.rootGroupUid, name: "new-user" }] })
    ).groups;
    stack = await createEngineStack({
      name: "new-user",
      program: path.join(__dirname, "fixtures", "new-user"),
      emulator,
      projectConfig: { parentUid },
    });
  }, 300_000);

  afterAll(async () => {
    await stack?.dispose();
    await emulator?.close();
  });

  it("up creates the team, its protected child, an identity and its binding", async () => {
    // Its plan is not what this test proves (the next test's is).
    const result = await stack.up({ skipPreview: true });
    expect(result.error).toBeUndefined();
    expect(describeSteps(result.changes)).toEqual([
      "create ci",
      "create ci-viewer",
      "create sub",
      "create team",
    ]);
  }, 300_000);

  it("a description edit and a rename of a group with children preview as exactly one update, and are one", async () => {
    // Neither field replaces the group: were either to, the plan would say replace.
    stack.editProgram('description: "first"', 'description: "second"');
    stack.editProgram('name: "team",', 'name: "team-renamed",');
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(result.planned && describeSteps(result.planned)).toEqual(["update team"]);
    expect(describeSteps(result.changes)).toEqual(["update team"]);
    const preview = printed(result).split(/^Updating \(/m)[0];
    expect(preview).toMatch(/~ 1 to update/);
    expect(preview).not.toMatch(/to replace/);
    // One PATCH with both fields in its mask (each field's mask alone is proven in
    // org-hierarchy.test.ts).
    expect(writesOf(await stack.takeRequests())).toEqual([
      "PATCH /iam/v2beta1/groups/<team>?updateMask=name,description 200",
    ]);
  }, 300_000);

  let normalSeconds: number | undefined;
  /**
   * Seconds a preview of the unchanged program takes on this machine, measured once for
   * the two timing checks below (each allows a minute more).
   */
  async function normalPreviewSeconds(): Promise<number> {
    if (normalSeconds === undefined) {
      const started = Date.now();
      expect((await stack.preview({ expectNoChanges: true })).error).toBeUndefined();
      normalSeconds = (Date.now() - started) / 1000;
    }
    return normalSeconds;
  }

  it("a misspelt role name in a lookup fails the preview as fast as a preview, once, naming it and the nearest role", async () => {
    const normal = await normalPreviewSeconds();
    stack.editProgram('getRoleOutput({ name: "viewer" })', 'getRoleOutput({ name: "veiwer" })');
    const started = Date.now();
    const preview = await stack.preview();
    const seconds = (Date.now() - started) / 1000;
    stack.editProgram('getRoleOutput({ name: "veiwer" })', 'getRoleOutput({ name: "viewer" })');
    expect(preview.error).toBeDefined();
    expect(
      count(diagnostics(preview), 'getRole: role named "veiwer": found none; nearest: "viewer"'),
    ).toBe(1);
    expect(printed(preview)).not.toMatch(/LookupError|\bat .*\.js:\d+/);
    // It took minutes (the error formatted with util.inspect); a preview takes seconds.
    expect(seconds).toBeLessThan(normal + 60);
  }, 300_000);

  it("a wrong token fails the preview as fast as a preview with one message naming irm:token", async () => {
    const normal = await normalPreviewSeconds();
    // Signed by the service and unexpired on this machine's clock, but past its exp on
    // the service's: only the API can tell it is wrong (one lookup asks).
    const owner = JSON.parse(Buffer.from(emulator.token.split(".")[1], "base64url").toString())
      .sub as string;
    const wrong = await emulator.mintToken(owner, 3600);
    await emulator.advanceClock(7200);
    await stack.setConfig("irm:token", wrong, true);
    const started = Date.now();
    const preview = await stack.preview();
    const seconds = (Date.now() - started) / 1000;
    await stack.setConfig("irm:token", emulator.token, true);
    expect(preview.error).toBeDefined();
    expect(count(diagnostics(preview), "the API refused the credentials")).toBe(1);
    expect(diagnostics(preview)).toContain("check irm:token");
    expect(printed(preview)).not.toMatch(/UnauthenticatedError|codeName|\bat .*\.js:\d+/);
    expect(seconds).toBeLessThan(normal + 60);
    // The refused token (its signature alone included) is in no output, error or file.
    expectNoSecret(wrong, everything(preview));
  }, 300_000);

  /**
   * A preview with `irm:<key>` set to `value` (restored after): what it printed and the
   * requests it sent.
   */
  async function previewWith(key: string, value: string, secret = false) {
    await stack.setConfig(key, value, secret);
    await emulator.clearRequests();
    try {
      const preview = await stack.preview();
      return { preview, requests: await emulator.requests() };
    } finally {
      const restored: Record<string, string> = {
        "irm:apiUrl": emulator.url,
        "irm:token": emulator.token,
      };
      await stack.setConfig(key, restored[key], secret);
    }
  }

  /** Everything a user could see or keep of a run: its output, its error, state and files. */
  function everything(run: RunOutcome): Record<string, string> {
    return {
      "the run's output and events": run.output,
      "the run's error": run.error ?? "",
      "state, backups, history, logs and config on disk": stack.persistedText(),
    };
  }

  /** The preview failed with `message` once, without a stack, and sent nothing. */
  function refusedOnce(run: { preview: RunOutcome; requests: unknown[] }, message: string) {
    expect(run.preview.error).toBeDefined();
    expect(count(diagnostics(run.preview), message), printed(run.preview)).toBe(1);
    expect(printed(run.preview)).not.toMatch(/\bat .*\.js:\d+|SettingsError/);
    expect(run.requests).toEqual([]);
  }

  it("an expired token fails the preview once naming irm:token, with no request and nowhere kept", async () => {
    // One settings refusal on the engine: printed once, one line, before any request. The
    // others (a token that is no JWT, an http:// address off this machine, no irm:apiUrl)
    // are the same refusal with other messages: tests/provider/config.test.ts.
    const expired = new UnsecuredJWT({ sub: "me" }).setExpirationTime("-1h").encode();
    const run = await previewWith("irm:token", expired, true);
    refusedOnce(run, "irm:token expired at ");
    expect(printed(run.preview)).not.toContain(expired);
    // The refused token is in none of the run's output, errors, state or files on disk.
    expectNoSecret(expired, everything(run.preview));
  }, 300_000);

  it("a parent that does not exist fails the preview naming parentUid, before any create", async () => {
    const missing = `${parentUid}/0123456789abcdef`;
    stack.editProgram(
      "// EXTRA",
      `new irm.Group("orphan", { parentUid: "${missing}", name: "orphan" });`,
    );
    const preview = await stack.preview();
    stack.editProgram(
      `new irm.Group("orphan", { parentUid: "${missing}", name: "orphan" });`,
      "// EXTRA",
    );
    expect(preview.error).toBeDefined();
    expect(
      count(
        diagnostics(preview),
        `property parentUid value {${missing}} has a problem: no group ${missing} exists`,
      ),
    ).toBe(1);
    expect(writesOf(await stack.takeRequests())).toEqual([]);
  }, 300_000);

  /**
   * A preview of the program with `resource` added (removed after): it failed, and what
   * its diagnostics said; nothing was written.
   */
  async function previewAdding(resource: string): Promise<string> {
    stack.editProgram("// EXTRA", resource);
    const preview = await stack.preview().finally(() => stack.editProgram(resource, "// EXTRA"));
    expect(preview.error).toBeDefined();
    expect(writesOf(await stack.takeRequests())).toEqual([]);
    return diagnostics(preview);
  }

  it("an empty oidc.clientId fails the preview naming oidc.clientId once, not value {<nil>}", async () => {
    const out = await previewAdding(
      'new irm.IdentityProvider("bad-sso", { parentUid: team.uid, name: "bad sso", defaultRole: irm.getRoleOutput({ name: "viewer" }).uid, oidc: { issuer: "https://login.example.com", clientId: "", pkceEnabled: true } });',
    );
    expect(out).not.toContain("<nil>");
    expect(count(out, "oidc.clientId: is required")).toBe(1);
    expect(out).toMatch(/property oidc value \{.*\} has a problem: oidc\.clientId: /);
  }, 300_000);

  it("a secret written inside oidc fails the preview naming oidc.clientSecret once, never printing it", async () => {
    const secret = "inside-oidc-secret-3b9d";
    const out = await previewAdding(
      `new irm.IdentityProvider("bad-sso", { parentUid: team.uid, name: "bad sso", defaultRole: irm.getRoleOutput({ name: "viewer" }).uid, oidc: JSON.parse('{"issuer":"https://login.example.com","clientId":"c","pkceEnabled":true,"clientSecret":"${secret}"}') });`,
    );
    expect(out).not.toContain("<nil>");
    expect(count(out, "oidc.clientSecret: is not an input here")).toBe(1);
    // On no input: the engine would print oidc's value, the secret in it.
    expect(out).toContain("resource 'bad-sso' has a problem: oidc.clientSecret: ");
    expect(out).not.toContain(secret);
  }, 300_000);

  it("a delete blocked by an object the stack does not manage fails at once, naming it", async () => {
    stack.editProgram(
      '{ parentUid: team.uid, name: "sub" }, { protect: true }',
      '{ parentUid: team.uid, name: "sub" }',
    );
    // This up only drops the protection (state, not a request); its plan is not the point.
    expect((await stack.up({ skipPreview: true })).error).toBeUndefined();
    const teamUid = stack.uidOf("team");
    const [repoUid] = (
      await emulator.seed({ repos: [{ parentUid: teamUid, name: "pushed-by-hand" }] })
    ).repos;
    const started = Date.now();
    // What is timed is the blocked delete, not the plan before it.
    const result = await stack.destroy({ skipPreview: true });
    const seconds = (Date.now() - started) / 1000;
    expect(result.error).toBeDefined();
    const out = printed(result);
    // Well under the default deleteTimeoutMs (120 s), which it no longer waits out.
    expect(seconds).toBeLessThan(90);
    expect(count(diagnostics(result), `repo "pushed-by-hand" (${repoUid})`)).toBe(1);
    expect(out).not.toContain("Nothing else was deleted");
    // One message, the group's: no copy of it (the provider host's stderr, cut off at its
    // first colon) under the stack resource.
    expect(out).not.toMatch(/pulumi:pulumi:Stack .*Cannot delete group/);
    expect(diagnostics(result).split("pulumi-nodejs:dynamic/irm:Group (team):")[0]).not.toContain(
      "Cannot delete group",
    );
    expect((await stack.resources()).map((r) => r.name)).toEqual(["team"]);
  }, 300_000);
});
