/**
 * The mini engine itself, against a toy program whose provider keeps its objects in
 * a JSON file (no emulator needed): create, replace with re-parenting, removal,
 * destroy order, a failure half-way, refresh and a blocked destroy.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { scratchDir } from "../support/installed-package";
import {
  destroy,
  newStack,
  refresh,
  type StackState,
  type Step,
  up,
} from "../support/lifecycle/engine";

const projectDir = scratchDir("engine-toy");
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
  afterAll(() => {
    fs.rmSync(projectDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    fs.rmSync(projectDir, { recursive: true, force: true });
    fs.cpSync(path.join(__dirname, "fixtures", "toy-org"), projectDir, { recursive: true });
  });

  it("creates, replaces a moved group and its child, removes, and destroys in dependency order", async () => {
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

    const oldTeamA = uidOf(first.state, "team-a")!;
    const oldService = uidOf(first.state, "svc")!;
    const writesBefore = readDb().writes.length;
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
    const newTeamA = uidOf(moved.state, "team-a")!;
    const newService = uidOf(moved.state, "svc")!;
    expect(newTeamA.startsWith(`${uidOf(moved.state, "team-b")}/`)).toBe(true);
    expect(newService.startsWith(`${newTeamA}/`)).toBe(true);
    // Create before delete; the old child goes before its old parent.
    expect(readDb().writes.slice(writesBefore)).toEqual([
      `create ${newTeamA}`,
      `create ${newService}`,
      `delete ${oldService}`,
      `delete ${oldTeamA}`,
    ]);
    expect(moved.state.pendingDeletes).toEqual([]);

    const shrunk = await up(projectDir, moved.state, configFor("shrink"));
    expect(ops(shrunk.steps.filter((s) => s.op !== "same"))).toEqual([
      "replace team-a",
      "delete svc",
      "delete-replaced team-a",
      "delete team-b",
    ]);
    expect(shrunk.state.resources.map((r) => r.urn)).toEqual([urnOf("org"), urnOf("team-a")]);

    const destroyed = await destroy(projectDir, shrunk.state, configFor("shrink"));
    expect(destroyed.error).toBeUndefined();
    expect(ops(destroyed.steps)).toEqual(["delete team-a", "delete org"]);
    expect(readDb().objects).toEqual({});
    expect(destroyed.state.resources).toEqual([]);
  });

  it("stops at a failure with state true to the service, finishes next time, refreshes and fails a blocked destroy", async () => {
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

    // A delete-before-replace: the old object goes first, then its replacement is created.
    const oldTeamB = uidOf(finished.state, "team-b")!;
    const writesBefore = readDb().writes.length;
    const renamed = await up(projectDir, finished.state, configFor("rename"));
    expect(renamed.error).toBeUndefined();
    expect(ops(renamed.steps.filter((s) => s.op !== "same"))).toEqual(["replace team-b"]);
    const teamB = uidOf(renamed.state, "team-b")!;
    expect(readDb().writes.slice(writesBefore)).toEqual([`delete ${oldTeamB}`, `create ${teamB}`]);
    expect(readDb().objects[teamB].name).toBe("team-b2");

    const unchanged = await refresh(projectDir, renamed.state, configFor("rename"));
    expect(unchanged.steps.every((s) => s.op === "same")).toBe(true);
    const db = readDb();
    delete db.objects[uidOf(finished.state, "svc")!];
    db.objects[teamB].description = "edited by hand";
    db.objects[`${teamB}/9999`] = { name: "foreign", description: "", parentUid: teamB };
    fs.writeFileSync(dbFile, JSON.stringify(db));
    const refreshed = await refresh(projectDir, renamed.state, configFor("rename"));
    expect(ops(refreshed.steps.filter((s) => s.op !== "same"))).toEqual([
      "refresh-update team-b",
      "refresh-delete svc",
    ]);
    expect(
      refreshed.state.resources.find((r) => r.urn === urnOf("team-b"))?.inputs.description,
    ).toBe("edited by hand");

    const blocked = await destroy(projectDir, refreshed.state, configFor("rename"));
    expect(blocked.error).toContain("RESOURCE_NOT_EMPTY");
    expect(blocked.error).toContain(urnOf("team-b"));
    expect(ops(blocked.steps)).toEqual(["delete team-a"]);
    expect(blocked.state.resources.map((r) => r.urn)).toEqual([urnOf("org"), urnOf("team-b")]);
    expect(Object.keys(readDb().objects).sort()).toEqual(
      [uidOf(finished.state, "org"), teamB, `${teamB}/9999`].sort(),
    );
  });
});
