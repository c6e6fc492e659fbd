/**
 * `irm-no-long-lived-or-reusable-invite`: a GroupInvite's code is a bearer credential
 * for the invite's role in its group, good until it expires. A reusable invite
 * (`singleUse: false`, the provider's default) lets every holder of the code in, and
 * a long `ttl` keeps a leaked code useful. Invites should be single-use and short;
 * replacing an invite is how to get a fresh one.
 *
 * The default limit, 7 days (604800 s), is the usual default lifetime of an invite in
 * the platform's own tooling: enough for someone to act on an email, short enough
 * that a forgotten invite dies on its own.
 */
import { resourcePolicy } from "../define";
import { POLICY_CARDS } from "../names";
import { IRM_TYPES } from "../resource-types";
import { readPath, readString, UNKNOWN } from "../values";

export interface NoLongLivedOrReusableInviteConfig {
  /** Longest accepted `ttl`, in seconds. */
  maxTtlSeconds: number;
  /** Accepts reusable invites (`singleUse: false`); only the lifetime is then checked. */
  allowReusable: boolean;
}

export const noLongLivedOrReusableInviteDefaults: NoLongLivedOrReusableInviteConfig = {
  maxTtlSeconds: 7 * 24 * 3600,
  allowReusable: false,
};

/** The API's duration syntax: seconds with up to nine fractional digits. */
const DURATION = /^([0-9]+(?:\.[0-9]{1,9})?)s$/;

/**
 * `ttl` in seconds: a number of seconds or a duration string (`"3600s"`); else the
 * time between `createTime` and `expirationTime` (state read back without a ttl).
 * Undefined when not known yet or not a lifetime (the provider's `check` says why).
 */
function ttlSeconds(props: unknown): number | undefined {
  const ttl = readPath(props, "ttl");
  if (ttl === UNKNOWN) return undefined;
  if (typeof ttl === "number") return Number.isFinite(ttl) ? ttl : undefined;
  if (typeof ttl === "string" && ttl !== "") {
    const match = DURATION.exec(ttl);
    return match ? Number(match[1]) : undefined;
  }
  const created = readString(props, "createTime");
  const expires = readString(props, "expirationTime");
  if (typeof created !== "string" || typeof expires !== "string") return undefined;
  const seconds = (Date.parse(expires) - Date.parse(created)) / 1000;
  return Number.isFinite(seconds) ? seconds : undefined;
}

const days = (seconds: number): string => {
  const value = seconds / 86_400;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} day${value === 1 ? "" : "s"}`;
};

/** A GroupInvite must be single-use and expire within `maxTtlSeconds`. */
export const noLongLivedOrReusableInvite = resourcePolicy({
  ...POLICY_CARDS.noLongLivedOrReusableInvite,
  types: [IRM_TYPES.groupInvite],
  defaults: noLongLivedOrReusableInviteDefaults,
  schema: {
    maxTtlSeconds: {
      type: "integer",
      minimum: 1,
      description: "Longest accepted invite lifetime (ttl), in seconds.",
    },
    allowReusable: {
      type: "boolean",
      description: "Accept invites with singleUse: false.",
    },
  },
  validate: (args, settings, report) => {
    const who = `GroupInvite '${args.name}'`;
    const ttl = ttlSeconds(args.props);
    if (ttl !== undefined && ttl > settings.maxTtlSeconds) {
      report(
        `${who} lives ${ttl}s (${days(ttl)}), longer than the ${settings.maxTtlSeconds}s (${days(settings.maxTtlSeconds)}) allowed: a leaked code stays usable that long. ` +
          `Fix: set 'ttl' to at most ${settings.maxTtlSeconds}, and replace the invite if it expires unused.`,
      );
    }
    // The provider's default is false: an absent singleUse is a reusable invite.
    const singleUse = readPath(args.props, "singleUse");
    if (singleUse === UNKNOWN || singleUse === true || settings.allowReusable) return;
    const email = readString(args.props, "email");
    const holders =
      typeof email === "string" && email !== ""
        ? `the code can be redeemed by ${email} any number of times`
        : "anyone who holds the code can redeem it, any number of times";
    report(
      `${who} is reusable (singleUse is not true): ${holders}, each time receiving its role. ` +
        `Fix: set 'singleUse: true' and make one invite per person.`,
    );
  },
});
