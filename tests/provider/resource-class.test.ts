/**
 * The machinery every resource class shares (`provider/resource-class.ts`), through the
 * classes themselves under `runtime.setMocks`: type tokens, `isInstance` across copies,
 * and `get`, which reads an existing object (ReadResource) with no inputs but the
 * serialized provider and fills every declared output from the answer.
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import * as irm from "../../provider/index";
import { Group, Identity, RoleBinding } from "../../provider/index";
import { IrmResource, isResourceOfType, typeToken } from "../../provider/resource-class";

interface Seen {
  type: string;
  name: string;
  id?: string;
  inputs: Record<string, unknown>;
}

const ROOT = "a".repeat(40);
const GROUP_UID = `${ROOT}/0123456789abcdef`;
const seen: Seen[] = [];

/** What the mock "engine" answers a read of each type with. */
const LIVE: Record<string, Record<string, unknown>> = {
  [Group.__pulumiType]: {
    uid: GROUP_UID,
    parentUid: ROOT,
    name: "platform",
    description: "read, not managed",
    verified: true,
    resourceLimits: { repositories: 10 },
    createTime: "2026-01-01T00:00:00.000Z",
    updateTime: "2026-01-02T00:00:00.000Z",
  },
};

/** Resolves an output of a resource made under mocks. */
function resolved<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

beforeAll(async () => {
  // As `pulumi up` runs a program: `@pulumi/pulumi`'s run connects V8's inspector first,
  // which keeps a frame for every constructor, even the default ones V8 otherwise skips.
  const v8Hooks = createRequire(__filename)("@pulumi/pulumi/runtime/closure/v8Hooks") as {
    isInitializedAsync(): Promise<void>;
  };
  await v8Hooks.isInitializedAsync();
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        seen.push({ type: args.type, name: args.name, id: args.id, inputs: args.inputs });
        const state = args.id
          ? (LIVE[args.type] ?? { uid: args.id })
          : { ...args.inputs, uid: `${ROOT}/made` };
        return { id: args.id || `${ROOT}/made`, state };
      },
      call: () => ({}),
    },
    "resource-class",
    "dev",
    false,
  );
});

describe("resource classes", () => {
  it("each has its own type token under the irm module", () => {
    expect(Group.__pulumiType).toBe("pulumi-nodejs:dynamic/irm:Group");
    expect(Identity.__pulumiType).toBe("pulumi-nodejs:dynamic/irm:Identity");
    expect(RoleBinding.__pulumiType).toBe("pulumi-nodejs:dynamic/irm:RoleBinding");
    expect(typeToken("Role")).toBe("pulumi-nodejs:dynamic/irm:Role");
  });

  it("isInstance compares type tokens, so another copy's resources are recognised", async () => {
    const group = new Group("team", { parentUid: ROOT, name: "team" });
    expect(Group.isInstance(group)).toBe(true);
    expect(Identity.isInstance(group)).toBe(false);
    expect(RoleBinding.isInstance(group)).toBe(false);
    // A resource from another copy of the package: no shared prototype, same token.
    expect(Group.isInstance({ __pulumiType: "pulumi-nodejs:dynamic/irm:Group" })).toBe(true);
    expect(Group.isInstance({ __pulumiType: "pulumi-nodejs:dynamic/irm:Identity" })).toBe(false);
    expect(Group.isInstance(undefined)).toBe(false);
    expect(Group.isInstance(null)).toBe(false);
    expect(Group.isInstance("pulumi-nodejs:dynamic/irm:Group")).toBe(false);
    expect(isResourceOfType(group, Group.__pulumiType)).toBe(true);
    await resolved(group.uid);
  });

  it("instanceof tells the classes apart, and every one is an IrmResource and a CustomResource", async () => {
    const group = new Group("kinds", { parentUid: ROOT, name: "kinds" });
    expect(group instanceof Group).toBe(true);
    expect(group instanceof Identity).toBe(false);
    expect(group instanceof RoleBinding).toBe(false);
    expect(group instanceof irm.Role).toBe(false);
    expect(group instanceof IrmResource).toBe(true);
    expect(group instanceof pulumi.CustomResource).toBe(true);
    expect({} instanceof Group).toBe(false);
    expect({} instanceof IrmResource).toBe(false);
    await resolved(group.uid);
  });

  it("get reads the object by uid with nothing but the provider, and fills every output", async () => {
    const group = Group.get("existing", GROUP_UID);
    expect(Group.isInstance(group)).toBe(true);
    const uid = await resolved(group.uid);
    const read = seen.find((s) => s.name === "existing");
    expect(read).toMatchObject({ type: Group.__pulumiType, id: GROUP_UID });
    // Only the serialized provider goes to the read: no inputs, no defaults.
    expect(Object.keys(read?.inputs ?? {})).toEqual(["__provider"]);
    expect(uid).toBe(GROUP_UID);
    expect(await resolved(group.parentUid)).toBe(ROOT);
    expect(await resolved(group.name)).toBe("platform");
    expect(await resolved(group.description)).toBe("read, not managed");
    expect(await resolved(group.verified)).toBe(true);
    expect(await resolved(group.resourceLimits)).toEqual({ repositories: 10 });
    expect(await resolved(group.updateTime)).toBe("2026-01-02T00:00:00.000Z");
  });

  it("a created resource registers its inputs with defaults and every output", async () => {
    const group = new Group("defaults", { parentUid: ROOT, name: "defaults" });
    await resolved(group.uid);
    const created = seen.find((s) => s.name === "defaults");
    expect(created?.id).toBeFalsy();
    expect(created?.inputs).toMatchObject({ parentUid: ROOT, name: "defaults", description: "" });
  });
});

