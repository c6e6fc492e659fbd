/**
 * What a program stores in state: runs a program under `runtime.setMocks` with an
 * installed copy of the package and inspects each resource's serialized `__provider`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type * as Package from "../../provider/index";
import { type ConsumerProject, createConsumerProject } from "../support/installed-package";

type Pulumi = typeof import("@pulumi/pulumi");

/** A token that must never be copied into a serialized provider. */
const SENTINEL_TOKEN = "sentinel-token-7f3e9c1d-do-not-store";
const SENTINEL_API_URL = "http://127.0.0.1:59999/sentinel-api";
const ROOT = "a".repeat(40);
const ROLE = "b".repeat(40);

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

let project: ConsumerProject;
const registered: Registered[] = [];
let pkg: typeof Package;

beforeAll(async () => {
  project = createConsumerProject({
    name: "provider-serialization",
    requiredSubpaths: [".", "./provider/runtime", "./sdk"],
  });
  // Load the installed copy and its @pulumi/pulumi natively (not through vitest's
  // transform), as a program would.
  const pulumi = project.require("@pulumi/pulumi") as Pulumi;
  pkg = project.require("pulumi-irm") as typeof Package;
  process.env.IRM_TOKEN = SENTINEL_TOKEN;
  pulumi.runtime.setAllConfig({ "irm:token": SENTINEL_TOKEN, "irm:apiUrl": SENTINEL_API_URL }, [
    "irm:token",
  ]);
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return {
          id: `${args.name}-id`,
          state: { ...args.inputs, uid: `${ROOT}/${"1".repeat(16)}` },
        };
      },
      call: () => ({}),
    },
    "serialization",
    "dev",
    false,
  );

  const group = new pkg.Group("team", { parentUid: ROOT, name: "team" });
  const identity = new pkg.Identity("deployer", {
    parentUid: group.uid,
    name: "deployer",
    claimMatch: { issuer: "https://issuer.example", subject: "main" },
  });
  const binding = new pkg.RoleBinding("deployer-viewer", {
    groupUid: group.uid,
    identityUid: identity.uid,
    roleUid: ROLE,
  });
  await new Promise<void>((resolve) => binding.urn.apply(() => resolve()));
  expect(pkg.Group.isInstance(group)).toBe(true);
  expect(pkg.Group.isInstance(identity)).toBe(false);
});

describe("serialized providers", () => {
  it("registers each resource under its distinctive type token", () => {
    expect(registered.map((r) => r.type).sort()).toEqual(
      [pkg.Group.__pulumiType, pkg.Identity.__pulumiType, pkg.RoleBinding.__pulumiType].sort(),
    );
    expect(pkg.Group.__pulumiType).toBe("pulumi-nodejs:dynamic/irm:Group");
    expect(pkg.Identity.__pulumiType).toBe("pulumi-nodejs:dynamic/irm:Identity");
    expect(pkg.RoleBinding.__pulumiType).toBe("pulumi-nodejs:dynamic/irm:RoleBinding");
  });

  it("stores a thin shim that requires the runtime entry, under 2 KB per resource", () => {
    for (const resource of registered) {
      const text = resource.inputs.__provider;
      expect(typeof text, resource.type).toBe("string");
      const provider = text as string;
      expect(provider.length, resource.type).toBeLessThan(2048);
      expect(provider).toContain('require("pulumi-irm/provider/runtime")');
      // Nothing of the client or the settings is captured.
      expect(provider).not.toMatch(/IrmClient|undici|deleteTimeoutMs|apiUrl/);
    }
  });

  it("never copies the configured secret token or settings into the provider or inputs", () => {
    for (const resource of registered) {
      const everything = JSON.stringify(resource.inputs);
      expect(everything).not.toContain(SENTINEL_TOKEN);
      expect(everything).not.toContain(SENTINEL_API_URL);
    }
  });
});
