/** Provider methods of `Group`. */
import type { Group, GroupMaskPath, GroupUpdate } from "../../sdk/index";
import { OutcomeUnknownError } from "../../sdk/index";
import type { GroupInputs, GroupOutputs } from "../types";
import { checkGroupInputs, parentOf } from "../validation";
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

const REPLACING: ReadonlyArray<FieldSpec<GroupInputs, GroupOutputs>> = [
  { path: "parentUid", fromInputs: (i) => i.parentUid, fromOutputs: (o) => o.parentUid },
];

const UPDATABLE: ReadonlyArray<FieldSpec<GroupInputs, GroupOutputs>> = [
  { path: "name", fromInputs: (i) => i.name, fromOutputs: (o) => o.name },
  { path: "description", fromInputs: (i) => i.description, fromOutputs: (o) => o.description },
];

/** State of a group as the API returns it. */
export function groupOutputs(group: Group): GroupOutputs {
  return {
    uid: group.uid,
    parentUid: parentOf(group.uid) ?? "",
    name: group.name,
    description: group.description ?? "",
    verified: group.verified ?? false,
    resourceLimits: group.resourceLimits ?? {},
    createTime: group.createTime,
    updateTime: group.updateTime,
  };
}

function groupInputsFrom(outputs: GroupOutputs): GroupInputs {
  return { parentUid: outputs.parentUid, name: outputs.name, description: outputs.description };
}

function patchBody(inputs: GroupInputs, mask: readonly string[]): GroupUpdate {
  const body: GroupUpdate = {};
  if (mask.includes("name")) body.name = inputs.name;
  if (mask.includes("description")) body.description = inputs.description;
  return body;
}

export function groupHandler(context: HandlerContext): ResourceHandler<GroupInputs, GroupOutputs> {
  const groups = () => context.client().iam.groups;

  /** One PATCH with exactly the fields that differ; no request when nothing does. */
  async function patchDifferences(current: GroupOutputs, inputs: GroupInputs) {
    const mask = changedPaths(UPDATABLE, current, inputs) as GroupMaskPath[];
    if (mask.length === 0) return current;
    const updated = await groups().update(current.uid, patchBody(inputs, mask), {
      updateMask: mask,
    });
    return groupOutputs(updated);
  }

  async function adopt(inputs: GroupInputs, uid: string) {
    const existing = await getOrUndefined(() => groups().get(uid));
    if (existing === undefined) {
      throw new Error(`adoptUid: no group ${uid} exists (or it is not visible to this token)`);
    }
    const current = groupOutputs(existing);
    if (current.parentUid !== inputs.parentUid) {
      throw new Error(
        `adoptUid: group ${uid} sits under ${current.parentUid}, not under parentUid ${inputs.parentUid}`,
      );
    }
    const outs = await patchDifferences(current, inputs);
    return { id: outs.uid, outs };
  }

  /** After an unknown outcome: the group we may have created, by name under the parent. */
  async function findCreated(
    inputs: GroupInputs,
    attemptStartedAt: number,
  ): Promise<Group | undefined> {
    const page = await groups().list({
      childrenOf: inputs.parentUid,
      name: inputs.name,
      pageSize: 200,
    });
    return createdSince(page.items, attemptStartedAt);
  }

  return {
    async check(_olds, news) {
      return checkGroupInputs(news);
    },

    async diff(_id, olds, news) {
      return diffFields(REPLACING, UPDATABLE, olds, news);
    },

    async create(inputs) {
      if (inputs.adoptUid) return adopt(inputs, inputs.adoptUid);
      const body = { name: inputs.name, description: inputs.description };
      let created: Group;
      const attemptStartedAt = Date.now();
      try {
        created = await groups().create(inputs.parentUid, body);
      } catch (error) {
        if (!(error instanceof OutcomeUnknownError)) throw error;
        const found = await findAfterUnknownOutcome(context, error, () =>
          findCreated(inputs, attemptStartedAt),
        );
        if (found !== undefined) {
          const outs = await patchDifferences(groupOutputs(found), inputs);
          return { id: outs.uid, outs };
        }
        created = await groups().create(inputs.parentUid, body);
      }
      const outs = groupOutputs(created);
      return { id: outs.uid, outs };
    },

    async read(id) {
      const group = await getOrUndefined(() => groups().get(id));
      if (group === undefined) return { id: "" };
      const outs = groupOutputs(group);
      return { id: outs.uid, props: outs, inputs: groupInputsFrom(outs) };
    },

    async update(id, olds, news) {
      const mask = changedPaths(UPDATABLE, olds, news) as GroupMaskPath[];
      if (mask.length === 0) {
        const current = await groups().get(id);
        return { outs: groupOutputs(current) };
      }
      const updated = await groups().update(id, patchBody(news, mask), { updateMask: mask });
      return { outs: groupOutputs(updated) };
    },

    async delete(id, props) {
      await deleteWaitingForChildren(context, { kind: "group", uid: id, name: props?.name }, () =>
        groups().delete(id),
      );
    },
  };
}
