/**
 * `/iam/v2beta1/groupInvites`: invites never change (no update). The secret
 * `code` is read from the answer of `create` only, onto a property that is not
 * enumerable, so that printing, spreading or serialising an invite never shows
 * it; errors of every call are cleaned of any `"code": "..."` value.
 */

import type { CapabilityName } from "../capabilities";
import { CreatableCollection } from "../core/collection";
import type { PageParams, RequestOptions, Timestamp, UidpFilter } from "../core/common-types";
import { REDACTED } from "../core/redact";
import type { ApiRequester, QueryValue } from "../core/resource";
import { listQuery } from "../core/resource";
import { ShapeError, ShapeReader } from "../core/shape";
import { ROLE_UID_PATTERN, ROLE_UID_SHAPE } from "../uids";
import { boundedString, capabilityNames, patternString } from "./decode";
import { guardSecrets } from "./secrets";

/** The role of an invite, hydrated: capabilities as enum value names, a set. */
export interface GroupInviteRole {
  uid: string;
  name: string;
  description: string;
  capabilities: CapabilityName[];
}

/**
 * An invite to a group: whoever presents its code (as `email`, when set) gets a
 * binding to `roleUid` there. It never changes; after `expirationTime` it stays
 * listed until deleted, but can no longer be redeemed.
 */
export interface GroupInvite {
  /** `<group uid>/<16 hex>`. */
  uid: string;
  roleUid: string;
  /** Absent once the role is deleted (the invite stays). */
  role?: GroupInviteRole;
  /** The only address allowed to redeem; `""` = anyone who has the code. */
  email: string;
  expirationTime: Timestamp;
  singleUse: boolean;
  /** Opaque (no published format), unique per invite; `list({ keyId })` finds it. */
  keyId: string;
  createTime: Timestamp;
}

/**
 * The answer of a create: the only time the secret `code` is readable. `code` is
 * not enumerable: `JSON.stringify`, spreading and `console.log` leave it out (the
 * last shows `[REDACTED]`); read it as `invite.code`.
 */
export interface CreatedGroupInvite extends GroupInvite {
  readonly code: string;
}

/**
 * The caller must hold `groupInvites.create` and `roleBindings.create` on the
 * group, and every capability of the role.
 */
export interface GroupInviteCreate {
  /** A built-in role (40 hex), or a custom role of the group or one of its ancestors (`<group uid>/<16 hex>`). */
  roleUid: string;
  /** Lifetime: seconds (sent as `"<n>s"`) or a duration string such as `"3600s"`; 1 ms to 365 days. */
  ttl: string | number;
  email?: string;
  singleUse?: boolean;
}

/** `ListGroupInvitesRequest`'s filters: the `uidp` filter and `keyId` (no `name`). */
export interface GroupInviteListParams extends UidpFilter, PageParams {
  /** `key_id`: exact match on the invite's `keyId`. */
  keyId?: string;
}

/** `keyId` and `code` are opaque strings of no published format: only their size is bounded. */
const MAX_KEY_ID = 1024;
const MAX_CODE = 8192;
/** The duration form the service accepts (protobuf JSON, seconds with at most 9 decimals). */
const DURATION = /^[0-9]+(\.[0-9]{1,9})?s$/;

function decodeRole(r: ShapeReader): GroupInviteRole {
  return {
    uid: patternString(r, "uid", ROLE_UID_PATTERN, ROLE_UID_SHAPE),
    name: r.string("name"),
    description: r.optionalString("description", ""),
    capabilities: capabilityNames(r, "capabilities"),
  };
}

/** An invite as Get and List answer it; a `code` there (which none should carry) is dropped. */
export function decodeGroupInvite(raw: unknown, at = "groupInvite"): GroupInvite {
  const r = ShapeReader.of(raw, at);
  const invite: GroupInvite = {
    uid: r.string("uid"),
    roleUid: patternString(r, "roleUid", ROLE_UID_PATTERN, ROLE_UID_SHAPE),
    email: r.optionalString("email", ""),
    expirationTime: r.timestamp("expirationTime"),
    singleUse: r.optionalBoolean("singleUse", false),
    keyId: boundedString(r, "keyId", MAX_KEY_ID),
    createTime: r.timestamp("createTime"),
  };
  if (r.raw.role !== undefined && r.raw.role !== null) {
    const role = decodeRole(r.object("role"));
    if (role.uid !== invite.roleUid) {
      throw new ShapeError(`${at}.role.uid`, `${role.uid} is not the invite's roleUid`);
    }
    invite.role = role;
  }
  return invite;
}

