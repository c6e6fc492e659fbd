/**
 * The shipped pack run as Pulumi runs it, on the resources of `examples/org-hierarchy`
 * with one deliberately bad binding added (the payments team's GitHub Actions
 * identity bound to `owner`).
 *
 * The example runs from an installed copy of the package under
 * `pulumi.runtime.setMocks`, once as a preview and once as an update
 * (`capture-program.ts`), which yields what the engine would send the pack: inputs
 * with unknown sentinels, property dependencies and state. The pack program is then
 * started from `policy/` by `@pulumi/pulumi`'s launcher and its Analyzer service
 * called over gRPC (`pack-host.ts`).
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsumerProject, REPO_ROOT } from "../../harness/installed-package";
import {
  type Diagnostic,
  type EngineResource,
  type PolicyPackHost,
  startPolicyPack,
} from "../../harness/policy-pack-host";
import { IRM_TYPES, PACK_NAME, POLICY_NAMES } from "../../policy/policies";
import { UNKNOWN_STRING } from "../support/policy-harness";

const PROJECT = "org-hierarchy";
const BAD_BINDING = "payments-ci-owner";
const PULL_BINDINGS = ["platform", "payments", "payments-api"].map(
  (team) => `${team}-ci-pull-internal-api`,
);

/** The example as it is, plus the bad binding; written next to the example's index.ts. */
const PROGRAM_WITH_BAD_BINDING = `
import * as irm from "pulumi-irm";
import { ciIdentities, groupUids } from "./index";
export * from "./index";

new irm.RoleBinding("${BAD_BINDING}", {
  groupUid: groupUids.apply((uids) => uids.payments),
  identityUid: ciIdentities.apply((identities) => identities.payments.uid),
  roleUid: irm.getRole({ name: "owner" }).then((role) => role.uid),
});
`;

/** The stack resource and the default provider, present in every `analyzeStack` request. */
const STACK_URN = `urn:pulumi:dev::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-dev`;
const frame = (type: string, name: string, urn: string): EngineResource => ({
  type,
  name,
  urn,
  inputs: {},
  state: {},
  propertyDependencies: {},
  dependencies: [],
});
const FRAME: EngineResource[] = [
  frame("pulumi:pulumi:Stack", `${PROJECT}-dev`, STACK_URN),
  frame(
    "pulumi:providers:pulumi-nodejs",
    "default",
    `urn:pulumi:dev::${PROJECT}::pulumi:providers:pulumi-nodejs::default`,
  ),
];

interface Capture {
  rootGroupUid: string;
  resources: EngineResource[];
}

async function capture(projectDir: string, phase: "preview" | "up"): Promise<Capture> {
  const script = path.join(REPO_ROOT, "tests", "support", "policy-capture-program.ts");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", script, phase, path.join(projectDir, "with-bad-binding.ts"), PROJECT],
    { cwd: projectDir, maxBuffer: 64 * 1024 * 1024 },
  );
  const lastLine = stdout.trimEnd().split("\n").pop() ?? "";
  return JSON.parse(lastLine) as Capture;
}

const byName = (resources: EngineResource[], name: string): EngineResource => {
  const found = resources.find((r) => r.name === name);
  if (!found) throw new Error(`no resource named ${name}`);
  return found;
};
const nameOf = (d: Diagnostic) => d.urn.split("::").pop();
const summary = (found: Diagnostic[]) =>
  found.map((d) => `${d.policyName} ${d.level} ${nameOf(d)}`).sort();

let pack: PolicyPackHost;
let preview: Capture;
let updated: Capture;

beforeAll(async () => {
  const project = createConsumerProject({
    name: "policy-org-hierarchy",
    programDir: path.join(REPO_ROOT, "examples", "org-hierarchy"),
    files: { "with-bad-binding.ts": PROGRAM_WITH_BAD_BINDING },
  });
  [preview, updated, pack] = await Promise.all([
    capture(project.dir, "preview"),
    capture(project.dir, "up"),
    startPolicyPack(),
  ]);
}, 120_000);

