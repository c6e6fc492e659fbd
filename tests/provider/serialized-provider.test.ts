/**
 * What a program stores in state: runs a program under `runtime.setMocks` with an
 * installed copy of the package and inspects each resource's serialized `__provider`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createConsumerProject } from "../../harness/installed-package";
import { type ProgramRun, runProgramUnderMocks } from "../support/provider-program";

/** A token that must never be copied into a serialized provider. */
const SENTINEL_TOKEN = "sentinel-token-7f3e9c1d-do-not-store";
const SENTINEL_API_URL = "http://127.0.0.1:59999/sentinel-api";

let run: ProgramRun;

beforeAll(async () => {
  const project = createConsumerProject({
    name: "provider-serialization",
    requiredSubpaths: [".", "./provider/runtime", "./sdk"],
  });
  process.env.IRM_TOKEN = SENTINEL_TOKEN;
  run = await runProgramUnderMocks(
    project,
    { "irm:token": SENTINEL_TOKEN, "irm:apiUrl": SENTINEL_API_URL },
    ["irm:token"],
  );
});

describe("serialized providers", () => {
  it("registers each resource under its distinctive type token", () => {
    const { pkg, registered } = run;
    expect(registered.map((r) => r.type).sort()).toEqual(
      [pkg.Group.__pulumiType, pkg.Identity.__pulumiType, pkg.RoleBinding.__pulumiType].sort(),
    );
    expect(pkg.Group.__pulumiType).toBe("pulumi-nodejs:dynamic/irm:Group");
    expect(pkg.Identity.__pulumiType).toBe("pulumi-nodejs:dynamic/irm:Identity");
    expect(pkg.RoleBinding.__pulumiType).toBe("pulumi-nodejs:dynamic/irm:RoleBinding");
  });

  it("recognises its own instances by type token", () => {
    const { pkg, resources } = run;
    expect(pkg.Group.isInstance(resources.group)).toBe(true);
    expect(pkg.Group.isInstance(resources.identity)).toBe(false);
    expect(pkg.Identity.isInstance(resources.identity)).toBe(true);
    expect(pkg.RoleBinding.isInstance(resources.binding)).toBe(true);
    expect(pkg.RoleBinding.isInstance({ __pulumiType: "other" })).toBe(false);
    expect(pkg.RoleBinding.isInstance(undefined)).toBe(false);
  });

  it("stores a thin shim that requires the runtime entry, under 2 KB per resource", () => {
    for (const resource of run.registered) {
      const provider = run.providerOf(resource.type);
      expect(provider.length, resource.type).toBeLessThan(2048);
      expect(provider).toContain('require("pulumi-irm/provider/runtime")');
      // Nothing of the client or the settings is captured.
      expect(provider).not.toMatch(/IrmClient|undici|deleteTimeoutMs|apiUrl/);
    }
  });

  it("never copies the configured secret token or settings into the provider or inputs", () => {
    for (const resource of run.registered) {
      const everything = JSON.stringify(resource.inputs);
      expect(everything).not.toContain(SENTINEL_TOKEN);
      expect(everything).not.toContain(SENTINEL_API_URL);
    }
  });
});
