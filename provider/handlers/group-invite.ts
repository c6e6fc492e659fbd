/**
 * Provider methods of `GroupInvite`. An invite never changes (the API has no update),
 * so any change of input replaces it; and its code is answered once, by the create,
 * so the code is taken from that answer and carried over by every refresh. There is no
 * adoption: an adopted invite's code could never be read.
 */
import type { CreatedGroupInvite, GroupInvite, IrmClient, ServerTimeBounds } from "../../sdk/index";
import { OutcomeUnknownError } from "../../sdk/index";
import { canonicalDuration, checkGroupInviteInputs, isUnknown, parentOf } from "../checks";
import type { GroupInviteInputs, GroupInviteOutputs } from "../shapes/index";
import type { FieldSpec, HandlerContext, ResourceHandler } from "./common";
import {
  countedInFlight,
  deleteWaitingForChildren,
  diffFields,
  findAfterUnknownOutcome,
  getOrUndefined,
  inFlight,
  isOwned,
  noteOwned,
  pick,
  readObject,
  sameField,
  withoutUndefined,
} from "./common";

export type { GroupInviteInputs, GroupInviteOutputs } from "../shapes/index";

type Field = FieldSpec<GroupInviteInputs, GroupInviteOutputs>;
/** Every input: the API cannot change an invite, so each one replaces it. */
const REPLACING: readonly Field[] = [
  sameField("groupUid"),
  sameField("roleUid"),
  sameField("ttl"),
  sameField("email"),
  {
    path: "singleUse",
    // An unknown value (preview) is kept as its marker, so it shows as a change.
    fromInputs: (i) =>
      isUnknown(i.singleUse) ? String(i.singleUse) : String(i.singleUse === true),
    fromOutputs: (o) => String(o.singleUse === true),
  },
];

/** The lifetime an invite was made with, from its times (for state that has none). */
function ttlFromTimes(invite: GroupInvite): string {
  const ms = Date.parse(invite.expirationTime) - Date.parse(invite.createTime);
  const [whole, fraction] = (Math.max(ms, 0) / 1000).toFixed(3).split(".");
  return canonicalDuration(whole, fraction);
}

/**
 * State of an invite from the API's answer, with what the API never answers taken from
 * `previous`: the `code` (answered by the create only; the create passes it here) and
 * the `ttl` (else derived from the times, for state that has none).
 */
export function groupInviteOutputs(
  invite: GroupInvite,
  previous?: Partial<GroupInviteOutputs>,
): GroupInviteOutputs {
  const code = typeof previous?.code === "string" ? previous.code : "";
  const ttl =
    typeof previous?.ttl === "string" && previous.ttl !== "" ? previous.ttl : ttlFromTimes(invite);
  return withoutUndefined({
    uid: invite.uid,
    groupUid: parentOf(invite.uid) ?? "",
    roleUid: invite.roleUid,
    ttl,
    email: invite.email ?? "",
    singleUse: invite.singleUse ?? false,
    expirationTime: invite.expirationTime,
    keyId: invite.keyId,
    createTime: invite.createTime,
    code,
  });
}

function inputsFrom(outputs: GroupInviteOutputs): GroupInviteInputs {
  return pick(outputs, ["groupUid", "roleUid", "ttl", "email", "singleUse"]);
}

/** What a create sends, as one key: creates with the same key make alike invites. */
function inviteKey(inputs: GroupInviteInputs): string {
  return JSON.stringify([
    inputs.groupUid,
    inputs.roleUid,
    inputs.ttl,
    inputs.email,
    inputs.singleUse,
  ]);
}

/**
 * After a create whose answer was lost: the invite that create made, if any, to be
 * deleted (its code is lost, so it is of no use). An invite carries nothing that tells
 * whose it is, so only one can be this attempt's: alike (same role, email, single use
 * and lifetime), made no earlier than the service's clock can have read when the
 * create was sent, and held by no other resource of this process. Two or more, an
 * alike create of this process still under way, or no `Date` header to judge by: which
 * one is this attempt's cannot be told, and this fails naming them, deleting nothing
 * (another stack's invite, or a sibling's, looks exactly the same).
 */