describe("what the engine stores of the program's call stack", () => {
  /**
   * The engine keeps, with every resource, the frames `@pulumi/pulumi`'s `Resource`
   * constructor takes (`Resource.stackTrace`, its first frame the `sourcePosition`), less
   * the constructor that calls `pulumi.CustomResource`'s. A class of this package must
   * add no frame of its own: it would cost every resource the package's path in state,
   * and point `sourcePosition` into the package instead of the program's line.
   */
  const PACKAGE_CODE = pathToFileURL(path.resolve(__dirname, "../../provider")).href;
  type Frame = { uri: string; line: number; column: number } | undefined;
  const resourceClass = pulumi.Resource as unknown as {
    stackTrace(skip: number): Frame[];
  };

  function framesOf(make: () => unknown): Frame[] {
    const original = resourceClass.stackTrace;
    let taken: Frame[] | undefined;
    resourceClass.stackTrace = function (this: unknown, skip: number) {
      // One more: this wrapper's own frame stands between the constructor and the original.
      taken = original.call(this, skip + 1);
      return taken;
    };
    try {
      make();
    } finally {
      resourceClass.stackTrace = original;
    }
    if (!taken) throw new Error("the resource took no stack trace");
    return taken;
  }

  const ALL = Object.entries(irm).filter(
    ([, value]) =>
      typeof value === "function" &&
      typeof (value as { __pulumiType?: unknown }).__pulumiType === "string" &&
      (value as { __pulumiType: string }).__pulumiType.startsWith("pulumi-nodejs:dynamic/irm:"),
  ) as Array<
    [string, new (name: string, args: unknown, opts?: pulumi.CustomResourceOptions) => unknown]
  >;

  it("covers every resource class the package exports", () => {
    expect(ALL.map(([name]) => name).sort()).toEqual([
      "AccountAssociation",
      "ExternalGroupRoleMapping",
      "Group",
      "GroupInvite",
      "Identity",
      "IdentityProvider",
      "Repo",
      "Role",
      "RoleBinding",
      "Subscription",
    ]);
  });

  it.each(ALL)(
    "new %s records the program's line first and no frame of the package",
    (_, Class) => {
      // As `get` registers (no arguments, an id), so no class needs its own valid inputs.
      const frames = framesOf(() => new Class(`stack-${_}`, undefined, { id: `${ROOT}/x` }));
      // Frames whose position the engine cannot parse (an anonymous arrow here) are empty.
      const uris = frames.flatMap((frame) => (frame ? [frame.uri] : []));
      expect(uris[0]).toContain("resource-class.test.ts");
      expect(uris.filter((uri) => uri.startsWith(PACKAGE_CODE))).toEqual([]);
    },
  );
});
