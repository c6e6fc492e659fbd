/**
 * The machinery every resource class shares (`provider/resource-class.ts`), through the
 * classes themselves under `runtime.setMocks`: type tokens, `isInstance` across copies,
 * and `get`, which reads an existing object (ReadResource) with no inputs but the
 * serialized provider and fills every declared output from the answer.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { Group, Identity, RoleBinding } from "../../provider/index";
import { isResourceOfType, typeToken } from "../../provider/resource-class";

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
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        seen.push({ type: args.type, name: args.name, id: args.id, inputs: args.inputs });
        const state = args.id ? LIVE[args.type] : { ...args.inputs, uid: `${ROOT}/made` };
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
