/**
 * Provider methods of `GroupInvite`. An invite never changes (the API has no update),
 * so any change of input replaces it; and its code is answered once, by the create,
 * so the code is taken from that answer and carried over by every refresh. There is no
 * adoption: an adopted invite's code could never be read.
 */
import type { CreatedGroupInvite, GroupInvite, IrmClient } from "../../sdk/index";
import { OutcomeUnknownError } from "../../sdk/index";
import {
  Checker,
  GROUP_SHAPE,
  GROUP_UID_PATTERN,
  isUnknown,
  parentOf,
  quoted,
  ROLE_SHAPE,
  ROLE_UID_PATTERN,
} from "../input-checks";
import {
  deleteWaitingForChildren,
  diffFields,
  type FieldSpec,
  findAfterUnknownOutcome,
  getOrUndefined,
  type HandlerContext,
  pick,
  type ResourceHandler,
  sameField,
  withoutUndefined,
} from "./common";

/** Inputs of a GroupInvite after `check`. */
export interface GroupInviteInputs {
  groupUid: string;
  roleUid: string;
  /** Lifetime as a duration string in canonical form (`"3600s"`, `"1.5s"`). */
  ttl: string;
  /** The only address allowed to redeem it; `""` for anyone who has the code. */
  email: string;
  singleUse: boolean;
}

/**
 * Outputs of a GroupInvite, as stored in state (`code` as a secret): only what the
 * invite owns. The API's hydrated copy of the role is left out, as a RoleBinding leaves
 * it out: a custom role's name, description and capabilities change without the invite
 * changing, and a refresh would then report the invite changed.
 */
export interface GroupInviteOutputs extends GroupInviteInputs {
  uid: string;
  /** `createTime + ttl`; an expired invite stays until deleted. */
  expirationTime: string;
  /** Opaque (no published format), unique per invite. */
  keyId: string;
  createTime: string;
  /** The secret code, from the create answer only; `""` when unknown (`get`). */
  code: string;
}

/** The API's duration syntax: seconds, up to nine fractional digits. */
const DURATION = /^([0-9]+)(?:\.([0-9]{1,9}))?s$/;
const MAX_TTL_SECONDS = 31_536_000;
const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;
const MAX_EMAIL = 254;
/** How long before a lost create an invite may have been made by it (clock skew margin). */
const LOST_CREATE_MARGIN_MS = 5 * 60_000;

/** A duration string in its shortest form: no leading zeros, no trailing fractional zeros. */
function canonicalDuration(whole: string, fraction = ""): string {
  const seconds = whole.replace(/^0+(?=\d)/, "");
  const digits = fraction.replace(/0+$/, "");
  return digits === "" ? `${seconds}s` : `${seconds}.${digits}s`;
}

/**
 * `ttl` as given (seconds as a number, or a duration string such as `"3600s"`) in
 * canonical form; undefined (and a failure) when it is not a lifetime the API accepts.
 */
function checkTtl(checker: Checker, value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") {
    checker.fail("ttl", 'is required (seconds, or a duration string such as "3600s")');
    return undefined;
  }
  if (isUnknown(value)) return value as string;
  let text: string | undefined;
  if (typeof value === "number") {
    if (Number.isFinite(value) && value >= 0) {
      // At most nine fractional digits, as the wire form allows.
      const [whole, fraction] = value.toFixed(9).split(".");
      text = canonicalDuration(whole, fraction);
    }
  } else if (typeof value === "string") {
    const match = DURATION.exec(value);
    if (match) text = canonicalDuration(match[1], match[2]);
  }
  if (text === undefined) {
    const shown = typeof value === "string" ? quoted(value) : String(value);
    checker.fail(
      "ttl",
      `must be a number of seconds or a duration string such as "3600s", got ${shown}`,
    );
    return undefined;
  }
  const seconds = Number(text.slice(0, -1));
  if (!(seconds >= 0.001 && seconds <= MAX_TTL_SECONDS)) {
    checker.fail("ttl", `must be between 1ms and 365 days (31536000s), got ${text}`);
    return undefined;
  }
  return text;
}

export function checkGroupInviteInputs(news: Record<string, unknown>) {
  const checker = new Checker();
  const groupUid = checker.uid("groupUid", news.groupUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const roleUid = checker.uid("roleUid", news.roleUid, ROLE_UID_PATTERN, ROLE_SHAPE);
  const ttl = checkTtl(checker, news.ttl);
  const email = checker.optionalString("email", news.email);
  if (email !== "" && !isUnknown(email)) {
    if (!EMAIL.test(email)) {
      checker.fail("email", `must be an email address (name@domain), got ${quoted(email)}`);
    }
    checker.maxLength("email", email, MAX_EMAIL);
  }
  const singleUse = checker.optionalBoolean("singleUse", news.singleUse);
  if (news.adoptUid !== undefined && news.adoptUid !== null && news.adoptUid !== "") {
    checker.fail(
      "adoptUid",
      "group invites cannot be adopted: the API answers an invite's code only to its create",
    );
  }
  const inputs: GroupInviteInputs = {
    groupUid: groupUid ?? "",
    roleUid: roleUid ?? "",
    ttl: ttl ?? "",
    email,
    singleUse: singleUse as boolean,
  };
  return { inputs, failures: checker.failures };
}

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

/**
 * After a create whose answer was lost: deletes the invites of the group that create
 * may have made (same role, email, single use and lifetime, made no earlier than five
 * minutes before the attempt on the service's clock), since an invite whose code was
 * lost is of no use. Answers how many it deleted.
 */
async function deleteLostInvites(
  client: IrmClient,
  inputs: GroupInviteInputs,
  notBefore: number,
): Promise<number> {
  const ttlMs = Number(inputs.ttl.slice(0, -1)) * 1000;
  const lost: GroupInvite[] = [];
  for await (const invite of client.iam.groupInvites.list({
    childrenOf: inputs.groupUid,
    pageSize: 200,
  })) {
    const created = Date.parse(invite.createTime);
    const lifetime = Date.parse(invite.expirationTime) - created;
    if (
      invite.roleUid === inputs.roleUid &&
      (invite.email ?? "") === inputs.email &&
      (invite.singleUse ?? false) === inputs.singleUse &&
      created >= notBefore &&
      Math.abs(lifetime - ttlMs) <= 1
    ) {
      lost.push(invite);
    }
  }
  for (const invite of lost) {
    await getOrUndefined(
      () => client.iam.groupInvites.delete(invite.uid),
      (error) => client.iam.groupInvites.isGone(error, invite.uid),
    );
  }
  return lost.length;
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
        created = await createOnce(client, inputs);
      } catch (error) {
        if (!(error instanceof OutcomeUnknownError)) throw error;
        // An invite made by the lost create is useless without its code: remove it,
        // waiting for a create that may still be under way, then make a new one.
        const sentAt = client.serverClock.at(sentAtLocal)?.earliest ?? sentAtLocal;
        await findAfterUnknownOutcome(context, error, async () =>
          (await deleteLostInvites(client, inputs, sentAt - LOST_CREATE_MARGIN_MS)) > 0
            ? true
            : undefined,
        );
        created = await createOnce(client, inputs);
      }
      const outs = groupInviteOutputs(created, { ttl: inputs.ttl, code: created.code });
      return { id: outs.uid, outs };
    },

    async read(id, props) {
      const invite = await getOrUndefined(
        () => invites().get(id),
        (error) => invites().isGone(error, id),
      );
      if (invite === undefined) return { id: "" };
      const outs = groupInviteOutputs(invite, props);
      return { id: outs.uid, props: outs, inputs: inputsFrom(outs) };
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