afterAll(async () => {
  await pack?.close();
});

describe("the irm-guardrails pack over gRPC, on examples/org-hierarchy", { shuffle: false }, () => {
  it("describes itself: name, version from policy/package.json, ten policies with their levels", async () => {
    const info = await pack.info();
    expect(info.getName()).toBe(PACK_NAME);
    expect(info.getVersion()).toBe("0.1.0");
    const levels = Object.fromEntries(
      info.getPoliciesList().map((p) => [p.getName(), p.getEnforcementlevel()]),
    );
    expect(levels).toEqual({
      [POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity]: 1,
      [POLICY_NAMES.rootGroupBindingAllowList]: 0,
      [POLICY_NAMES.identityIssuerAllowList]: 1,
      [POLICY_NAMES.noBroadIdentitySubject]: 1,
      [POLICY_NAMES.noDuplicateRoleBinding]: 1,
      [POLICY_NAMES.groupDescriptionRequired]: 0,
      [POLICY_NAMES.noMatchAllIdentityPattern]: 1,
      [POLICY_NAMES.noLongLivedOrReusableInvite]: 1,
      [POLICY_NAMES.noPrivilegedDefaultRole]: 1,
      [POLICY_NAMES.noPrivilegedExternalGroupRole]: 0,
    });
  });

  it("captured the example's resources and the bad binding, with unknown uids in preview", () => {
    const types = (c: Capture) => c.resources.map((r) => r.type);
    for (const c of [preview, updated]) {
      expect(types(c).filter((t) => t === IRM_TYPES.group)).toHaveLength(4);
      expect(types(c).filter((t) => t === IRM_TYPES.identity)).toHaveLength(3);
      expect(types(c).filter((t) => t === IRM_TYPES.roleBinding)).toHaveLength(7);
    }
    const bad = byName(preview.resources, BAD_BINDING);
    expect(bad.inputs.identityUid).toBe(UNKNOWN_STRING);
    expect(bad.propertyDependencies.identityUid).toHaveLength(3);
    // What the provider's check read of the looked-up role, as the engine hands it over.
    expect(bad.inputs.checkedRole).toMatchObject({ name: "owner", builtIn: true });
    // After the update the binding records the built-in role's name, and no copy of
    // the identity's name or issuer (those come from the Identity resource).
    const state = byName(updated.resources, BAD_BINDING).state;
    expect(state).toMatchObject({ builtInRoleName: "owner" });
    expect(state).not.toHaveProperty("identity");
  });

  it("preview: analyze finds nothing wrong with any single resource", async () => {
    for (const resource of preview.resources) {
      expect(await pack.analyze(resource), resource.name).toEqual([]);
    }
  });

  it("preview: analyzeStack already refuses the bad binding, and only it, and flags root bindings", async () => {
    const found = await pack.analyzeStack([...FRAME, ...preview.resources]);
    // Every role is a looked-up uid, which the provider's check reads: the owner binding
    // is refused before anything is written; editor, viewer and registry.pull pass.
    const privileged = found.filter(
      (d) => d.policyName === POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity,
    );
    expect(summary(privileged)).toEqual([
      `${POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity} mandatory ${BAD_BINDING}`,
    ]);
    expect(privileged[0].message).toContain(
      `RoleBinding '${BAD_BINDING}' gives the privileged role 'owner'`,
    );
    expect(found.filter((d) => d.level === "mandatory")).toEqual(privileged);
    // The pull bindings sit on the root organisation (the shared repository's group);
    // the bad binding's group comes from an output of every group, so it cannot be told yet.
    const root = found.filter((d) => d.policyName === POLICY_NAMES.rootGroupBindingAllowList);
    expect(root.map(nameOf).sort()).toEqual([BAD_BINDING, ...PULL_BINDINGS].sort());
    expect(root.find((d) => nameOf(d) === BAD_BINDING)?.message).toContain("cannot be checked");
    expect(found).toHaveLength(privileged.length + root.length);
  });

  it("after the update: analyze still passes every resource", async () => {
    for (const resource of updated.resources) {
      expect(await pack.analyze(resource), resource.name).toEqual([]);
    }
  });

  it("after the update: analyzeStack refuses the bad binding, and only it, as mandatory", async () => {
    const found = await pack.analyzeStack([...FRAME, ...updated.resources]);
    expect(summary(found)).toEqual(
      [
        `${POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity} mandatory ${BAD_BINDING}`,
        ...PULL_BINDINGS.map((b) => `${POLICY_NAMES.rootGroupBindingAllowList} advisory ${b}`),
      ].sort(),
    );
    const refusal = found.find((d) => d.level === "mandatory");
    expect(refusal?.policyPackName).toBe(PACK_NAME);
    expect(refusal?.message).toContain(
      `RoleBinding '${BAD_BINDING}' gives the privileged role 'owner'`,
    );
    expect(refusal?.message).toContain("identity 'payments-ci'");
    expect(refusal?.message).toContain("Fix:");
  });

  it("after the update: the example without the bad binding has no mandatory finding", async () => {
    const example = updated.resources.filter((r) => r.name !== BAD_BINDING);
    const found = await pack.analyzeStack([...FRAME, ...example]);
    expect(found.filter((d) => d.level === "mandatory")).toEqual([]);
  });

  it("analyze refuses a wildcard subject and notes an undescribed group", async () => {
    const identity = byName(updated.resources, "payments-ci");
    const claimMatch = identity.inputs.claimMatch as Record<string, string>;
    const broad = await pack.analyze({
      ...identity,
      inputs: {
        ...identity.inputs,
        claimMatch: { ...claimMatch, subject: "repo:acme/*:ref:refs/heads/main" },
      },
    });
    expect(broad.map((d) => `${d.policyName} ${d.level}`)).toEqual([
      `${POLICY_NAMES.noBroadIdentitySubject} mandatory`,
    ]);
    expect(broad[0].message).toContain("Identity 'payments-ci'");

    const group = byName(updated.resources, "payments");
    const bare = await pack.analyze({ ...group, inputs: { ...group.inputs, description: "" } });
    expect(bare.map((d) => `${d.policyName} ${d.level}`)).toEqual([
      `${POLICY_NAMES.groupDescriptionRequired} advisory`,
    ]);
  });

  it("refuses a duplicated binding in preview already", async () => {
    const original = byName(preview.resources, "payments-ci-editor");
    const copy = { ...original, name: "payments-ci-editor-again", urn: `${original.urn}-again` };
    const found = await pack.analyzeStack([...FRAME, ...preview.resources, copy]);
    const duplicates = found.filter((d) => d.policyName === POLICY_NAMES.noDuplicateRoleBinding);
    expect(duplicates.map((d) => `${nameOf(d)} ${d.level}`)).toEqual([
      "payments-ci-editor-again mandatory",
    ]);
  });

  // Runs last: configuration is process-wide state of the pack.
  it("takes settings and levels from the pack's configuration", async () => {
    await pack.configure({
      [POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity]: {
        enforcementLevel: "mandatory",
        privilegedRoles: ["owner", "editor"],
      },
      [POLICY_NAMES.rootGroupBindingAllowList]: {
        enforcementLevel: "advisory",
        allowedBindings: ["platform-ci", "payments-ci", "payments-api-ci"].map((identity) => ({
          identity,
          role: "registry.pull",
        })),
      },
      [POLICY_NAMES.groupDescriptionRequired]: { enforcementLevel: "disabled" },
    });
    const found = await pack.analyzeStack([...FRAME, ...updated.resources]);
    expect(summary(found)).toEqual(
      [BAD_BINDING, "platform-ci-editor", "payments-ci-editor"]
        .map((b) => `${POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity} mandatory ${b}`)
        .sort(),
    );
    const group = byName(updated.resources, "payments");
    expect(await pack.analyze({ ...group, inputs: { ...group.inputs, description: "" } })).toEqual(
      [],
    );
  });
});
