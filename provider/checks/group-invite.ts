/**
 * The input checks of `GroupInvite`: its group and role, its lifetime (answered in the
 * canonical duration form) and who may redeem it. An invite cannot be adopted.
 */
import type { GroupInviteInputs } from "../shapes/index";
import { Checker, isUnknown, quoted } from "./checker";

/** The API's duration syntax: seconds, up to nine fractional digits. */
const DURATION = /^([0-9]+)(?:\.([0-9]{1,9}))?s$/;
const MAX_TTL_SECONDS = 31_536_000;
const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;
const MAX_EMAIL = 254;

/** A duration string in its shortest form: no leading zeros, no trailing fractional zeros. */
export function canonicalDuration(whole: string, fraction = ""): string {
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
  const groupUid = checker.groupUid("groupUid", news.groupUid);
  const roleUid = checker.roleUid("roleUid", news.roleUid);
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
