/**
 * Runs a small program with the installed copy of the package under
 * `runtime.setMocks`, as `pulumi up` would run it, and returns what each resource
 * registered (type token and inputs, the serialized `__provider` included).
 * `setMocks` is process-wide: call this once per test file.
 */

import type { ConsumerProject } from "../../harness/installed-package";
import type * as Package from "../../provider/index";

type Pulumi = typeof import("@pulumi/pulumi");

export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

export interface ProgramRun {
  pkg: typeof Package;
  registered: Registered[];
  /** The resources the program declared. */
  resources: { group: Package.Group; identity: Package.Identity; binding: Package.RoleBinding };
  /** The serialized provider of each type token. */
  providerOf(type: string): string;
}

const ROOT = "a".repeat(40);
const ROLE = "b".repeat(40);

export async function runProgramUnderMocks(
  project: ConsumerProject,
  config: Record<string, string>,
  secretKeys: string[],
): Promise<ProgramRun> {
  // Load the installed copy and its @pulumi/pulumi natively (not through vitest's
  // transform), as a program would.
  const pulumi = project.require("@pulumi/pulumi") as Pulumi;
  const pkg = project.require("pulumi-irm") as typeof Package;
  const registered: Registered[] = [];
  pulumi.runtime.setAllConfig(config, secretKeys);
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        const uid = `${ROOT}/${String(registered.length).padStart(16, "0")}`;
        return { id: uid, state: { ...args.inputs, uid } };
      },
      call: () => ({}),
    },
    "program",
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
  await new Promise<void>((resolve) => binding.uid.apply(() => resolve()));

  return {
    pkg,
    registered,
    resources: { group, identity, binding },
    providerOf(type) {
      const found = registered.find((r) => r.type === type);
      if (!found || typeof found.inputs.__provider !== "string") {
        throw new Error(`no serialized provider registered for ${type}`);
      }
      return found.inputs.__provider;
    },
  };
}
