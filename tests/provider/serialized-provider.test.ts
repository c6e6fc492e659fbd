/**
 * What a program stores in state: runs a program under `runtime.setMocks` with an
 * installed copy of the package and inspects each resource's `__provider` text.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createConsumerProject } from "../../harness/installed-package";
import { type ProgramRun, runProgramUnderMocks } from "../support/provider-program";
import { groupProvider, identityProvider, roleBindingProvider } from "../support/provider-texts";

/** A token that must never be copied into a serialized provider. */
const SENTINEL_TOKEN = "sentinel-token-7f3e9c1d-do-not-store";
const SENTINEL_API_URL = "http://127.0.0.1:59999/sentinel-api";

let run: ProgramRun;

beforeAll(async () => {
  const project = createConsumerProject({
    name: "provider-serialization",
    requiredSubpaths: [".", "./provider/runtime", "./sdk"],
  });
  vi.stubEnv("IRM_TOKEN", SENTINEL_TOKEN);
  run = await runProgramUnderMocks(
    project,
    { "irm:token": SENTINEL_TOKEN, "irm:apiUrl": SENTINEL_API_URL },
    ["irm:token"],
  );
});

// A worker runs other files after this one (vitest.config.ts): leave no token behind.
afterAll(() => {
  vi.unstubAllEnvs();
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

  it("stores the short text of its type, which requires the runtime entry", () => {
    const texts: Record<string, string> = {
      [run.pkg.Group.__pulumiType]: groupProvider,
      [run.pkg.Identity.__pulumiType]: identityProvider,
      [run.pkg.RoleBinding.__pulumiType]: roleBindingProvider,
    };
    for (const resource of run.registered) {
      const provider = run.providerOf(resource.type);
      expect(provider, resource.type).toBe(texts[resource.type]);
      expect(provider.length, resource.type).toBeLessThan(110);
      expect(provider).toContain('require("pulumi-irm/provider/runtime")');
    }
  });

  it("registers custom resources that pulumi.dynamic.Resource.isInstance recognises", () => {
    const { resources } = run;
    for (const resource of [resources.group, resources.identity, resources.binding]) {
      expect(pulumi.dynamic.Resource.isInstance(resource)).toBe(true);
      expect(pulumi.CustomResource.isInstance(resource)).toBe(true);
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
