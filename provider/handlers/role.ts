/** Provider methods of `Role`: a custom role of a group. */
import {
  capabilitiesInEnumNames,
  MAX_PAGE_SIZE,
  type Role,
  type RoleUpdate,
  roleGroupUid,
} from "../../sdk/index";
import { capabilitySet, checkRoleInputs } from "../checks";
import type { RoleInputs, RoleOutputs } from "../shapes/index";
import { rememberRole } from "./checked-role";
import {
  bindingsReferring,
  describedOrNone,
  describeNamed,
  type FieldSpec,
  maskedFields,
  NAMED_BLOCKERS,
  namedOutputs,
  pick,
  sameField,
} from "./common";
import { namedObjectHandler } from "./object-handler";

export type { RoleInputs, RoleOutputs } from "../shapes/index";

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
    ...namedOutputs(role),
    parentUid: roleGroupUid(role.uid) ?? previous?.parentUid ?? "",
    capabilities: capabilitySet(role.capabilities),
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

export const roleHandler = namedObjectHandler((client) => client.iam.roles, {
  kind: "role",
  container: {
    path: "parentUid",
    fromInputs: (i) => i.parentUid,
    // A built-in role has no group: say so where an adoption names where a role sits.
    fromOutputs: (o) => o.parentUid || "no group (it is a built-in role)",
  },
  updatable: UPDATABLE,
  check: checkRoleInputs,
  outputs: roleOutputs,
  inputsFrom: roleInputsFrom,
  patchBody,
  create: async (client, inputs) => {
    const role = await client.iam.roles.create(inputs.parentUid, {
      name: inputs.name,
      description: inputs.description,
      capabilities: capabilitySet(inputs.capabilities),
    });
    rememberRole(client, role);
    return role;
  },
  describe: (inputs) => `role ${JSON.stringify(inputs.name)} of group ${inputs.parentUid}`,
  usedBy: async (client, uid) => {
    // A custom role serves its group and the groups below it: the identity providers
    // that may name it as defaultRole are there.
    const group = roleGroupUid(uid) ?? uid;
    const [bindings, providers] = await Promise.all([
      bindingsReferring(client, { role: uid }),
      describedOrNone(
        client.iam.identityProviders
          .list({ descendantsOf: group, pageSize: MAX_PAGE_SIZE })
          .then((page) => ({
            items: page.items.filter((p) => p.defaultRole === uid).slice(0, NAMED_BLOCKERS),
          })),
        describeNamed("identity provider"),
      ),
    ]);
    return [...bindings, ...providers];
  },
  inUseRemedy:
    "Remove the role bindings that use this role and change the defaultRole of the " +
    "identity providers that name it, from this program or out of band if this stack " +
    "does not manage them (group invites never block it)",
});
