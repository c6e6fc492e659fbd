/** Provider methods of `Role`: a custom role of a group. */
import {
  capabilitiesInEnumNames,
  isCapability,
  legacyCapability,
  type Role,
  type RoleUpdate,
  roleGroupUid,
} from "../../sdk/index";
import {
  Checker,
  GROUP_SHAPE,
  GROUP_UID_PATTERN,
  givenAdoptUid,
  isUnknown,
  quoted,
  ROLE_SHAPE,
  ROLE_UID_PATTERN,
  withAdoptUid,
} from "../input-checks";
import {
  type FieldSpec,
  type HandlerContext,
  maskedFields,
  pick,
  type ResourceHandler,
  sameField,
} from "./common";
import { objectHandler } from "./object-handler";

/** Inputs of a Role after `check`. */
export interface RoleInputs {
  parentUid: string;
  name: string;
  description: string;
  /** Enum value names (`CAP_REPO_LIST`), sorted, without duplicates: the set the role grants. */
  capabilities: string[];
  /** Uid of an existing custom role of `parentUid` to manage instead of creating one. */
  adoptUid?: string;
}

/** Outputs of a Role, as stored in state: its inputs and what the API adds. */
export interface RoleOutputs extends Omit<RoleInputs, "adoptUid"> {
  uid: string;
  createTime: string;
  updateTime: string;
}

/**
 * Names of the built-in roles, which a custom role may not take (so a role binding's
 * hydrated role tells by its name alone whether it is built in).
 */
export const BUILT_IN_ROLE_NAMES: ReadonlySet<string> = new Set([
  "owner",
  "editor",
  "viewer",
  "registry.pull",
]);

/** The set as the API stores it: sorted, each once. */
export function capabilitySet(capabilities: readonly string[]): string[] {
  return [...new Set(capabilities)].sort();
}

/**
 * Why `name` is not a capability, naming what to write instead: the replacement of a
 * former project name (`groups.create` -> `CAP_IAM_GROUPS_CREATE`), or the LIST value
 * a former `*.get` stood for; undefined for an enum value name.
 */
export function capabilityProblem(name: string): string | undefined {
  if (isCapability(name)) return undefined;
  const legacy = legacyCapability(name);
  if (legacy?.kind === "renamed") {
    return `${JSON.stringify(name)} is a former name: write ${legacy.replacement} (capabilities are the API's enum value names)`;
  }
  if (legacy?.kind === "get") {
    return `${JSON.stringify(name)} is a former name with no replacement: there is no GET capability, a Get needs the LIST capability ${legacy.list}`;
  }
  return `unknown capability ${quoted(name)}: must be a value name of the API's Capability enum, such as CAP_IAM_GROUPS_CREATE or CAP_REPO_LIST (see CAPABILITIES in pulumi-irm/sdk)`;
}

export function checkRoleInputs(news: Record<string, unknown>) {
  const checker = new Checker();
  const parentUid = checker.uid("parentUid", news.parentUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const name = checker.name("name", news.name);
  if (name !== undefined && BUILT_IN_ROLE_NAMES.has(name)) {
    checker.fail("name", `is the name of a built-in role (${[...BUILT_IN_ROLE_NAMES].join(", ")})`);
  }
  const description = checker.description("description", news.description);
  const listed = checker.stringArray("capabilities", news.capabilities);
  if (
    (news.capabilities === undefined || news.capabilities === null || listed.length === 0) &&
    checker.failures.every((f) => f.property !== "capabilities")
  ) {
    checker.fail("capabilities", "at least one capability is required");
  }
  listed.forEach((capability, index) => {
    if (isUnknown(capability)) return;
    const problem = capabilityProblem(capability);
    if (problem !== undefined) checker.fail(`capabilities[${index}]`, problem);
  });
  const adoptUid = givenAdoptUid(news.adoptUid);
  const adopt =
    adoptUid === undefined
      ? undefined
      : checker.uid("adoptUid", adoptUid, ROLE_UID_PATTERN, ROLE_SHAPE);
  const inputs = withAdoptUid<RoleInputs>(
    {
      parentUid: parentUid ?? "",
      name: name ?? "",
      description,
      capabilities: capabilitySet(listed),
    },
    adopt,
  );
  return { inputs, failures: checker.failures };
}

const UPDATABLE: ReadonlyArray<FieldSpec<RoleInputs, RoleOutputs>> = [
  sameField("name"),
  sameField("description"),
  // Compared as sets: order and duplicates never make a change. State written before
  // capabilities were enum names holds former names (`groups.create`): read in enum
  // names, the same set is no change (the next refresh or update stores the new names).
  {
    path: "capabilities",
    fromInputs: (i) => capabilitiesInEnumNames(i.capabilities ?? []).join(","),
    fromOutputs: (o) => capabilitiesInEnumNames(o.capabilities ?? []).join(","),
  },
];

/**
 * State of a custom role as the API returns it. Its group is the parent of its uid;
 * for a flat uid (a built-in role, or a custom role made before roles were children
 * of their group) the group of the state it replaces, or `""`.
 */
export function roleOutputs(role: Role, previous?: RoleOutputs): RoleOutputs {
  return {
    uid: role.uid,
    parentUid: roleGroupUid(role.uid) ?? previous?.parentUid ?? "",
    name: role.name,
    description: role.description ?? "",
    capabilities: capabilitySet(role.capabilities),
    createTime: role.createTime,
    updateTime: role.updateTime,
  };
}

function roleInputsFrom(outputs: RoleOutputs): RoleInputs {
  return pick(outputs, ["parentUid", "name", "description", "capabilities"]);
}

function patchBody(inputs: RoleInputs, mask: readonly string[]): RoleUpdate {
  const body: RoleUpdate = maskedFields(inputs, mask, ["name", "description"]);
  if (mask.includes("capabilities")) body.capabilities = capabilitySet(inputs.capabilities);
  return body;
}

export function roleHandler(context: HandlerContext): ResourceHandler<RoleInputs, RoleOutputs> {
  return objectHandler(context, {
    kind: "role",
    container: {
      path: "parentUid",
      fromInputs: (i) => i.parentUid,
      // A built-in role has no group: say so where an adoption names where a role sits.
      fromOutputs: (o) => o.parentUid || "no group (it is a built-in role)",
    },
    updatable: UPDATABLE,
    check: checkRoleInputs,
    api: (client) => client.iam.roles,
    outputs: roleOutputs,
    inputsFrom: roleInputsFrom,
    patchBody,
    create: (client, inputs) =>
      client.iam.roles.create(inputs.parentUid, {
        name: inputs.name,
        description: inputs.description,
        capabilities: capabilitySet(inputs.capabilities),
      }),
    // By name among the group's own custom roles.
    candidates: async (client, inputs) =>
      (
        await client.iam.roles.list({
          childrenOf: inputs.parentUid,
          name: inputs.name,
          pageSize: 200,
        })
      ).items,
    nameOf: (outputs) => outputs?.name,
    describe: (inputs) => `role ${JSON.stringify(inputs.name)} of group ${inputs.parentUid}`,
    inUseRemedy:
      "Remove the role bindings that use this role and change the defaultRole of the " +
      "identity providers that name it, from this program or out of band if this stack " +
      "does not manage them (group invites never block it)",
  });
}
