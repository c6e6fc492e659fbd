/** Provider methods of `Group`. */
import type { Group, GroupUpdate, IrmClient } from "../../sdk/index";
import { checkGroupInputs, parentOf } from "../checks";
import type { GroupInputs, GroupOutputs } from "../shapes/index";
import {
  describeBinding,
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

/**
 * What the API shows directly inside a group, named with uids: child groups,
 * identities, repositories, custom roles, identity providers, role bindings and group
 * invites (one small list each), and the group's own account association: every kind
 * that makes the API refuse the delete as not empty.
 */
async function groupContents(client: IrmClient, uid: string): Promise<string[]> {
  const params = { childrenOf: uid, pageSize: NAMED_BLOCKERS };
  const lists = await Promise.all([
    describedOrNone(client.iam.groups.list(params), describeNamed("group")),
    describedOrNone(client.iam.identities.list(params), describeNamed("identity")),
    describedOrNone(client.registry.repos.list(params), describeNamed("repo")),
    describedOrNone(client.iam.roles.list(params), describeNamed("custom role")),
    describedOrNone(client.iam.identityProviders.list(params), describeNamed("identity provider")),
    describedOrNone(client.iam.roleBindings.list(params), (binding) =>
      describeBinding(binding, false),
    ),
    describedOrNone(client.iam.groupInvites.list(params), (invite) =>
      invite.role
        ? `group invite for role ${JSON.stringify(invite.role.name)} (${invite.uid})`
        : `group invite (${invite.uid})`,
    ),
    // The association hangs on the group's own uid: a get, NOT_FOUND when there is none.
    describedOrNone(
      client.iam.accountAssociations.get(uid).then((association) => ({ items: [association] })),
      (association) => `its account association ${JSON.stringify(association.name)}`,
    ),
  ]);
  return lists.flat();
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
