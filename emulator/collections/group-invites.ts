/**
 * Group invites: `/iam/v2beta1/groupInvites` (addendum, 4). An invite carries a code that
 * the create answers once; the emulator keeps only its SHA-256 digest and never models
 * redeeming it. An invite never changes (PATCH is UNIMPLEMENTED) and nothing removes an
 * expired one: it stays in List and Get until deleted.
 */
import { randomBytes } from "node:crypto";
import type { Access } from "../access";
import { invalidArgument } from "../errors";
import { capabilityFor } from "../kinds";
import type { OrderField } from "../listing";
import type { GroupInviteRecord } from "../model";
import { type JsonObject, optionalBoolean, optionalString } from "../requests";
import type { State } from "../state";
import * as kit from "./kit";
import { promisedRoleOfCreate, roleReadable } from "./roles";
import { newInviteCode, secretDigest } from "./secrets";
import { writableCollection } from "./writable";

/** `ttl`: seconds with up to 9 fractional digits and an `s` suffix. */
const DURATION = /^([0-9]+)(?:\.([0-9]{1,9}))?s$/;
const MAX_TTL_SECONDS = 31_536_000;
const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;
const MAX_EMAIL_LENGTH = 254;

/**
 * An invite as `reader` sees it. The hydrated `role` appears while the role exists and
 * the reader may read it (a built-in role, or `roles.get` on a custom role's group), so
 * an invite never discloses more than a Get of the role would. `code` only in the
 * create's answer.
 */
export function groupInviteOut(
  state: State,
  invite: GroupInviteRecord,
  reader: Access,
  code?: string,
): JsonObject {
  const role = state.roles.get(invite.roleUid);
  return {
    uid: invite.uid,
    roleUid: invite.roleUid,
    ...(role && roleReadable(reader, role)
      ? {
          role: {
            uid: role.uid,
            name: role.name,
            description: role.description,
            capabilities: [...role.capabilities].sort(),
          },
        }
      : {}),
    email: invite.email,
    expirationTime: invite.expirationTime,
    singleUse: invite.singleUse,
    ...(code !== undefined ? { code } : {}),
    keyId: invite.keyId,
    createTime: invite.createTime,
  };
}

/** The ttl in milliseconds; `ttl` must be a duration string between 1 ms and 365 days. */
function requireTtlMs(value: unknown): number {
  if (value === undefined || value === null || value === "") {
    throw invalidArgument("ttl", "is required");
  }
  const match = typeof value === "string" ? DURATION.exec(value) : null;
  if (!match) throw invalidArgument("ttl", 'must be a duration string such as "3600s"');
  const seconds = Number(match[1]);
  const nanos = Number((match[2] ?? "").padEnd(9, "0"));
  const ms = seconds * 1000 + nanos / 1e6;
  if (ms < 1 || seconds > MAX_TTL_SECONDS || (seconds === MAX_TTL_SECONDS && nanos > 0)) {
    throw invalidArgument("ttl", "must be between 1ms and 365 days");
  }
  return Math.floor(ms);
}

function requireEmail(body: JsonObject): string {
  const email = optionalString(body, "email") ?? "";
  if (email === "") return "";
  if (email.length > MAX_EMAIL_LENGTH) {
    throw invalidArgument("email", `must be at most ${MAX_EMAIL_LENGTH} characters`);
  }
  if (!EMAIL.test(email)) throw invalidArgument("email", "must be an email address");
  return email;
}

function requireInviteRoleUid(body: JsonObject): string {
  const roleUid = optionalString(body, "roleUid");
  if (!roleUid) throw invalidArgument("roleUid", "is required");
  return kit.requireRoleUid(roleUid, "roleUid");
}

/** A keyId no stored invite has (the name index of invites holds their keyIds). */
function newKeyId(state: State): string {
  for (;;) {
    const keyId = randomBytes(16).toString("hex");
    if (state.groupInvites.named(keyId).length === 0) return keyId;
  }
}

interface InviteDraft {
  roleUid: string;
  ttlMs: number;
  email: string;
  singleUse: boolean;
}

/**
 * The code of the invite just built, handed from `build` to the create's answer and
 * forgotten there: the record stays in the store, so a later Get must not find it.
 */
const freshCodes = new WeakMap<GroupInviteRecord, string>();

function takeCode(invite: GroupInviteRecord): string | undefined {
  const code = freshCodes.get(invite);
  freshCodes.delete(invite);
  return code;
}

const INVITE_ORDER_FIELDS: Readonly<Record<string, OrderField>> = {
  uid: "uid",
  create_time: "createTime",
  createTime: "createTime",
  created_at: "createTime",
  expiration_time: "expirationTime",
  expirationTime: "expirationTime",
};

/** An invite promises its role in its group, as a binding would. */
const inviteRole = promisedRoleOfCreate<InviteDraft>("roleUid");

export const groupInvites = writableCollection<GroupInviteRecord, InviteDraft>({
  name: "groupInvites",
  out: (ctx: kit.EmulatorContext, invite, access) =>
    groupInviteOut(ctx.state, invite, access, takeCode(invite)),
  list: {
    filters: [{ key: "keyId", names: ["key_id", "keyId"] }],
    options: {
      orderFields: INVITE_ORDER_FIELDS,
      // `ListGroupInvitesRequest`: newest first without `order_by`.
      defaultOrder: { field: "createTime", descending: true },
      orderFieldsText: "uid, create_time, expiration_time",
      nameFilter: false,
    },
    sortName: () => "",
    sortValue: (invite, field) => (field === "expirationTime" ? invite.expirationTime : undefined),
    match: (_ctx, params) => {
      const { keyId } = params.filters;
      return keyId === undefined ? undefined : (invite) => invite.keyId === keyId;
    },
  },
  create: {
    parentHint: "the group uid belongs in the path",
    // An invite promises a future role binding: the caller must be able to make it.
    capabilities: [
      capabilityFor("groupInvites", "create"),
      capabilityFor("roleBindings", "create"),
    ],
    body: (_ctx, body) => {
      const roleUid = requireInviteRoleUid(body);
      const ttlMs = requireTtlMs(body.ttl);
      const email = requireEmail(body);
      const singleUse = optionalBoolean(body, "singleUse") ?? false;
      return { roleUid, ttlMs, email, singleUse };
    },
    references: inviteRole.references,
    roleUsable: inviteRole.roleUsable,
    grants: inviteRole.grants,
    build: (ctx, draft, parentUid, now) => {
      const code = newInviteCode();
      const invite: GroupInviteRecord = {
        uid: kit.newChildUid(
          parentUid,
          (candidate) => ctx.state.groupInvites.has(candidate) || ctx.state.groups.has(candidate),
        ),
        roleUid: draft.roleUid,
        email: draft.email,
        expirationTime: new Date(Date.parse(now) + draft.ttlMs).toISOString(),
        singleUse: draft.singleUse,
        codeDigest: secretDigest(code),
        keyId: newKeyId(ctx.state),
        createTime: now,
        updateTime: now,
      };
      freshCodes.set(invite, code);
      return invite;
    },
  },
  delete: {},
});
