/** Provider methods of `RoleBinding`. */
import type {
  IrmClient,
  RoleBinding,
  RoleBindingMaskPath,
  RoleBindingUpdate,
} from "../../sdk/index";
import { AlreadyExistsError, MAX_PAGE_SIZE, PermissionDeniedError } from "../../sdk/index";
import type { RoleBindingInputs, RoleBindingOutputs } from "../types";
import { checkRoleBindingInputs } from "../validation";
import type { FieldSpec, HandlerContext, ResourceHandler } from "./common";
import { objectHandler } from "./object-handler";

const UPDATABLE: ReadonlyArray<FieldSpec<RoleBindingInputs, RoleBindingOutputs>> = [
  { path: "identityUid", fromInputs: (i) => i.identityUid, fromOutputs: (o) => o.identityUid },
  { path: "roleUid", fromInputs: (i) => i.roleUid, fromOutputs: (o) => o.roleUid },
];

/**
 * Whether a role is built-in, and its name if so, per client: a role's kind never
 * changes and built-in roles can be neither renamed nor changed, so the answer stays
 * true for the life of the process and each role is asked about once.
 */
const builtInNames = new WeakMap<IrmClient, Map<string, Promise<string | undefined>>>();

/**
 * The role's name if it is a built-in role, `""` for a custom role. A custom role's
 * name can change under the binding, so it is never kept. Built-in roles are visible
 * to every caller, so a role the token may not read is a custom one. Bindings created
 * at the same time share one look-up per role; a failed or inconclusive one is not kept.
 */
function builtInRoleName(client: IrmClient, roleUid: string): Promise<string | undefined> {
  let names = builtInNames.get(client);
  if (names === undefined) {
    names = new Map();
    builtInNames.set(client, names);
  }
  const known = names.get(roleUid);
  if (known !== undefined) return known;
  const lookup = lookUpBuiltInRoleName(client, roleUid);
  names.set(roleUid, lookup);
  const forget = () => names.delete(roleUid);
  lookup.then((name) => {
    if (name === undefined) forget();
  }, forget);
  return lookup;
}

async function lookUpBuiltInRoleName(
  client: IrmClient,
  roleUid: string,
): Promise<string | undefined> {
  try {
    const role = await client.iam.roles.get(roleUid);
    return role.parentUid === "" ? role.name : "";
  } catch (error) {
    // A missing role: the binding's own request will say so; nothing to remember.
    if (client.iam.roles.isGone(error, roleUid)) return undefined;
    if (!(error instanceof PermissionDeniedError)) throw error;
    return "";
  }
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
 * the role is the same (it cannot have changed), else read (once per role and process).
 */
async function currentOutputs(
  client: IrmClient,
  binding: RoleBinding,
  previous?: RoleBindingOutputs,
): Promise<RoleBindingOutputs> {
  const roleUid = binding.role.uid;
  const kept =
    previous?.roleUid === roleUid && typeof previous.builtInRoleName === "string"
      ? previous.builtInRoleName
      : undefined;
  return roleBindingOutputs(binding, kept ?? (await builtInRoleName(client, roleUid)) ?? "");
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
    pageSize: MAX_PAGE_SIZE,
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

export function bindingHandler(
  context: HandlerContext,
): ResourceHandler<RoleBindingInputs, RoleBindingOutputs> {
  return objectHandler(context, {
    kind: "role binding",
    container: { path: "groupUid", fromInputs: (i) => i.groupUid, fromOutputs: (o) => o.groupUid },
    updatable: UPDATABLE,
    check: checkRoleBindingInputs,
    api: (client) => client.iam.roleBindings,
    outputs: (binding, previous) => currentOutputs(context.client(), binding, previous),
    // Whether the role is built-in is read before the binding is written, so a failure
    // to read it never leaves a binding made but not recorded.
    prepare: async (client, inputs) => {
      await builtInRoleName(client, inputs.roleUid);
    },
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
}
