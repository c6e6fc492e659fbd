/** Provider methods of `Group`. */
import { type Group, type GroupUpdate, MAX_PAGE_SIZE } from "../../sdk/index";
import type { GroupInputs, GroupOutputs } from "../types";
import { checkGroupInputs, parentOf } from "../validation";
import {
  type FieldSpec,
  type HandlerContext,
  maskedFields,
  pick,
  type ResourceHandler,
  sameField,
} from "./common";
import { objectHandler } from "./object-handler";

const UPDATABLE: ReadonlyArray<FieldSpec<GroupInputs, GroupOutputs>> = [
  sameField("name"),
  sameField("description"),
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
  return pick(outputs, ["parentUid", "name", "description"]);
}

function patchBody(inputs: GroupInputs, mask: readonly string[]): GroupUpdate {
  return maskedFields(inputs, mask, ["name", "description"]);
}

export function groupHandler(context: HandlerContext): ResourceHandler<GroupInputs, GroupOutputs> {
  return objectHandler(context, {
    kind: "group",
    container: sameField("parentUid"),
    updatable: UPDATABLE,
    check: checkGroupInputs,
    api: (client) => client.iam.groups,
    outputs: groupOutputs,
    inputsFrom: groupInputsFrom,
    patchBody,
    create: (client, inputs) =>
      client.iam.groups.create(inputs.parentUid, {
        name: inputs.name,
        description: inputs.description,
      }),
    // By name among the parent's children.
    candidates: async (client, inputs) =>
      (
        await client.iam.groups.list({
          childrenOf: inputs.parentUid,
          name: inputs.name,
          pageSize: MAX_PAGE_SIZE,
        })
      ).items,
    nameOf: (outputs) => outputs?.name,
    describe: (inputs) => `group ${JSON.stringify(inputs.name)} under ${inputs.parentUid}`,
  });
}
