/**
 * What a group holds directly, described for a user: the API refuses a group's delete
 * while it holds anything, and the refusal names what is in the way. One small list
 * per resource type whose table says it blocks the delete (`blocksGroupDelete`).
 */
import type { IrmClient } from "../../sdk/index";
import type { PROVIDER_SHAPES, ShapeTypeName } from "../shapes/index";
import { describeBinding, describedOrNone, describeNamed, NAMED_BLOCKERS } from "./common";

/** The resource types whose objects in a group make the API refuse its delete. */
type BlockingType = {
  [K in ShapeTypeName]: (typeof PROVIDER_SHAPES)[K] extends { blocksGroupDelete: true } ? K : never;
}[ShapeTypeName];

/** Lists one type's objects directly in a group, each described for a user. */
type ContentsLister = (client: IrmClient, uid: string) => Promise<string[]>;

/** The list parameters of one small list of what is directly in group `uid`. */
const inside = (uid: string) => ({ childrenOf: uid, pageSize: NAMED_BLOCKERS });

/**
 * What the API shows directly inside a group, named with uids, one small list per type
 * whose table says it blocks the group's delete (`blocksGroupDelete`; the compiler
 * holds this record to exactly those), in the order a refusal names them.
 */
const GROUP_CONTENTS: { readonly [K in BlockingType]: ContentsLister } = {
  Group: (client, uid) =>
    describedOrNone(client.iam.groups.list(inside(uid)), describeNamed("group")),
  Identity: (client, uid) =>
    describedOrNone(client.iam.identities.list(inside(uid)), describeNamed("identity")),
  Repo: (client, uid) =>
    describedOrNone(client.registry.repos.list(inside(uid)), describeNamed("repo")),
  Role: (client, uid) =>
    describedOrNone(client.iam.roles.list(inside(uid)), describeNamed("custom role")),
  IdentityProvider: (client, uid) =>
    describedOrNone(
      client.iam.identityProviders.list(inside(uid)),
      describeNamed("identity provider"),
    ),
  RoleBinding: (client, uid) =>
    describedOrNone(client.iam.roleBindings.list(inside(uid)), (binding) =>
      describeBinding(binding, false),
    ),
  GroupInvite: (client, uid) =>
    describedOrNone(client.iam.groupInvites.list(inside(uid)), (invite) =>
      invite.role
        ? `group invite for role ${JSON.stringify(invite.role.name)} (${invite.uid})`
        : `group invite (${invite.uid})`,
    ),
  Subscription: (client, uid) =>
    describedOrNone(
      client.events.subscriptions.list(inside(uid)),
      (subscription) => `event subscription to ${subscription.sink} (${subscription.uid})`,
    ),
  // The association hangs on the group's own uid: a get, NOT_FOUND when there is none.
  AccountAssociation: (client, uid) =>
    describedOrNone(
      client.iam.accountAssociations.get(uid).then((association) => ({ items: [association] })),
      (association) => `its account association ${JSON.stringify(association.name)}`,
    ),
};

/** Everything directly in group `uid`, each described for a user (empty: nothing). */
export async function groupContents(client: IrmClient, uid: string): Promise<string[]> {
  const lists = await Promise.all(
    Object.values(GROUP_CONTENTS).map((contents: ContentsLister) => contents(client, uid)),
  );
  return lists.flat();
}
