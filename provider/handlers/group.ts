/** Provider methods of `Group`. */
import type { Group, GroupUpdate } from "../../sdk/index";
import { checkGroupInputs, parentOf } from "../checks";
import type { GroupInputs, GroupOutputs } from "../shapes/index";
import { type FieldSpec, maskedFields, namedOutputs, pick, sameField } from "./common";
import { groupContents } from "./group-contents";
import { namedObjectHandler } from "./object-handler";

const UPDATABLE: ReadonlyArray<FieldSpec<GroupInputs, GroupOutputs>> = [
  sameField("name"),
  sameField("description"),
];

/** State of a group as the API returns it. */
export function groupOutputs(group: Group): GroupOutputs {
  return {
    ...namedOutputs(group),
    parentUid: parentOf(group.uid) ?? "",
    verified: group.verified ?? false,
    resourceLimits: group.resourceLimits ?? {},
  };
}

function groupInputsFrom(outputs: GroupOutputs): GroupInputs {
  return pick(outputs, ["parentUid", "name", "description"]);
}

function patchBody(inputs: GroupInputs, mask: readonly string[]): GroupUpdate {
  return maskedFields(inputs, mask, ["name", "description"]);
}

export const groupHandler = namedObjectHandler((client) => client.iam.groups, {
  kind: "group",
  updatable: UPDATABLE,
  check: checkGroupInputs,
  outputs: groupOutputs,
  inputsFrom: groupInputsFrom,
  patchBody,
  create: (client, inputs) =>
    client.iam.groups.create(inputs.parentUid, {
      name: inputs.name,
      description: inputs.description,
    }),
  describe: (inputs) => `group ${JSON.stringify(inputs.name)} under ${inputs.parentUid}`,
  contents: groupContents,
});
