/** Provider methods of `RoleBinding`. */
import type { IrmClient, RoleBinding, RoleBindingUpdate } from "../../sdk/index";
import { MAX_PAGE_SIZE } from "../../sdk/index";
import { BUILT_IN_ROLE_NAMES, checkRoleBindingInputs } from "../checks";
import type { RoleBindingInputs, RoleBindingOutputs } from "../shapes/index";
import { withRecordedRole } from "./checked-role";
import {
  createOrNameDuplicate,
  type FieldSpec,
  firstMatching,
  maskedFields,
  pick,
  sameField,
} from "./common";
import { objectHandler } from "./object-handler";

const UPDATABLE: ReadonlyArray<FieldSpec<RoleBindingInputs, RoleBindingOutputs>> = [
  sameField("identityUid"),
  sameField("roleUid"),
];

/**
 * The role's name if the binding's role is built in, `""` for a custom role. No custom
 * role may take a built-in name, so the binding's hydrated role (in every answer about
 * the binding) tells by its name alone: no request of its own.
 */
function builtInRoleName(binding: RoleBinding): string {
  return BUILT_IN_ROLE_NAMES.has(binding.role.name) ? binding.role.name : "";
}

/**
 * State of a role binding: only what the binding owns (its uid, its group, the
 * identity and role uids it binds, its creation time) and the name of a built-in role,
 * which cannot change. The API's hydrated copies of the group, identity and role are
 * left out: their names and descriptions change without the binding changing, and a
 * refresh would then report the binding changed.
 */
export function roleBindingOutputs(binding: RoleBinding, builtInRoleName = ""): RoleBindingOutputs {
  return {
    uid: binding.uid,
    groupUid: binding.group.uid,
    identityUid: binding.identity.uid,
    roleUid: binding.role.uid,
    builtInRoleName,
    createTime: binding.createTime,
  };
}

/**
 * The state of `binding`; the built-in role name is carried over from `previous` when
 * the role is the same (a built-in role cannot be renamed), else taken from the answer.
 */
function currentOutputs(binding: RoleBinding, previous?: RoleBindingOutputs): RoleBindingOutputs {
  const kept =
    previous?.roleUid === binding.role.uid && typeof previous.builtInRoleName === "string"
      ? previous.builtInRoleName
      : undefined;
  return roleBindingOutputs(binding, kept ?? builtInRoleName(binding));
}

function roleBindingInputsFrom(outputs: RoleBindingOutputs): RoleBindingInputs {
  return withRecordedRole(
    pick(outputs, ["groupUid", "identityUid", "roleUid"]),
    outputs,
    outputs.roleUid,
  );
}

function patchBody(inputs: RoleBindingInputs, mask: readonly string[]): RoleBindingUpdate {
  return maskedFields(inputs, mask, ["identityUid", "roleUid"]);
}

/** The binding of this identity to this role in the group, if one exists. */
function findBinding(
  client: IrmClient,
  inputs: RoleBindingInputs,
): Promise<RoleBinding | undefined> {
  // The API offers no filter on identity or role, so walk the group's bindings.
  return firstMatching(
    client.iam.roleBindings.list({ childrenOf: inputs.groupUid, pageSize: MAX_PAGE_SIZE }),
    (binding) => binding.identity.uid === inputs.identityUid && binding.role.uid === inputs.roleUid,
  );
}

/** One create; a duplicate is refused with the existing binding's uid and how to adopt it. */
function createBinding(client: IrmClient, inputs: RoleBindingInputs): Promise<RoleBinding> {
  return createOrNameDuplicate(
    `A role binding of identity ${inputs.identityUid} to role ${inputs.roleUid} in group ${inputs.groupUid}`,
    () =>
      client.iam.roleBindings.create(inputs.groupUid, {
        identityUid: inputs.identityUid,
        roleUid: inputs.roleUid,
      }),
    () => findBinding(client, inputs),
  );
}

export const roleBindingHandler = objectHandler({
  kind: "role binding",
  container: sameField<RoleBindingInputs, RoleBindingOutputs>("groupUid"),
  updatable: UPDATABLE,
  check: checkRoleBindingInputs,
  roleInput: "roleUid",
  api: (client) => client.iam.roleBindings,
  outputs: async (binding, previous) =>
    withRecordedRole(currentOutputs(binding, previous), previous, binding.role.uid),
  withWriteOnly: (outputs, inputs) => withRecordedRole(outputs, inputs, outputs.roleUid),
  inputsFrom: roleBindingInputsFrom,
  patchBody,
  create: createBinding,
  // The same identity and role in the group (the API allows one such binding).
  candidates: async (client, inputs) => {
    const existing = await findBinding(client, inputs);
    return existing ? [existing] : [];
  },
  describe: (inputs) =>
    `a role binding of identity ${inputs.identityUid} to role ${inputs.roleUid} in group ${inputs.groupUid}`,
});
