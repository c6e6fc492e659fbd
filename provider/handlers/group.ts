/** Provider methods of `Group`. */
import type { Group, GroupUpdate, IrmClient } from "../../sdk/index";
import { checkGroupInputs, parentOf } from "../checks";
import type { GroupInputs, GroupOutputs } from "../types";
import { type FieldSpec, maskedFields, namedOutputs, pick, sameField } from "./common";
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

/** How many of each kind a refused delete names. */
const NAMED_CONTENTS = 10;

/**
 * What the API shows directly inside a group, named with uids: child groups,
 * identities, repositories, custom roles and identity providers (one small list each).
 */
async function groupContents(client: IrmClient, uid: string): Promise<string[]> {
  const params = { childrenOf: uid, pageSize: NAMED_CONTENTS };
  type Named = { uid: string; name: string };
  // A listing the token may not make names nothing; the API's own refusal still stands.
  const items = (page: PromiseLike<{ items: Named[] }>) =>
    Promise.resolve(page).then(
      (p) => p.items,
      () => [] as Named[],
    );
  const kinds: Array<[string, Promise<Named[]>]> = [
    ["group", items(client.iam.groups.list(params))],
    ["identity", items(client.iam.identities.list(params))],
    ["repo", items(client.registry.repos.list(params))],
    ["custom role", items(client.iam.roles.list(params))],
    ["identity provider", items(client.iam.identityProviders.list(params))],
  ];
  const named: string[] = [];
  for (const [kind, listed] of kinds) {
    for (const item of await listed)
      named.push(`${kind} ${JSON.stringify(item.name)} (${item.uid})`);
  }
  return named;
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
