/**
 * Input validation run by `check`, before any request reaches the API. Every failure
 * names the property and the rule it broke, so `pulumi preview` can point at the line.
 */
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import type { ClaimMatch, GroupInputs, IdentityInputs, RoleBindingInputs } from "./types";

/** What the engine sends in place of a value that is not known yet (during preview). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Names of groups, identities and roles (API rule). */
export const NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;

/**
 * Upper bounds chosen by this provider (the API states none), generous enough for real
 * use while catching pasted blobs before they reach the service.
 */
export const MAX_LENGTH = {
  name: 128,
  description: 1024,
  issuer: 2048,
  subject: 1024,
} as const;

/** A root organisation: 40 lowercase hex characters. */
const ROOT_UID = "[0-9a-f]{40}";
/** One child segment: 16 lowercase hex characters. */
const CHILD_SEGMENT = "[0-9a-f]{16}";

/** Any group: the root organisation or a group below it. */
export const GROUP_UID_PATTERN = new RegExp(`^${ROOT_UID}(?:/${CHILD_SEGMENT})*$`);
/** A child of some group (identity, child group, role binding): at least one child segment. */
export const CHILD_UID_PATTERN = new RegExp(`^${ROOT_UID}(?:/${CHILD_SEGMENT})+$`);
/** A role: 40 lowercase hex characters, no slash. */
export const ROLE_UID_PATTERN = new RegExp(`^${ROOT_UID}$`);

/** True when the engine does not know this value yet (preview). */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

