/**
 * The small engine itself, on a toy program whose provider keeps its objects in a JSON
 * file and refuses to delete a group that still has children. Every expectation here is
 * one the real Pulumi engine (v3.248) meets on the same program: each was checked by
 * running `tests/lifecycle/fixtures/toy-org` through the real CLI. Where the real
 * engine's order is not fixed (independent steps run
 * in parallel), only the orders that are fixed are asserted.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { createSmallEngineStack } from "../../harness/lifecycle/small-engine-stack";
import type { EngineStack, RunOutcome } from "../../harness/stack";

const TOY_PROGRAM = path.join(__dirname, "fixtures", "toy-org");

interface ToyDatabase {
  objects: Record<string, { name: string; description: string; parentUid: string }>;
  writes: string[];
}

interface ToyStack {
  stack: EngineStack;
  /** The toy service's objects and write log (`begin create team-a`, `create <uid>`, ...). */
  db(): ToyDatabase;
  /** Switches the program version and the resource options (JSON per resource name). */
  use(variant: string, options?: Record<string, Record<string, unknown>>): Promise<void>;
}

const ops = (outcome: RunOutcome) => outcome.changes.map((s) => `${s.op} ${s.name}`);
const sorted = (list: string[]) => [...list].sort();
/** Object names in the toy service. */
const objectNames = (db: ToyDatabase) => sorted(Object.values(db.objects).map((o) => o.name));
/** The provider's `begin ...` lines (named) from `from` on. */
const begins = (db: ToyDatabase, from = 0) =>
  db.writes.slice(from).filter((w) => w.startsWith("begin "));

function expectBefore(list: string[], pairs: Array<[string, string]>): void {
  for (const [earlier, later] of pairs) {
    const at = list.indexOf(earlier);
    expect(at, `${earlier} missing from ${list.join(" | ")}`).toBeGreaterThanOrEqual(0);
    expect(list.indexOf(later), `${later} should follow ${earlier}`).toBeGreaterThan(at);
  }
}

