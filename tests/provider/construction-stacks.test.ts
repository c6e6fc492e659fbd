/**
 * While a class of this package constructs its resource, stacks hold five frames
 * (`provider/resource-class.ts`, CONSTRUCTION_FRAMES): `@pulumi/pulumi` formats one for
 * each promise it makes there, and only prints them for a promise leaked at exit under
 * `PULUMI_DEBUG_PROMISE_LEAKS`, which keeps the default. Seen from a resource
 * transformation, which runs inside the construction, under `runtime.setMocks`.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Group, Identity } from "../../provider/index";

const ROOT = "a".repeat(40);
const DEFAULT_FRAMES = Error.stackTraceLimit;

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${ROOT}/0123456789abcdef`, state: args.inputs }),
      call: () => ({}),
    },
    "construction-stacks",
    "dev",
    false,
  );
});

afterEach(() => {
  delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
  Error.stackTraceLimit = DEFAULT_FRAMES;
});

/** `Error.stackTraceLimit` inside the construction of a `Group` named `name`. */
function framesInside(name: string): number {
  let seen: number | undefined;
  new Group(
    name,
    { parentUid: ROOT, name },
    {
      transformations: [
        () => {
          seen = Error.stackTraceLimit;
          return undefined;
        },
      ],
    },
  );
  if (seen === undefined) throw new Error("the transformation did not run");
  return seen;
}

describe("stacks made while a resource is constructed", () => {
  it("hold five frames inside the construction, and the program's limit after it", () => {
    expect(DEFAULT_FRAMES).toBe(10);
    expect(framesInside("short")).toBe(5);
    expect(Error.stackTraceLimit).toBe(DEFAULT_FRAMES);
  });

  it("keep a program's own lower limit", () => {
    Error.stackTraceLimit = 3;
    expect(framesInside("lower")).toBe(3);
    expect(Error.stackTraceLimit).toBe(3);
  });

  it("keep the default under PULUMI_DEBUG_PROMISE_LEAKS, where Pulumi prints them", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "true";
    expect(framesInside("debugging")).toBe(DEFAULT_FRAMES);
  });

  it("still name the program's line in an error the constructor throws", () => {
    const caught = (() => {
      try {
        new Identity("", { parentUid: ROOT, name: "x" } as never);
      } catch (error) {
        return error as Error;
      }
      throw new Error("the constructor did not throw");
    })();
    expect(caught.stack).toContain("construction-stacks.test.ts");
  });

  it("are back to the program's limit once a constructor that threw is done", async () => {
    expect(() => new Group("", { parentUid: ROOT, name: "x" })).toThrow();
    await new Promise((resolve) => process.nextTick(resolve));
    expect(Error.stackTraceLimit).toBe(DEFAULT_FRAMES);
  });
});
