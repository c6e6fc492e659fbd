/**
 * The mini engine itself, against a toy program whose provider keeps its objects in
 * a JSON file (no emulator needed): create, no-op, update, replace with re-parenting,
 * refresh, removal, a failing destroy and a failure half-way.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { SCRATCH_ROOT } from "../support/installed-package";
import {
  destroy,
  newStack,
  refresh,
  type StackState,
  type Step,
  up,
} from "../support/lifecycle/engine";

const projectDir = path.join(SCRATCH_ROOT, "engine-toy");
const dbFile = path.join(projectDir, "db.json");
const typeToken = "pulumi-nodejs:dynamic/toy:Group";
const urnOf = (name: string) => `urn:pulumi:dev::toy-org::${typeToken}::${name}`;

interface ToyDatabase {
  objects: Record<string, { name: string; description: string; parentUid: string }>;
  writes: string[];
}
const readDb = (): ToyDatabase => JSON.parse(fs.readFileSync(dbFile, "utf8")) as ToyDatabase;
const configFor = (variant: string, extra: Record<string, string> = {}) => ({
  config: { "toy:dbFile": dbFile, "toy-org:variant": variant, ...extra },
});
const ops = (steps: Step[]) => steps.map((s) => `${s.op} ${s.urn.split("::").pop()}`);
const uidOf = (state: StackState, name: string) =>
  state.resources.find((r) => r.urn === urnOf(name))?.id;

describe("mini engine (toy provider)", () => {
  beforeEach(() => {
    fs.rmSync(projectDir, { recursive: true, force: true });
    fs.cpSync(path.join(__dirname, "fixtures", "toy-org"), projectDir, { recursive: true });
  });

  it("creates, then changes nothing, then updates exactly the changed resource", async () => {
    const first = await up(projectDir, newStack(projectDir), configFor("base"));
    expect(first.error).toBeUndefined();
    expect(ops(first.steps)).toEqual([
      "create org",
      "create team-b",
      "create team-a",
      "create svc",
    ]);
    expect(Object.keys(readDb().objects).sort()).toEqual(
      first.state.resources.map((r) => r.id).sort(),
    );
    expect(first.state.outputs).toEqual({
      orgUid: uidOf(first.state, "org"),
      teamAUid: uidOf(first.state, "team-a"),
      serviceUid: uidOf(first.state, "svc"),
    });
    // Dependencies come from the program's inputs, as the engine records them.
    const svc = first.state.resources.find((r) => r.urn === urnOf("svc"));
    expect(svc?.dependencies).toEqual([urnOf("team-a")]);

    const writesBefore = readDb().writes.length;
    const second = await up(projectDir, first.state, configFor("base"));
    expect(ops(second.steps)).toEqual(["same org", "same team-b", "same team-a", "same svc"]);
    expect(readDb().writes.length).toBe(writesBefore);

    const third = await up(projectDir, second.state, configFor("describe"));
    expect(ops(third.steps).filter((s) => !s.startsWith("same"))).toEqual(["update team-a"]);
    expect(readDb().writes.slice(writesBefore)).toEqual([`update ${uidOf(first.state, "team-a")}`]);
  });

  it("replaces a moved group and its child, deleting the old ones child first", async () => {
    const first = await up(projectDir, newStack(projectDir), configFor("base"));
    const oldTeamA = uidOf(first.state, "team-a");
    const oldService = uidOf(first.state, "svc");
    const moved = await up(projectDir, first.state, configFor("move"));
    expect(moved.error).toBeUndefined();
    expect(ops(moved.steps)).toEqual([
      "same org",
      "same team-b",
      "replace team-a",
      "replace svc",
      "delete-replaced svc",
      "delete-replaced team-a",
    ]);
    const newTeamA = uidOf(moved.state, "team-a");
    expect(newTeamA?.startsWith(`${uidOf(moved.state, "team-b")}/`)).toBe(true);
    expect(uidOf(moved.state, "svc")?.startsWith(`${newTeamA}/`)).toBe(true);
    expect(readDb().objects[oldTeamA!]).toBeUndefined();
    expect(readDb().objects[oldService!]).toBeUndefined();
    expect(moved.state.pendingDeletes).toEqual([]);
  });

  it("refresh drops what vanished, the next up recreates it; removal deletes child first", async () => {
    const first = await up(projectDir, newStack(projectDir), configFor("base"));
    const unchanged = await refresh(projectDir, first.state, configFor("base"));
    expect(unchanged.steps.every((s) => s.op === "same")).toBe(true);

    const db = readDb();
    delete db.objects[uidOf(first.state, "team-b")!];
    fs.writeFileSync(dbFile, JSON.stringify(db));
    const refreshed = await refresh(projectDir, first.state, configFor("base"));
    expect(ops(refreshed.steps.filter((s) => s.op !== "same"))).toEqual(["refresh-delete team-b"]);
    const again = await up(projectDir, refreshed.state, configFor("base"));
    expect(ops(again.steps.filter((s) => s.op !== "same"))).toEqual(["create team-b"]);

    const shrunk = await up(projectDir, again.state, configFor("shrink"));
    expect(ops(shrunk.steps.filter((s) => s.op !== "same"))).toEqual([
      "delete svc",
      "delete team-b",
    ]);
    expect(shrunk.state.resources.map((r) => r.urn)).toEqual([urnOf("org"), urnOf("team-a")]);
  });

  it("a destroy that fails keeps the failed resource and its parents in state", async () => {
    const first = await up(projectDir, newStack(projectDir), configFor("base"));
    const db = readDb();
    const teamB = uidOf(first.state, "team-b")!;
    db.objects[`${teamB}/9999`] = { name: "foreign", description: "", parentUid: teamB };
    fs.writeFileSync(dbFile, JSON.stringify(db));

    const result = await destroy(projectDir, first.state, configFor("base"));
    expect(result.error).toContain("RESOURCE_NOT_EMPTY");
    expect(result.error).toContain(urnOf("team-b"));
    expect(ops(result.steps)).toEqual(["delete svc", "delete team-a"]);
    expect(result.state.resources.map((r) => r.urn)).toEqual([urnOf("org"), urnOf("team-b")]);
    expect(Object.keys(readDb().objects).sort()).toEqual(
      [uidOf(first.state, "org"), teamB, `${teamB}/9999`].sort(),
    );
  });

  it("a failure half-way keeps state true to the service; the next up finishes", async () => {
    const failed = await up(
      projectDir,
      newStack(projectDir),
      configFor("base", { "toy:failOn": "team-a" }),
    );
    expect(failed.error).toContain("toy service unavailable for team-a");
    expect(ops(failed.steps)).toEqual(["create org", "create team-b"]);
    expect(failed.state.resources.map((r) => r.id).sort()).toEqual(
      Object.keys(readDb().objects).sort(),
    );

    const finished = await up(projectDir, failed.state, configFor("base"));
    expect(finished.error).toBeUndefined();
    expect(ops(finished.steps)).toEqual(["same org", "same team-b", "create team-a", "create svc"]);
    expect(finished.state.resources.map((r) => r.id).sort()).toEqual(
      Object.keys(readDb().objects).sort(),
    );
  });
});