// Every run starts a program and a provider host: a few seconds each on a busy machine.
describe("small engine (toy provider)", { timeout: 240_000 }, () => {
  let emulator: TestEmulator;
  const stacks: EngineStack[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterEach(async () => {
    for (const stack of stacks.splice(0)) await stack.dispose();
  });
  afterAll(async () => {
    await emulator?.close();
  });

  async function toyStack(name: string, delayMs = 0): Promise<ToyStack> {
    const stack = createSmallEngineStack({
      program: TOY_PROGRAM,
      emulator,
      name: `engine-toy-${name}`,
    });
    stacks.push(stack);
    const dbFile = path.join(stack.dir, "db.json");
    await stack.setConfig("toy:dbFile", dbFile);
    await stack.setConfig("toy:delayMs", String(delayMs));
    return {
      stack,
      db: () =>
        fs.existsSync(dbFile)
          ? (JSON.parse(fs.readFileSync(dbFile, "utf8")) as ToyDatabase)
          : { objects: {}, writes: [] },
      async use(variant, options = {}) {
        await stack.setConfig("variant", variant);
        await stack.setConfig("options", JSON.stringify(options));
      },
    };
  }

  it("runs independent steps in parallel, dependants after what they depend on; parallel: 1 runs one at a time", async () => {
    const toy = await toyStack("parallel", 700);
    await toy.use("base");
    const created = await toy.stack.up();
    expect(created.error).toBeUndefined();
    expect(sorted(ops(created))).toEqual(
      sorted(["create org", "create team-a", "create team-b", "create svc"]),
    );
    const createOps = ops(created);
    expectBefore(createOps, [
      ["create org", "create team-a"],
      ["create org", "create team-b"],
      ["create team-a", "create svc"],
    ]);
    // team-a and team-b depend only on org: both started before either finished.
    const writes = toy.db().writes;
    const started = writes.slice(0, 6);
    expect(started.slice(0, 2)).toEqual(["begin create org", "create 0001"]);
    expect(sorted(started.slice(2, 4))).toEqual(["begin create team-a", "begin create team-b"]);

    // Destroy in antichains: svc; then team-a and team-b together; then org.
    const before = writes.length;
    const destroyed = await toy.stack.destroy();
    expect(destroyed.error).toBeUndefined();
    const deletes = toy.db().writes.slice(before);
    expect(deletes[0]).toBe("begin delete svc");
    expect(sorted(deletes.slice(2, 4))).toEqual(["begin delete team-a", "begin delete team-b"]);
    expect(deletes.slice(-2, -1)).toEqual(["begin delete org"]);
    expect(toy.db().objects).toEqual({});

    // With parallel: 1 every step waits for the one before.
    const sequential = await toy.stack.up({ parallel: 1 });
    expect(sequential.error).toBeUndefined();
    const steps = toy.db().writes.slice(before + deletes.length);
    for (let index = 0; index < steps.length; index += 2) {
      expect(steps[index]).toMatch(/^begin create /);
      expect(steps[index + 1]).toMatch(/^create /);
    }
    expect(steps).toHaveLength(8);
  });

  it("replaces create-before-delete, deletes old halves and removed resources dependants first, by recorded dependencies", async () => {
    const toy = await toyStack("replace");
    await toy.use("base");
    const first = await toy.stack.up();
    expect(first.error).toBeUndefined();
    expect(await toy.stack.outputs()).toEqual({
      orgUid: toy.stack.uidOf("org"),
      teamAUid: toy.stack.uidOf("team-a"),
      serviceUid: toy.stack.uidOf("svc"),
    });
    const resources = await toy.stack.resources();
    const dependencies = Object.fromEntries(
      resources.map((r) => [r.name, r.dependencies.map((urn) => urn.split("::").pop())]),
    );
    expect(dependencies).toEqual({
      org: [],
      "team-b": ["org"],
      "team-a": ["org"],
      svc: ["team-a"],
    });

    await toy.use("move");
    const oldTeamA = toy.stack.uidOf("team-a");
    const oldService = toy.stack.uidOf("svc");
    const writesBefore = toy.db().writes.length;
    const moved = await toy.stack.up();
    expect(moved.error).toBeUndefined();
    expect(ops(moved)).toEqual([
      "replace team-a",
      "replace svc",
      "delete-replaced svc",
      "delete-replaced team-a",
    ]);
    const newTeamA = toy.stack.uidOf("team-a");
    const newService = toy.stack.uidOf("svc");
    expect(newTeamA.startsWith(`${toy.stack.uidOf("team-b")}/`)).toBe(true);
    // Create before delete; the old child goes before its old parent.
    expect(
      toy
        .db()
        .writes.slice(writesBefore)
        .filter((w) => !w.startsWith("begin ")),
    ).toEqual([
      `create ${newTeamA}`,
      `create ${newService}`,
      `delete ${oldService}`,
      `delete ${oldTeamA}`,
    ]);

    // svc and the old team-a are removed, team-b too: dependants first.
    await toy.use("shrink");
    const shrunk = await toy.stack.up();
    expect(shrunk.error).toBeUndefined();
    expect(sorted(ops(shrunk))).toEqual(
      sorted(["replace team-a", "delete svc", "delete-replaced team-a", "delete team-b"]),
    );
    expectBefore(ops(shrunk), [
      ["replace team-a", "delete svc"],
      ["delete svc", "delete-replaced team-a"],
      ["delete-replaced team-a", "delete team-b"],
    ]);
    expect((await toy.stack.resources()).map((r) => r.name)).toEqual(["org", "team-a"]);
    expect(objectNames(toy.db())).toEqual(["org", "team-a"]);
  });

  it("previews with unknown outputs and sends no create, update or delete", async () => {
    const toy = await toyStack("preview");
    await toy.use("base");
    const fresh = await toy.stack.preview();
    expect(fresh.error).toBeUndefined();
    expect(sorted(ops(fresh))).toEqual(
      sorted(["create org", "create team-a", "create team-b", "create svc"]),
    );
    expect(toy.db().writes).toEqual([]);
    expect(await toy.stack.resources()).toEqual([]);

    const created = await toy.stack.up();
    expect(sorted(ops(created))).toEqual(sorted(ops(fresh)));
    const writesAfterUp = toy.db().writes.length;

    // An update's outputs are unknown in a preview (dynamic providers cannot preview),
    // so svc, whose parentUid is team-a's uid, sees the unknown value and would be
    // replaced; the up itself updates team-a only.
    await toy.use("describe");
    const described = await toy.stack.preview();
    expect(described.error).toBeUndefined();
    expect(ops(described)).toEqual(["update team-a", "replace svc", "delete-replaced svc"]);
    expect(toy.db().writes).toHaveLength(writesAfterUp);
    const applied = await toy.stack.up();
    expect(ops(applied)).toEqual(["update team-a"]);
    expect(toy.db().writes.slice(writesAfterUp)).toEqual([
      "begin update team-a",
      `update ${toy.stack.uidOf("team-a")}`,
    ]);

    // A replacement previews as an up does it: the new object's uid is unknown to svc.
    await toy.use("move");
    const writesBefore = toy.db().writes.length;
    const movePreview = await toy.stack.preview();
    expect(ops(movePreview)).toEqual([
      "replace team-a",
      "replace svc",
      "delete-replaced svc",
      "delete-replaced team-a",
    ]);
    expect(toy.db().writes).toHaveLength(writesBefore);
  });

  it("fails --expect-no-changes runs that change something, after running them", async () => {
    const toy = await toyStack("expect-no-changes");
    await toy.use("base");
    expect((await toy.stack.up()).error).toBeUndefined();
    const unchanged = await toy.stack.up({ expectNoChanges: true });
    expect(unchanged.error).toBeUndefined();
    expect(unchanged.changes).toEqual([]);
    expect((await toy.stack.preview({ expectNoChanges: true })).error).toBeUndefined();

    await toy.use("describe");
    const previewed = await toy.stack.preview({ expectNoChanges: true });
    expect(previewed.error).toContain("no changes were expected for preview");
    const updated = await toy.stack.up({ expectNoChanges: true });
    expect(updated.error).toContain("no changes were expected for update");
    // The update happened all the same.
    expect(toy.db().objects[toy.stack.uidOf("team-a")].description).toBe("team a, described");

    const db = toy.db();
    db.objects[toy.stack.uidOf("team-b")].description = "edited by hand";
    fs.writeFileSync(path.join(toy.stack.dir, "db.json"), JSON.stringify(db));
    const refreshed = await toy.stack.refresh({ expectNoChanges: true });
    expect(refreshed.error).toContain("no changes were expected for refresh");
    expect(ops(refreshed)).toEqual(["refresh-update team-b"]);
  });

  it("honours protect, retainOnDelete and ignoreChanges", async () => {
    const toy = await toyStack("options");
    const options = {
      org: { protect: true },
      "team-b": { retainOnDelete: true },
      "team-a": { ignoreChanges: ["description"] },
    };
    await toy.use("base", options);
    expect((await toy.stack.up()).error).toBeUndefined();
    const flags = Object.fromEntries(
      (await toy.stack.resources()).map((r) => [r.name, [r.protect, r.retainOnDelete]]),
    );
    expect(flags).toEqual({
      org: [true, false],
      "team-b": [false, true],
      "team-a": [false, false],
      svc: [false, false],
    });

    // The description change is ignored: the old input stays, nothing is written.
    await toy.use("describe", options);
    const described = await toy.stack.up();
    expect(described.changes).toEqual([]);
    expect(toy.db().objects[toy.stack.uidOf("team-a")].description).toBe("team a");

    // team-b leaves the stack but stays in the service; svc is deleted.
    await toy.use("shrink", options);
    const teamB = toy.stack.uidOf("team-b");
    const shrunk = await toy.stack.up();
    expect(shrunk.error).toBeUndefined();
    expect(sorted(ops(shrunk))).toEqual(["delete svc", "discard team-b"]);
    expect(toy.db().objects[teamB]?.name).toBe("team-b");
    expect((await toy.stack.resources()).map((r) => r.name)).toEqual(["org", "team-a"]);

    // Destroy deletes team-a, then refuses the protected org with the engine's words.
    const destroyed = await toy.stack.destroy();
    expect(ops(destroyed)).toEqual(["delete team-a"]);
    const urn = "urn:pulumi:dev::toy-org::pulumi-nodejs:dynamic/toy:Group::org";
    expect(destroyed.error).toContain(`resource "${urn}" cannot be deleted`);
    expect(destroyed.error).toContain("because it is protected");
    expect(destroyed.error).toContain(`pulumi state unprotect '${urn}'`);
    expect((await toy.stack.resources()).map((r) => r.name)).toEqual(["org"]);
    expect(objectNames(toy.db())).toEqual(["org", "team-b"]);
  });

  it("refuses to replace a protected resource", async () => {
    const toy = await toyStack("protect-replace");
    await toy.use("base", { "team-a": { protect: true } });
    expect((await toy.stack.up()).error).toBeUndefined();
    await toy.use("move", { "team-a": { protect: true } });
    const writes = toy.db().writes.length;
    const urn = "urn:pulumi:dev::toy-org::pulumi-nodejs:dynamic/toy:Group::team-a";
    // A preview reports the error and still shows the whole plan.
    const previewed = await toy.stack.preview();
    expect(previewed.error).toContain(`unable to replace resource "${urn}"`);
    expect(ops(previewed)).toEqual([
      "replace team-a",
      "replace svc",
      "delete-replaced svc",
      "delete-replaced team-a",
    ]);
    const refused = await toy.stack.up();
    expect(refused.error).toContain(`unable to replace resource "${urn}"`);
    expect(refused.error).toContain("as it is currently marked for protection");
    expect(toy.db().writes).toHaveLength(writes);
  });

  it("replaceOnChanges replaces on keys the engine diffed itself, not on a provider's own diff", async () => {
    // The dynamic provider host reports no changed keys with its diff, so the engine has
    // none to match against replaceOnChanges: toy's explicit diff leads to an update.
    const toy = await toyStack("replace-on-changes");
    const replaceOnDescription = { "team-a": { replaceOnChanges: ["description"] } };
    await toy.use("base");
    expect((await toy.stack.up()).error).toBeUndefined();
    await toy.use("describe", replaceOnDescription);
    const teamA = toy.stack.uidOf("team-a");
    const described = await toy.stack.up();
    expect(described.error).toBeUndefined();
    expect(ops(described)).toEqual(["update team-a"]);
    expect(toy.stack.uidOf("team-a")).toBe(teamA);

    // When the provider leaves the diff to the engine, the engine knows the changed
    // key: the description change replaces team-a, and svc (its child) with it.
    await toy.stack.setConfig("toy:engineDiff", "true");
    await toy.use("base", replaceOnDescription);
    const replaced = await toy.stack.up();
    expect(replaced.error).toBeUndefined();
    expect(ops(replaced)).toEqual([
      "replace team-a",
      "replace svc",
      "delete-replaced svc",
      "delete-replaced team-a",
    ]);
    expect(toy.stack.uidOf("team-a")).not.toBe(teamA);
  });

  it("deletes before replacing when the provider or the program asks, dependants first", async () => {
    const toy = await toyStack("dbr");
    await toy.use("base");
    expect((await toy.stack.up()).error).toBeUndefined();

    // The option: team-a moves; svc, whose parentUid comes from team-a, goes first.
    await toy.use("move", { "team-a": { deleteBeforeReplace: true } });
    let from = toy.db().writes.length;
    const moved = await toy.stack.up();
    expect(moved.error).toBeUndefined();
    expect(ops(moved)).toEqual([
      "delete-replaced svc",
      "delete-replaced team-a",
      "replace team-a",
      "replace svc",
    ]);
    expect(begins(toy.db(), from)).toEqual([
      "begin delete svc",
      "begin delete team-a",
      "begin create team-a",
      "begin create svc",
    ]);

    // The provider: renaming team-b (delete-before-replace) takes team-a and svc with it.
    await toy.use("move-rename");
    from = toy.db().writes.length;
    const renamed = await toy.stack.up();
    expect(renamed.error).toBeUndefined();
    expect(ops(renamed)).toEqual([
      "delete-replaced svc",
      "delete-replaced team-a",
      "delete-replaced team-b",
      "replace team-b",
      "replace team-a",
      "replace svc",
    ]);
    expect(begins(toy.db(), from)).toEqual([
      "begin delete svc",
      "begin delete team-a",
      "begin delete team-b",
      "begin create team-b2",
      "begin create team-a",
      "begin create svc",
    ]);
    expect(objectNames(toy.db())).toEqual(["org", "svc", "team-a", "team-b2"]);
  });

  it("stops at a failure with state true to the service, finishes next time, refreshes and fails a blocked destroy", async () => {
    const toy = await toyStack("failure");
    await toy.use("base");
    await toy.stack.setConfig("toy:failOn", "team-a");
    const failed = await toy.stack.up();
    expect(failed.error).toContain("toy service unavailable for team-a");
    // team-b ran beside team-a and finished; svc, which needs team-a, never started.
    expect(sorted(ops(failed))).toEqual(["create org", "create team-b"]);
    const stateUids = async () => sorted((await toy.stack.resources()).map((r) => r.id));
    expect(await stateUids()).toEqual(sorted(Object.keys(toy.db().objects)));

    await toy.stack.setConfig("toy:failOn", "");
    const finished = await toy.stack.up();
    expect(finished.error).toBeUndefined();
    expect(ops(finished)).toEqual(["create team-a", "create svc"]);
    expect(await stateUids()).toEqual(sorted(Object.keys(toy.db().objects)));

    const unchanged = await toy.stack.refresh();
    expect(unchanged.changes).toEqual([]);
    expect(unchanged.steps).toHaveLength(4);
    const db = toy.db();
    const teamB = toy.stack.uidOf("team-b");
    delete db.objects[toy.stack.uidOf("svc")];
    db.objects[teamB].description = "edited by hand";
    db.objects[`${teamB}/9999`] = { name: "foreign", description: "", parentUid: teamB };
    fs.writeFileSync(path.join(toy.stack.dir, "db.json"), JSON.stringify(db));
    const refreshed = await toy.stack.refresh();
    expect(sorted(ops(refreshed))).toEqual(["refresh-delete svc", "refresh-update team-b"]);
    const teamBState = (await toy.stack.resources()).find((r) => r.name === "team-b");
    expect(teamBState?.inputs.description).toBe("edited by hand");

    const blocked = await toy.stack.destroy();
    expect(blocked.error).toContain("RESOURCE_NOT_EMPTY");
    expect(ops(blocked)).toEqual(["delete team-a"]);
    expect((await toy.stack.resources()).map((r) => r.name)).toEqual(["org", "team-b"]);
  });

  it("runs policy packs: advisory violations are reported, a mandatory one stops the run before its step", async () => {
    const toy = await toyStack("policy");
    const pack = path.join(__dirname, "fixtures", "toy-policy");
    await toy.use("base");
    const created = await toy.stack.up({ policyPacks: [pack] });
    expect(created.error).toBeUndefined();
    expect(created.output).toContain("toy-describe-groups");
    expect(created.output).toContain("group svc has no description");

    await toy.use("rename");
    const writes = toy.db().writes.length;
    const refused = await toy.stack.up({ policyPacks: [pack] });
    expect(refused.error).toBeDefined();
    expect(refused.output).toContain("toy-no-team-b2");
    expect(refused.output).toMatch(/mandatory/i);
    expect(refused.changes).toEqual([]);
    expect(toy.db().writes).toHaveLength(writes);
    expect(objectNames(toy.db())).toContain("team-b");
  });

  it("refuses a resource option it cannot honour instead of ignoring it", async () => {
    // Not a behaviour of the real engine, which honours customTimeouts: a guard that the
    // small engine fails loudly rather than diverging silently.
    const toy = await toyStack("unsupported");
    await toy.use("base", { svc: { customTimeouts: { create: "1m" } } });
    const refused = await toy.stack.up();
    expect(refused.error).toContain("customTimeouts");
    expect(refused.error).toContain("toy:Group::svc");
    expect(objectNames(toy.db())).not.toContain("svc");
  });
});
