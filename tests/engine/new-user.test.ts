/**
 * What a new user meets first, on the real engine with the real CLI's output: a preview
 * that says what the `up` then does (a one-field edit of a group with children, a
 * protected child among them), errors of the program that arrive within seconds and
 * once, no default address for the token, a missing parent named before any create, and
 * a delete blocked by an object the stack does not manage, reported at once by name.
 * One stack of `fixtures/new-user`, runs in order.
 */
import * as path from "node:path";
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

const describeSteps = (steps: Step[]) => steps.map((s) => `${s.op} ${s.name}`).sort();

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
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(describeSteps(result.changes)).toEqual([
      "create ci",
      "create ci-viewer",
      "create sub",
      "create team",
    ]);
  }, 300_000);

  it("a one-field edit of a group with children previews as exactly one update, and is one", async () => {
    stack.editProgram('description: "first"', 'description: "second"');
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(result.planned && describeSteps(result.planned)).toEqual(["update team"]);
    expect(describeSteps(result.changes)).toEqual(["update team"]);
    const preview = printed(result).split(/^Updating \(/m)[0];
    expect(preview).toMatch(/~ 1 to update/);
    expect(preview).not.toMatch(/to replace/);
    expect(writesOf(await stack.takeRequests())).toEqual([
      "PATCH /iam/v2beta1/groups/<team>?updateMask=description 200",
    ]);
  }, 300_000);

  it("a rename previews as exactly one update, and is one", async () => {
    stack.editProgram('name: "team",', 'name: "team-renamed",');
    const preview = await stack.preview();
    expect(preview.error).toBeUndefined();
    expect(describeSteps(preview.changes)).toEqual(["update team"]);
    const result = await stack.up();
    expect(result.error).toBeUndefined();
    expect(result.planned && describeSteps(result.planned)).toEqual(["update team"]);
    expect(describeSteps(result.changes)).toEqual(["update team"]);
    expect(writesOf(await stack.takeRequests())).toEqual([
      "PATCH /iam/v2beta1/groups/<team>?updateMask=name 200",
    ]);
  }, 300_000);
});
