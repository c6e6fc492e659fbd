/**
 * Runs a small program with the installed copy of the package under
 * `runtime.setMocks`, as `pulumi up` would run it, and returns what each resource
 * registered (type token and inputs, the serialized `__provider` included).
 * `setMocks` is process-wide: call one of these once per test file.
 */

import type { Output } from "@pulumi/pulumi";
import type { ConsumerProject } from "../../harness/installed-package";
import type * as Package from "../../provider/index";

type Pulumi = typeof import("@pulumi/pulumi");

export interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/** What a program run under mocks registered. */
export interface Registration {
  pkg: typeof Package;
  registered: Registered[];
  /** The serialized provider of each type token. */
  providerOf(type: string): string;
}

export interface ProgramRun extends Registration {
  /** The resources the program declared. */
  resources: { group: Package.Group; identity: Package.Identity; binding: Package.RoleBinding };
}

const ROOT = "a".repeat(40);
const ROLE = "b".repeat(40);

export interface MockOptions {
  /** A resource's uid from its inputs (default: a new child uid of `ROOT`). */
  uidOf?: (inputs: Record<string, unknown>) => string | undefined;
  /**
   * How many resources the program registers: resolve once that many have, for a
   * program whose resources `declare` cannot hand back (one loaded from a file).
   */
  expected?: number;
}

/**
 * Runs `declare`, the body of a program, with the installed copy of the package under
 * `runtime.setMocks`, and answers what each resource registered once the outputs
 * `declare` returns are known (and `options.expected` resources registered). Each
 * resource's id is a child uid of `ROOT` ("a" * 40), or what `options.uidOf` answers,
 * its state its inputs and that uid.
 */
export async function registerUnderMocks(
  project: ConsumerProject,
  declare: (pkg: typeof Package) => Array<Output<unknown>>,
  config: Record<string, string> = {},
  secretKeys: string[] = [],
  options: MockOptions = {},
): Promise<Registration> {
  // Load the installed copy and its @pulumi/pulumi natively (not through vitest's
  // transform), as a program would.
  const pulumi = project.require("@pulumi/pulumi") as Pulumi;
  const pkg = project.require("pulumi-irm") as typeof Package;
  const registered: Registered[] = [];
  let allRegistered: () => void = () => {};
  const expected = new Promise<void>((resolve) => {
    allRegistered = resolve;
  });
  pulumi.runtime.setAllConfig(config, secretKeys);
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        const uid =
          options.uidOf?.(args.inputs) ?? `${ROOT}/${String(registered.length).padStart(16, "0")}`;
        if (registered.length === options.expected) allRegistered();
        return { id: uid, state: { ...args.inputs, uid } };
      },
      call: () => ({}),
    },
    "program",
    "dev",
    false,
  );
  const outputs = declare(pkg);
  await new Promise<void>((resolve) => pulumi.all(outputs).apply(() => resolve()));
  if (options.expected !== undefined) await expected;
  return {
    pkg,
    registered,
    providerOf(type) {
      const found = registered.find((r) => r.type === type);
      if (!found || typeof found.inputs.__provider !== "string") {
        throw new Error(`no serialized provider registered for ${type}`);
      }
      return found.inputs.__provider;
    },
  };
}

/**
 * The body of a program declaring one `Role`, `IdentityProvider` (its client secret
 * `clientSecret`), `GroupInvite` and `AccountAssociation`, for `registerUnderMocks`.
 */
export function iamKindsProgram(
  clientSecret: string,
): (pkg: typeof Package) => Array<Output<unknown>> {
  return (irm) => [
    new irm.Role("r", { parentUid: ROOT, name: "r", capabilities: ["CAP_REPO_LIST"] }).uid,
    new irm.IdentityProvider("idp", {
      parentUid: ROOT,
      name: "idp",
      defaultRole: ROLE,
      oidc: { issuer: "https://login.example.com", clientId: "c" },
      clientSecret,
    }).uid,
    new irm.GroupInvite("inv", { groupUid: ROOT, roleUid: ROLE, ttl: 60 }).uid,
    new irm.AccountAssociation("acc", {
      groupUid: ROOT,
      name: "acc",
      amazon: { account: "123456789012" },
    }).uid,
  ];
}

/** A program declaring a group, an identity in it and a role binding of the identity. */
export async function runProgramUnderMocks(
  project: ConsumerProject,
  config: Record<string, string>,
  secretKeys: string[],
): Promise<ProgramRun> {
  let resources: ProgramRun["resources"] | undefined;
  const run = await registerUnderMocks(
    project,
    (pkg) => {
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
      resources = { group, identity, binding };
      return [binding.uid];
    },
    config,
    secretKeys,
  );
  return { ...run, resources: resources as ProgramRun["resources"] };
}
