/** Provider methods of `RoleBinding`. */
import type { RoleBinding, RoleBindingMaskPath, RoleBindingUpdate } from "../../sdk/index";
import { AlreadyExistsError, OutcomeUnknownError } from "../../sdk/index";
import type { RoleBindingInputs, RoleBindingOutputs } from "../types";
import { checkRoleBindingInputs, parentOf } from "../validation";
import {
  changedPaths,
  createdSince,
  deleteWaitingForChildren,
  diffFields,
  type FieldSpec,
  findAfterUnknownOutcome,
  getOrUndefined,
  type HandlerContext,
  type ResourceHandler,
} from "./common";

const REPLACING: ReadonlyArray<FieldSpec<RoleBindingInputs, RoleBindingOutputs>> = [
  { path: "groupUid", fromInputs: (i) => i.groupUid, fromOutputs: (o) => o.groupUid },
];

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

function patchBody(inputs: RoleBindingInputs, mask: readonly string[]): RoleBindingUpdate {
  const body: RoleBindingUpdate = {};
  if (mask.includes("identityUid")) body.identityUid = inputs.identityUid;
  if (mask.includes("roleUid")) body.roleUid = inputs.roleUid;
  return body;
}

export function roleBindingHandler(
  context: HandlerContext,
): ResourceHandler<RoleBindingInputs, RoleBindingOutputs> {
  const bindings = () => context.client().iam.roleBindings;

  async function patchDifferences(current: RoleBindingOutputs, inputs: RoleBindingInputs) {
    const mask = changedPaths(UPDATABLE, current, inputs) as RoleBindingMaskPath[];
    if (mask.length === 0) return current;
    const updated = await bindings().update(current.uid, patchBody(inputs, mask), {
      updateMask: mask,
    });
    return roleBindingOutputs(updated);
  }

  /** The binding of this identity to this role in the group, if one exists. */
  async function findBinding(inputs: RoleBindingInputs): Promise<RoleBinding | undefined> {
    // The API offers no filter on identity or role, so walk the group's bindings.
    for await (const binding of bindings().list({ childrenOf: inputs.groupUid, pageSize: 200 })) {
      if (binding.identity.uid === inputs.identityUid && binding.role.uid === inputs.roleUid) {
        return binding;
      }
    }
    return undefined;
  }

  async function adopt(inputs: RoleBindingInputs, uid: string) {
    const existing = await getOrUndefined(() => bindings().get(uid));
    if (existing === undefined) {
      throw new Error(
        `adoptUid: no role binding ${uid} exists (or it is not visible to this token)`,
      );
    }
    const current = roleBindingOutputs(existing);
    if (current.groupUid !== inputs.groupUid) {
      throw new Error(
        `adoptUid: role binding ${uid} belongs to group ${current.groupUid}, not to groupUid ${inputs.groupUid}`,
      );
    }
    const outs = await patchDifferences(current, inputs);
    return { id: outs.uid, outs };
  }

  async function createOnce(inputs: RoleBindingInputs): Promise<RoleBinding> {
    try {
      return await bindings().create(inputs.groupUid, {
        identityUid: inputs.identityUid,
        roleUid: inputs.roleUid,
      });
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
      // Not ours to take silently: it may belong to another stack. Say how to adopt it.
      const existing = await findBinding(inputs);
      const which = existing ? ` as ${existing.uid}` : "";
      throw new Error(
        `A role binding of identity ${inputs.identityUid} to role ${inputs.roleUid} in group ` +
          `${inputs.groupUid} already exists${which}. To manage it from this stack, set ` +
          `adoptUid${existing ? ` to ${existing.uid}` : ""}; otherwise remove the duplicate declaration.`,
      );
    }
  }

  return {
    async check(_olds, news) {
      return checkRoleBindingInputs(news);
    },

    async diff(_id, olds, news) {
      return diffFields(REPLACING, UPDATABLE, olds, news);
    },

    async create(inputs) {
      if (inputs.adoptUid) return adopt(inputs, inputs.adoptUid);
      let created: RoleBinding;
      const attemptStartedAt = Date.now();
      try {
        created = await createOnce(inputs);
      } catch (error) {
        if (!(error instanceof OutcomeUnknownError)) throw error;
        // A binding that existed before this attempt is not ours: the repeated create
        // then fails with ALREADY_EXISTS and says how to adopt it.
        const found = await findAfterUnknownOutcome(context, error, async () => {
          const existing = await findBinding(inputs);
          return existing && createdSince([existing], attemptStartedAt);
        });
        if (found !== undefined) {
          const outs = roleBindingOutputs(found);
          return { id: outs.uid, outs };
        }
        created = await createOnce(inputs);
      }
      const outs = roleBindingOutputs(created);
      return { id: outs.uid, outs };
    },

    async read(id) {
      const binding = await getOrUndefined(() => bindings().get(id));
      if (binding === undefined) return { id: "" };
      const outs = roleBindingOutputs(binding);
      return { id: outs.uid, props: outs, inputs: roleBindingInputsFrom(outs) };
    },

    async update(id, olds, news) {
      const mask = changedPaths(UPDATABLE, olds, news) as RoleBindingMaskPath[];
      if (mask.length === 0) {
        return { outs: roleBindingOutputs(await bindings().get(id)) };
      }
      const updated = await bindings().update(id, patchBody(news, mask), { updateMask: mask });
      return { outs: roleBindingOutputs(updated) };
    },

    async delete(id) {
      await deleteWaitingForChildren(context, { kind: "role binding", uid: id }, () =>
        bindings().delete(id),
      );
    },
  };
}
