/**
 * The shipped pack run as Pulumi runs it: the pack program started from `policy/`
 * by `@pulumi/pulumi`'s launcher, the Analyzer service called over gRPC with the
 * resources of the org hierarchy, in preview and after the update, with one
 * deliberately bad binding (a GitHub Actions workload bound to `owner`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IRM_TYPES, PACK_NAME, POLICY_NAMES } from "../../policy/policies";
import { ensureBuilt } from "../support/installed-package";
import { UNKNOWN_STRING } from "./harness";
import {
  type EngineResource,
  engineResources,
  orgDeclarations,
  PROVIDER_URN,
  STACK_URN,
} from "./org-fixture";
import { type PolicyPackHost, startPolicyPack } from "./pack-host";

const BAD_BINDING_URN =
  "urn:pulumi:dev::org-hierarchy::pulumi-nodejs:dynamic/irm:RoleBinding::app-release-owner";

/** The stack and its default provider, present in every `analyzeStack` request. */
const FRAME: EngineResource[] = [
  {
    type: "pulumi:pulumi:Stack",
    name: "org-hierarchy-dev",
    urn: STACK_URN,
    inputs: {},
    state: {},
    propertyDependencies: {},
    dependencies: [],
  },
  {
    type: "pulumi:providers:pulumi-nodejs",
    name: "default",
    urn: PROVIDER_URN,
    inputs: {},
    state: {},
    propertyDependencies: {},
    dependencies: [],
  },
];

let pack: PolicyPackHost;

beforeAll(async () => {
  ensureBuilt();
  pack = await startPolicyPack();
});

afterAll(async () => {
  await pack?.close();
});

describe("the irm-guardrails pack over gRPC", () => {
  it("describes itself: name, version from policy/package.json, six policies with their levels", async () => {
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
    });
  });

  it("preview: analyze passes every resource of the org, unknown uids included", async () => {
    const resources = engineResources(orgDeclarations(true), "preview");
    const bad = resources.find((r) => r.urn === BAD_BINDING_URN);
    expect(bad?.inputs.identityUid).toBe(UNKNOWN_STRING);
    for (const resource of resources) {
      expect(await pack.analyze(resource), resource.name).toEqual([]);
    }
  });

  it("analyze reports resource policies: a wildcard subject and an undescribed group", async () => {
    const [platform, , , deployer] = engineResources(orgDeclarations(false), "up");
    const broad = {
      ...deployer,
      inputs: {
        ...deployer.inputs,
        claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "*" },
      },
    };
    const subjectFindings = await pack.analyze(broad);
    expect(subjectFindings.map((d) => [d.policyName, d.level])).toEqual([
      [POLICY_NAMES.noBroadIdentitySubject, "mandatory"],
    ]);
    expect(subjectFindings[0].message).toContain("Identity 'ci-deployer'");

    const bare = { ...platform, inputs: { ...platform.inputs, description: "" } };
    const groupFindings = await pack.analyze(bare);
    expect(groupFindings.map((d) => [d.policyName, d.level])).toEqual([
      [POLICY_NAMES.groupDescriptionRequired, "advisory"],
    ]);
  });

  it("preview: analyzeStack blocks nothing and says which role names are not known yet", async () => {
    const resources = engineResources(orgDeclarations(true), "preview");
    const found = await pack.analyzeStack([...FRAME, ...resources]);
    expect(found.filter((d) => d.level === "mandatory")).toEqual([]);
    const notes = found.filter(
      (d) => d.policyName === POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity,
    );
    // Every binding of a GitHub workload gets a note: its role is a looked-up uid.
    expect(notes.map((d) => d.urn).sort()).toEqual(
      resources
        .filter((r) => r.type === IRM_TYPES.roleBinding)
        .map((r) => r.urn)
        .sort(),
    );
    for (const note of notes) {
      expect(note.level).toBe("advisory");
      expect(note.message).toContain("cannot be checked for privileged roles yet");
    }
    expect(
      found.every((d) => d.policyName === POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity),
    ).toBe(true);
  });

  it("after the update: analyzeStack refuses exactly the bad binding", async () => {
    const found = await pack.analyzeStack([
      ...FRAME,
      ...engineResources(orgDeclarations(true), "up"),
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      policyName: POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity,
      policyPackName: PACK_NAME,
      urn: BAD_BINDING_URN,
      level: "mandatory",
    });
    expect(found[0].message).toContain(
      "RoleBinding 'app-release-owner' gives the privileged role 'owner'",
    );
    expect(found[0].message).toContain("identity 'app-release'");
  });

  it("after the update: the org without the bad binding passes", async () => {
    const found = await pack.analyzeStack([
      ...FRAME,
      ...engineResources(orgDeclarations(false), "up"),
    ]);
    expect(found).toEqual([]);
  });

  it("a duplicated binding is refused, in preview already", async () => {
    const declarations = orgDeclarations(false);
    const viewer = declarations.find((d) => d.name === "app-release-viewer");
    if (!viewer) throw new Error("fixture lacks app-release-viewer");
    declarations.push({ ...viewer, name: "app-release-viewer-again" });
    const found = await pack.analyzeStack([...FRAME, ...engineResources(declarations, "preview")]);
    const duplicates = found.filter((d) => d.policyName === POLICY_NAMES.noDuplicateRoleBinding);
    expect(duplicates.map((d) => [d.urn.split("::").pop(), d.level])).toEqual([
      ["app-release-viewer-again", "mandatory"],
    ]);
  });

  // Runs last: configuration is process-wide state of the pack.
  it("takes settings and levels from the pack's configuration", async () => {
    await pack.configure({
      [POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity]: {
        enforcementLevel: "mandatory",
        privilegedRoles: ["owner", "editor"],
      },
      [POLICY_NAMES.groupDescriptionRequired]: { enforcementLevel: "disabled" },
    });
    const found = await pack.analyzeStack([
      ...FRAME,
      ...engineResources(orgDeclarations(false), "up"),
    ]);
    expect(found.map((d) => [d.urn.split("::").pop(), d.level])).toEqual([
      ["ci-deployer-editor", "mandatory"],
    ]);
    const [platform] = engineResources(orgDeclarations(false), "up");
    expect(
      await pack.analyze({ ...platform, inputs: { ...platform.inputs, description: "" } }),
    ).toEqual([]);
  });
});
