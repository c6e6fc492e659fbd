/** Provider methods of `Group`. */
import type { Group, GroupUpdate, IrmClient } from "../../sdk/index";
import { checkGroupInputs, parentOf } from "../checks";
import type { GroupInputs, GroupOutputs } from "../types";
import {
  describeBinding,
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
  // A listing the token may not make names nothing; the API's own refusal still stands.
  const described = <T>(page: PromiseLike<{ items: T[] }>, describe: (item: T) => string) =>
    Promise.resolve(page).then(
      (p) => p.items.map(describe),
      () => [] as string[],
    );
  const named = (kind: string) => (item: { uid: string; name: string }) =>
    `${kind} ${JSON.stringify(item.name)} (${item.uid})`;
  const lists: Array<Promise<string[]>> = [
    described(client.iam.groups.list(params), named("group")),
    described(client.iam.identities.list(params), named("identity")),
    described(client.registry.repos.list(params), named("repo")),
    described(client.iam.roles.list(params), named("custom role")),
    described(client.iam.identityProviders.list(params), named("identity provider")),
    described(client.iam.roleBindings.list(params), (binding) => describeBinding(binding, false)),
    described(client.iam.groupInvites.list(params), (invite) =>
      invite.role
        ? `group invite for role ${JSON.stringify(invite.role.name)} (${invite.uid})`
        : `group invite (${invite.uid})`,
    ),
    // The association hangs on the group's own uid: a get, which NOT_FOUND answers when
    // there is none.
    client.iam.accountAssociations.get(uid).then(
      (association) => [`its account association ${JSON.stringify(association.name)}`],
      () => [],
    ),
  ];
  return (await Promise.all(lists)).flat();
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
