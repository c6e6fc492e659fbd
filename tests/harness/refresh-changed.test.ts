/**
 * The convergence check relies on `refreshChangedOf` to see a refresh the engine calls
 * `same` (only outputs moved): the events below have the shape `pulumi preview
 * --refresh` sends over `--event-log` (CLI v3.248.0), for a group edited and edited back
 * out of band (only `updateTime` moved), one read back unchanged, and one found gone.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { refreshChangedOf } from "../../harness/real-engine/real-stack";

const TYPE = "pulumi-nodejs:dynamic/irm:Group";
const urn = (name: string) => `urn:pulumi:dev::p::${TYPE}::${name}`;
const state = (name: string, outputs: Record<string, unknown>) => ({
  type: TYPE,
  urn: urn(name),
  inputs: { name, description: "a team" },
  outputs: { name, description: "a team", ...outputs },
});

function refreshOf(name: string, old: unknown, now: unknown): EngineEvent[] {
  const metadata = { op: "refresh", urn: urn(name), type: TYPE, old, new: now };
  return [
    { sequence: 1, timestamp: 0, resourcePreEvent: { metadata, planning: true } },
    { sequence: 2, timestamp: 0, resOutputsEvent: { metadata, planning: true } },
  ] as unknown as EngineEvent[];
}

describe("refreshChangedOf", () => {
  it("names a resource whose outputs alone moved, and one found gone, not one read back alike", () => {
    const events = [
      ...refreshOf(
        "moved",
        state("moved", { updateTime: "1" }),
        state("moved", { updateTime: "2" }),
      ),
      // Same values, keys in another order: unchanged.
      ...refreshOf("same", state("same", { a: 1, b: 2 }), state("same", { b: 2, a: 1 })),
      ...refreshOf("gone", state("gone", {}), undefined),
    ];
    expect(refreshChangedOf(events).sort()).toEqual(["gone", "moved"]);
  });

  it("ignores steps other than refreshes", () => {
    const [pre, outputs] = refreshOf(
      "updated",
      state("updated", { x: 1 }),
      state("updated", { x: 2 }),
    );
    (pre as { resourcePreEvent: { metadata: { op: string } } }).resourcePreEvent.metadata.op =
      "update";
    expect(refreshChangedOf([pre, outputs])).toEqual([]);
  });
});
