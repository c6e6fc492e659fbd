/**
 * Builds the arguments `@pulumi/policy` hands a policy, with realistic IRM resource
 * shapes, and records what the policy reports.
 */

import type {
  PolicyResource,
  PolicyResourceOptions,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import * as policyRuntime from "@pulumi/policy";
import { IRM_TYPES } from "../../policy/policies";

/** The engine's unknown string sentinel, as a dynamic provider sees it in preview. */
export const UNKNOWN_STRING = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** `@pulumi/policy` wraps props in this proxy; its type is not published. */
const { unknownCheckingProxy } = policyRuntime as unknown as {
  unknownCheckingProxy: <T extends object>(props: T) => T;
};

export const GITHUB = "https://token.actions.githubusercontent.com";
export const ROOT_UID = "5f0c6e1a9b2d4c7e8f1a3b5c7d9e0f2a4b6c8d0e";
export const OWNER_ROLE_UID = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567";
export const VIEWER_ROLE_UID = "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432";
export const EDITOR_ROLE_UID = "1111222233334444555566667777888899990000";
export const PROVIDER_TEXT = "exports.handler = () => ({});";

const PROJECT = "org-hierarchy";
const STACK = "dev";

export const urnOf = (type: string, name: string): string =>
  `urn:pulumi:${STACK}::${PROJECT}::${type}::${name}`;

const noOptions: PolicyResourceOptions = {
  protect: false,
  ignoreChanges: [],
  aliases: [],
  customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
  additionalSecretOutputs: [],
};

/** A resource as both a stack policy and a resource policy see it. */
const resourceSeen = (type: string, name: string, props: Record<string, unknown>) => ({
  type,
  name,
  urn: urnOf(type, name),
  props: unknownCheckingProxy({ __provider: PROVIDER_TEXT, ...props }),
  opts: noOptions,
  isType: () => false,
  asType: () => undefined,
});

/** A stack resource; `dependsOn` maps a property to the resources it was computed from. */
export function stackResource(
  type: string,
  name: string,
  props: Record<string, unknown>,
  dependsOn: Record<string, PolicyResource[]> = {},
): PolicyResource {
  return {
    ...resourceSeen(type, name, props),
    dependencies: Object.values(dependsOn).flat(),
    propertyDependencies: dependsOn,
  };
}

/** A reported finding: `level` is "advisory" for notes that override the policy's level. */
export interface Finding {
  message: string;
  urn?: string;
  level: "policy" | "advisory";
}

/** A `reportViolation` that records both the string and the object forms. */
export function recorder(): { report: ReportViolation; findings: Finding[] } {
  const findings: Finding[] = [];
  const report = ((
    message: string | { message: string; urn?: string; enforcementLevel?: string },
    urn?: string,
  ) => {
    if (typeof message === "string") findings.push({ message, urn, level: "policy" });
    else
      findings.push({
        message: message.message,
        urn: message.urn,
        level: message.enforcementLevel === "advisory" ? "advisory" : "policy",
      });
  }) as ReportViolation;
  return { report, findings };
}

const configSource = (config: object) => ({
  getConfig: <T extends object>() => config as T,
  notApplicable: (reason?: string): never => {
    throw new Error(`not applicable: ${reason}`);
  },
  stackTags: new Map<string, string>(),
});

export function stackArgs(resources: PolicyResource[], config: object = {}): StackValidationArgs {
  return { resources, ...configSource(config) };
}

export function resourceArgs(
  type: string,
  name: string,
  props: Record<string, unknown>,
  config: object = {},
): ResourceValidationArgs {
  return { ...resourceSeen(type, name, props), ...configSource(config) };
}

/** Calls a resource policy as `@pulumi/policy` does; what it reported. */
export function runResourcePolicy(
  policy: ResourceValidationPolicy,
  type: string,
  name: string,
  props: Record<string, unknown>,
  config: object = {},
): Finding[] {
  const { report, findings } = recorder();
  const validate = policy.validateResource;
  if (typeof validate !== "function") throw new Error("expected a single validateResource");
  validate(resourceArgs(type, name, props, config), report);
  return findings;
}

/** Calls a stack policy as `@pulumi/policy` does; what it reported. */
export function runStackPolicy(
  policy: StackValidationPolicy,
  resources: PolicyResource[],
  config: object = {},
): Finding[] {
  const { report, findings } = recorder();
  policy.validateStack(stackArgs(resources, config), report);
  return findings;
}

// Realistic shapes -------------------------------------------------------------

let counter = 0;
/** A child uid: parent uid + "/" + 16 hex characters. */
export const childUid = (parentUid: string): string =>
  `${parentUid}/${(0xa000000000000000n + BigInt(++counter)).toString(16)}`;

/** A Group as state holds it after an update (outputs). */
export function group(name: string, parentUid: string, description = `${name} team`) {
  const uid = childUid(parentUid);
  return stackResource(IRM_TYPES.group, name, {
    uid,
    parentUid,
    name,
    description,
    verified: false,
    resourceLimits: {},
    createTime: "2026-11-21T10:00:00.000Z",
    updateTime: "2026-11-21T10:00:00.000Z",
  });
}

/** An Identity as state holds it after an update (outputs). */
export function identity(name: string, parentUid: string, issuer: string, subject: string) {
  const uid = childUid(parentUid);
  return stackResource(IRM_TYPES.identity, name, {
    uid,
    parentUid,
    name,
    description: `${name} workload`,
    claimMatch: { issuer, subject },
    createTime: "2026-11-21T10:00:00.000Z",
    updateTime: "2026-11-21T10:00:00.000Z",
  });
}

export const uidOf = (resource: PolicyResource): string => resource.props.uid as string;

/**
 * A RoleBinding after an update, as the provider records it: its uids and, for a
 * built-in role, the role's name (`""` for a custom role); no copies of the group's or
 * identity's names.
 */
export function boundBinding(
  name: string,
  on: { group: PolicyResource | { uid: string; name: string }; identity: PolicyResource },
  role: { uid: string; name: string; custom?: boolean },
) {
  const groupUid = "props" in on.group ? uidOf(on.group) : on.group.uid;
  return stackResource(IRM_TYPES.roleBinding, name, {
    uid: childUid(groupUid),
    groupUid,
    identityUid: uidOf(on.identity),
    roleUid: role.uid,
    builtInRoleName: role.custom ? "" : role.name,
    createTime: "2026-11-21T10:00:00.000Z",
  });
}
