/**
 * `POST /emulator/seed` changes nothing when it fails: a body refused by its checks adds
 * nothing, and should storing still fail part-way, every record the call had added is
 * taken back (the groups, repos, tags, advisories and documents stored before it).
 */
import { describe, expect, it } from "vitest";
import { Clock } from "../../emulator/clock";
import type { EmulatorContext } from "../../emulator/collections/kit";
import { handleControl } from "../../emulator/controls";
import { KIND_NAMES } from "../../emulator/kinds";
import { State } from "../../emulator/state";

const NOW = "2026-01-01T00:00:00.000Z";

function setUp(): { state: State; control: (body: unknown) => Promise<unknown> } {
  const state = new State();
  state.seed(NOW, "https://issuer.example", false);
  const ctx = { state, clock: new Clock(), origin: "http://127.0.0.1:1" } as EmulatorContext;
  const deps = { ctx } as Parameters<typeof handleControl>[0];
  const control = (body: unknown) =>
    handleControl(deps, {
      method: "POST",
      path: "/emulator/seed",
      query: new URLSearchParams(),
      body,
    });
  return { state, control };
}

/** Every collection's uids, to compare before and after. */
function contents(state: State): Record<string, string[]> {
  return Object.fromEntries(
    KIND_NAMES.map((name) => [name, [...state.collection(name).values()].map((r) => r.uid)]),
  );
}

function everyKindBody(root: string): Record<string, unknown> {
  return {
    groups: [{ parentUid: root, name: "team" }],
    repos: [{ parentUid: root, name: "web", tags: [{ name: "latest" }] }],
    advisories: [{ advisoryId: "CGA-0000-0000-0001", artifactName: "web" }],
    documents: [{ id: "web", advisories: [{ id: "CGA-0000-0000-0001" }] }],
    artifacts: [
      { name: "requests", ecosystem: "ECOSYSTEM_PYTHON", versions: [{ version: "2.32.3" }] },
    ],
    vulnerabilityMetadata: [{ id: "CVE-2026-0001" }],
  };
}

describe("POST /emulator/seed", () => {
  it("stores every kind it is given", async () => {
    const { state, control } = setUp();
    const before = contents(state);
    await control(everyKindBody(state.rootGroupUid));
    const after = contents(state);
    for (const name of [
      "groups",
      "repos",
      "tags",
      "advisories",
      "documents",
      "artifacts",
      "artifactVersions",
      "vulnerabilityMetadata",
    ]) {
      expect(after[name].length, name).toBe(before[name].length + 1);
    }
  });

  it("a body its checks refuse adds nothing", async () => {
    const { state, control } = setUp();
    const before = contents(state);
    const body = { ...everyKindBody(state.rootGroupUid), vulnerabilityMetadata: [{}] };
    await expect(control(body)).rejects.toThrow(/vulnerabilityMetadata\[0\]\.id/);
    expect(contents(state)).toEqual(before);
  });

  it("a failure while storing takes back everything the call had stored", async () => {
    const { state, control } = setUp();
    const before = contents(state);
    const artifacts = state.collection("artifacts");
    artifacts.insert = () => {
      throw new Error("disk on fire");
    };
    await expect(control(everyKindBody(state.rootGroupUid))).rejects.toThrow("disk on fire");
    expect(contents(state)).toEqual(before);
  });
});