async function findLostInvite(
  client: IrmClient,
  inputs: GroupInviteInputs,
  sentAtBounds: () => ServerTimeBounds | undefined,
): Promise<GroupInvite | undefined> {
  const ttlMs = Number(inputs.ttl.slice(0, -1)) * 1000;
  const listed = await client.iam.groupInvites
    .list({ childrenOf: inputs.groupUid, pageSize: 200 })
    .all();
  // Judged once the listing's own answers have shown the service's clock.
  const sentAt = sentAtBounds();
  const alike: GroupInvite[] = [];
  for (const invite of listed) {
    const created = Date.parse(invite.createTime);
    const lifetime = Date.parse(invite.expirationTime) - created;
    if (
      invite.roleUid === inputs.roleUid &&
      (invite.email ?? "") === inputs.email &&
      (invite.singleUse ?? false) === inputs.singleUse &&
      Math.abs(lifetime - ttlMs) <= 1 &&
      !isOwned(invite.uid) &&
      (sentAt === undefined || created >= sentAt.earliest)
    ) {
      alike.push(invite);
    }
  }
  if (alike.length === 0) return undefined;
  const siblings = inFlight(inviteKey(inputs));
  if (alike.length === 1 && sentAt !== undefined && siblings === 0) return alike[0];
  const named = alike.map((i) => `${i.uid} (createTime ${i.createTime})`).join(", ");
  const why =
    sentAt === undefined
      ? "the service sent no Date header, so when the create was sent cannot be compared with when they were made"
      : siblings > 0
        ? `another create of the same invite in this program is still under way and may have made ${alike.length === 1 ? "it" : "them"}`
        : `each was made after the service's clock could have read ${new Date(sentAt.earliest).toISOString()} when the create was sent`;
  throw new Error(
    `The answer to the create of an invite to ${inputs.roleUid} in group ${inputs.groupUid} was lost, ` +
      `and which invite it made cannot be told: ${alike.length} alike: ${named}; ${why}. ` +
      "Nothing was deleted and nothing created again. Delete the ones nobody holds a code for " +
      "(the lost one's code is known to nobody), then run the update again.",
  );
}

export function groupInviteHandler(
  context: HandlerContext,
): ResourceHandler<GroupInviteInputs, GroupInviteOutputs> {
  const invites = () => context.client().iam.groupInvites;

  async function createOnce(
    client: IrmClient,
    inputs: GroupInviteInputs,
  ): Promise<CreatedGroupInvite> {
    return client.iam.groupInvites.create(inputs.groupUid, {
      roleUid: inputs.roleUid,
      ttl: inputs.ttl,
      email: inputs.email,
      singleUse: inputs.singleUse,
    });
  }

  return {
    async check(_olds, news) {
      return checkGroupInviteInputs(news);
    },

    async diff(_id, olds, news) {
      return diffFields(REPLACING, [], olds, news);
    },

    async create(inputs) {
      const client = context.client();
      const sentAtLocal = Date.now();
      // The SDK refuses a create answer without a code (the create's outcome is then
      // unknown, handled below), so `created.code` is always there.
      let created: CreatedGroupInvite;
      try {
        created = await countedInFlight(inviteKey(inputs), () => createOnce(client, inputs));
      } catch (error) {
        if (!(error instanceof OutcomeUnknownError)) throw error;
        // An invite made by the lost create is useless without its code: remove it,
        // waiting for a create that may still be under way, then make a new one.
        const lost = await findAfterUnknownOutcome(context, error, () =>
          findLostInvite(client, inputs, () => client.serverClock.at(sentAtLocal)),
        );
        if (lost !== undefined) {
          await getOrUndefined(
            () => client.iam.groupInvites.delete(lost.uid),
            (gone) => client.iam.groupInvites.isGone(gone, lost.uid),
          );
        }
        created = await createOnce(client, inputs);
      }
      noteOwned(created.uid);
      const outs = groupInviteOutputs(created, { ttl: inputs.ttl, code: created.code });
      return { id: outs.uid, outs };
    },

    async read(id, props) {
      return readObject(
        () => invites().get(id),
        (error) => invites().isGone(error, id),
        (invite) => groupInviteOutputs(invite, props),
        inputsFrom,
      );
    },

    async update(id) {
      // diff replaces on every change, so the engine never asks for an update.
      throw new Error(
        `Group invite ${id} cannot be changed (the API has no update); it is replaced instead.`,
      );
    },

    async delete(id) {
      await deleteWaitingForChildren(
        context,
        { kind: "group invite", uid: id },
        () => invites().delete(id),
        (error) => invites().isGone(error, id),
      );
    },
  };
}