/**
 * The answer of a create: the invite and its code. The code's checks never quote
 * it, and it is defined as a non-enumerable property with an inspector that shows
 * `[REDACTED]` in its place.
 */
export function decodeCreatedGroupInvite(raw: unknown, at = "groupInvite"): CreatedGroupInvite {
  const invite = decodeGroupInvite(raw, at);
  const code = (raw as Record<string, unknown>).code;
  if (code === undefined || code === null || code === "") {
    throw new ShapeError(`${at}.code`, "missing (the create answer must carry the code)");
  }
  if (typeof code !== "string") {
    throw new ShapeError(`${at}.code`, `expected a string, got a ${typeof code}`);
  }
  if (code.length > MAX_CODE) {
    throw new ShapeError(`${at}.code`, `longer than ${MAX_CODE} characters (${code.length})`);
  }
  return withHiddenCode(invite, code);
}

/** Attaches `code` so that only reading `invite.code` shows it. */
function withHiddenCode(invite: GroupInvite, code: string): CreatedGroupInvite {
  Object.defineProperty(invite, "code", { value: code, enumerable: false });
  Object.defineProperty(invite, Symbol.for("nodejs.util.inspect.custom"), {
    value: () => ({ ...invite, code: REDACTED }),
    enumerable: false,
  });
  return invite as CreatedGroupInvite;
}

/**
 * A lifetime in the wire form: seconds as `"<n>s"`, a string checked against the
 * duration form. Throws before any request, naming `ttl`; the range (1 ms to 365
 * days) is the service's to check.
 */
export function encodeTtl(ttl: string | number): string {
  if (typeof ttl === "number") {
    if (!Number.isFinite(ttl) || ttl < 0) {
      throw new TypeError(`ttl: must be a non-negative number of seconds, got ${ttl}`);
    }
    // At most 9 decimals, no exponent: 1.5 → "1.5s", 3600 → "3600s".
    const text = ttl.toFixed(9).replace(/\.?0+$/, "");
    if (!DURATION.test(`${text}s`)) {
      throw new TypeError(`ttl: ${ttl} seconds cannot be written as a duration`);
    }
    return `${text}s`;
  }
  if (typeof ttl !== "string" || !DURATION.test(ttl)) {
    throw new TypeError(
      `ttl: must be a number of seconds or a duration string such as "3600s", got ${JSON.stringify(String(ttl).slice(0, 40))}`,
    );
  }
  return ttl;
}

/** `/iam/v2beta1/groupInvites`: list, get, create, delete (PATCH is UNIMPLEMENTED: delete and create anew). */
export class GroupInvites extends CreatableCollection<
  GroupInvite,
  GroupInviteCreate,
  GroupInviteListParams
> {
  constructor(client: ApiRequester) {
    super(guardSecrets(client, { keys: ["code"] }), {
      path: "/iam/v2beta1/groupInvites",
      listKey: "groupInvites",
      noun: "groupInvite",
      decode: decodeGroupInvite,
      decodeCreated: decodeCreatedGroupInvite,
    });
  }

  /**
   * Creates an invite in `groupUid` and answers it with its `code`, the only time
   * the code can be read. An answer without a well-formed code is an
   * `OutcomeUnknownError` (the invite may exist, without a code anyone can read:
   * delete it).
   */
  override create(
    groupUid: string,
    fields: GroupInviteCreate,
    options?: RequestOptions,
  ): Promise<CreatedGroupInvite> {
    return super.create(groupUid, fields, options) as Promise<CreatedGroupInvite>;
  }

  protected override createBody(fields: GroupInviteCreate): unknown {
    return { ...fields, ttl: encodeTtl(fields.ttl) };
  }

  protected override listQueryOf(params: GroupInviteListParams): Record<string, QueryValue> {
    // The request has no `name`: never sent, even from untyped code.
    return { ...listQuery(params), name: undefined, key_id: params.keyId };
  }

  protected override filterMismatch(item: GroupInvite, params: GroupInviteListParams) {
    if (!params.keyId || item.keyId === params.keyId) return undefined;
    return { field: "keyId", problem: `is not ${params.keyId}, the key id filtered on` };
  }
}
