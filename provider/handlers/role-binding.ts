/** Provider methods of `RoleBinding`. */
import type {
  IrmClient,
  RoleBinding,
  RoleBindingMaskPath,
  RoleBindingUpdate,
} from "../../sdk/index";
import { AlreadyExistsError } from "../../sdk/index";
import type { RoleBindingInputs, RoleBindingOutputs } from "../types";
import { checkRoleBindingInputs, parentOf } from "../validation";
import type { FieldSpec, HandlerContext, ResourceHandler } from "./common";
import { objectHandler } from "./object-handler";

const UPDATABLE: ReadonlyArray<FieldSpec<RoleBindingInputs, RoleBindingOutputs>> = [
  { path: "identityUid", fromInputs: (i) => i.identityUid, fromOutputs: (o) => o.identityUid },
  { path: "roleUid", fromInputs: (i) => i.roleUid, fromOutputs: (o) => o.roleUid },
];

/** State of a role binding: the API's hydrated objects, plus the uids they were declared with. */
export function roleBindingOutputs(binding: RoleBinding): RoleBindingOutputs {
  return {
    uid: binding.uid,
    groupUid: binding.group?.uid ?? parentOf(binding.uid) ?? "",
    identityUid: binding.identity.uid,
    roleUid: binding.role.uid,
    identity: binding.identity,
    group: binding.group,
    role: binding.role,
    createTime: binding.createTime,
  };
}

function roleBindingInputsFrom(outputs: RoleBindingOutputs): RoleBindingInputs {
  return {
    groupUid: outputs.groupUid,
    identityUid: outputs.identityUid,
    roleUid: outputs.roleUid,
  };
}

function patchBody(
  inputs: RoleBindingInputs,
  mask: readonly RoleBindingMaskPath[],
): RoleBindingUpdate {
  const body: RoleBindingUpdate = {};
  if (mask.includes("identityUid")) body.identityUid = inputs.identityUid;
  if (mask.includes("roleUid")) body.roleUid = inputs.roleUid;
  return body;
}

/** The binding of this identity to this role in the group, if one exists. */
async function findBinding(
  client: IrmClient,
  inputs: RoleBindingInputs,
): Promise<RoleBinding | undefined> {
  // The API offers no filter on identity or role, so walk the group's bindings.
  for await (const binding of client.iam.roleBindings.list({
    childrenOf: inputs.groupUid,
    pageSize: 200,
  })) {
    if (binding.identity.uid === inputs.identityUid && binding.role.uid === inputs.roleUid) {
      return binding;
    }
  }
  return undefined;
}

/** One create; a duplicate is refused with the existing binding's uid and how to adopt it. */
async function createBinding(client: IrmClient, inputs: RoleBindingInputs): Promise<RoleBinding> {
  try {
    return await client.iam.roleBindings.create(inputs.groupUid, {
      identityUid: inputs.identityUid,
      roleUid: inputs.roleUid,
    });
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    // Not ours to take silently: it may belong to another stack. Say how to adopt it.
    const existing = await findBinding(client, inputs);
    const which = existing ? ` as ${existing.uid}` : "";
    throw new Error(
      `A role binding of identity ${inputs.identityUid} to role ${inputs.roleUid} in group ` +
        `${inputs.groupUid} already exists${which}. To manage it from this stack, set ` +
        `adoptUid${existing ? ` to ${existing.uid}` : ""}; otherwise remove the duplicate declaration.`,
    );
  }
}

export function roleBindingHandler(
  context: HandlerContext,
): ResourceHandler<RoleBindingInputs, RoleBindingOutputs> {
  return objectHandler(context, {
    kind: "role binding",
    container: { path: "groupUid", fromInputs: (i) => i.groupUid, fromOutputs: (o) => o.groupUid },
    updatable: UPDATABLE,
    check: checkRoleBindingInputs,
    api: (client) => client.iam.roleBindings,
    outputs: roleBindingOutputs,
    inputsFrom: roleBindingInputsFrom,
    patchBody,
    create: createBinding,
    // The same identity and role in the group (the API allows one such binding).
    candidates: async (client, inputs) => {
      const existing = await findBinding(client, inputs);
      return existing ? [existing] : [];
    },
  });
}