/** A value quoted for a message, cut short so a pasted blob does not flood the output. */
export function quoted(value: string, max = 80): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, max))}... (${value.length} characters)`;
}

/** The parent of a child uid (everything before the last `/`), or undefined for a root. */
export function parentOf(uid: string): string | undefined {
  const slash = uid.lastIndexOf("/");
  return slash < 0 ? undefined : uid.slice(0, slash);
}

/** True for an `http` host the emulator may run on: localhost, 127.0.0.0/8 or [::1]. */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** Collects failures for one resource's inputs. */
class InputChecker {
  readonly failures: CheckFailure[] = [];

  fail(property: string, reason: string): void {
    this.failures.push({ property, reason });
  }

  /**
   * A required string; returns it (or the unknown marker) when it passed the type and
   * presence rules, so the caller can add shape rules.
   */
  requiredString(property: string, value: unknown): string | undefined {
    if (value === undefined || value === null || value === "") {
      this.fail(property, "is required");
      return undefined;
    }
    if (typeof value !== "string") {
      this.fail(property, `must be a string, got ${typeof value}`);
      return undefined;
    }
    return value;
  }

  /** An optional string; absent means `""`. */
  optionalString(property: string, value: unknown): string {
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") {
      this.fail(property, `must be a string, got ${typeof value}`);
      return "";
    }
    return value;
  }

  name(property: string, value: unknown): string | undefined {
    const name = this.requiredString(property, value);
    if (name === undefined || isUnknown(name)) return name;
    if (!NAME_PATTERN.test(name)) {
      this.fail(
        property,
        `must match ${NAME_PATTERN.source} (lowercase letters, digits, space, '.', '_', '-'), got ${quoted(name)}`,
      );
    }
    this.maxLength(property, name, MAX_LENGTH.name);
    return name;
  }

  description(property: string, value: unknown): string {
    const description = this.optionalString(property, value);
    if (!isUnknown(description)) this.maxLength(property, description, MAX_LENGTH.description);
    return description;
  }

  uid(property: string, value: unknown, pattern: RegExp, shape: string): string | undefined {
    const uid = this.requiredString(property, value);
    if (uid === undefined || isUnknown(uid)) return uid;
    if (!pattern.test(uid)) this.fail(property, `must be ${shape}, got ${quoted(uid)}`);
    return uid;
  }

  maxLength(property: string, value: string, max: number): void {
    if (value.length > max) {
      this.fail(property, `must be at most ${max} characters, got ${value.length}`);
    }
  }

  /**
   * `adoptUid` must be a child of the declared parent; checked here when both are known
   * so a typo fails in preview rather than at create.
   */
  adoptUid(
    value: unknown,
    parentProperty: string,
    parentUid: string | undefined,
  ): string | undefined {
    if (value === undefined || value === null || value === "") return undefined;
    const uid = this.uid("adoptUid", value, CHILD_UID_PATTERN, CHILD_SHAPE);
    if (uid === undefined || isUnknown(uid) || parentUid === undefined || isUnknown(parentUid)) {
      return uid;
    }
    if (CHILD_UID_PATTERN.test(uid) && parentOf(uid) !== parentUid) {
      this.fail("adoptUid", `must be a direct child of ${parentProperty} ${parentUid}, got ${uid}`);
    }
    return uid;
  }

  issuer(property: string, value: unknown): string | undefined {
    const issuer = this.requiredString(property, value);
    if (issuer === undefined || isUnknown(issuer)) return issuer;
    this.maxLength(property, issuer, MAX_LENGTH.issuer);
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      this.fail(property, `must be an absolute https URL, got ${quoted(issuer)}`);
      return issuer;
    }
    const allowed =
      url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
    if (!allowed) {
      this.fail(
        property,
        `must be an https URL (http only on loopback: localhost, 127.0.0.0/8, [::1]), got ${quoted(issuer)}`,
      );
    }
    return issuer;
  }
}

const GROUP_SHAPE = "a group uid (40 lowercase hex, then zero or more '/' + 16 lowercase hex)";
const CHILD_SHAPE = "a child uid (its group's uid, then '/' + 16 lowercase hex)";
const ROLE_SHAPE = "a role uid (40 lowercase hex, no '/')";

/** Result of validating one resource's inputs: normalized inputs and failures. */
export interface Checked<T> {
  inputs: T;
  failures: CheckFailure[];
}

type RawInputs = Record<string, unknown>;

/** Keeps `adoptUid` only when set, so inputs without it stay free of the key. */
function withAdoptUid<T extends object>(inputs: T, adoptUid: string | undefined): T {
  return adoptUid === undefined ? inputs : { ...inputs, adoptUid };
}

export function checkGroupInputs(news: RawInputs): Checked<GroupInputs> {
  const checker = new InputChecker();
  const parentUid = checker.uid("parentUid", news.parentUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const name = checker.name("name", news.name);
  const description = checker.description("description", news.description);
  const adoptUid = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  const inputs = withAdoptUid(
    { parentUid: parentUid ?? "", name: name ?? "", description },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}

export function checkIdentityInputs(news: RawInputs): Checked<IdentityInputs> {
  const checker = new InputChecker();
  const parentUid = checker.uid("parentUid", news.parentUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const name = checker.name("name", news.name);
  const description = checker.description("description", news.description);
  const claimMatch = checkClaimMatch(checker, news.claimMatch);
  const adoptUid = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  const inputs = withAdoptUid(
    { parentUid: parentUid ?? "", name: name ?? "", description, claimMatch },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}

function checkClaimMatch(checker: InputChecker, value: unknown): ClaimMatch {
  // The whole object may be unknown in preview (e.g. built from another resource's output).
  if (isUnknown(value)) return { issuer: UNKNOWN_VALUE, subject: UNKNOWN_VALUE };
  if (value === undefined || value === null) {
    checker.fail("claimMatch", "is required (an object with issuer and subject)");
    return { issuer: "", subject: "" };
  }
  if (typeof value !== "object" || Array.isArray(value)) {
    checker.fail("claimMatch", "must be an object with issuer and subject");
    return { issuer: "", subject: "" };
  }
  const raw = value as Record<string, unknown>;
  const issuer = checker.issuer("claimMatch.issuer", raw.issuer);
  const subject = checker.requiredString("claimMatch.subject", raw.subject);
  if (subject !== undefined && !isUnknown(subject)) {
    checker.maxLength("claimMatch.subject", subject, MAX_LENGTH.subject);
  }
  return { issuer: issuer ?? "", subject: subject ?? "" };
}

export function checkRoleBindingInputs(news: RawInputs): Checked<RoleBindingInputs> {
  const checker = new InputChecker();
  const groupUid = checker.uid("groupUid", news.groupUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const identityUid = checker.uid("identityUid", news.identityUid, CHILD_UID_PATTERN, CHILD_SHAPE);
  const roleUid = checker.uid("roleUid", news.roleUid, ROLE_UID_PATTERN, ROLE_SHAPE);
  const adoptUid = checker.adoptUid(news.adoptUid, "groupUid", groupUid);
  const inputs = withAdoptUid(
    { groupUid: groupUid ?? "", identityUid: identityUid ?? "", roleUid: roleUid ?? "" },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}
