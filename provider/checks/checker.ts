/**
 * The rules every resource's input checks are built from, before any request reaches
 * the API: the API's patterns and this provider's bounds, and {@link Checker}, which
 * collects failures. Every failure names the property and the rule it broke, so
 * `pulumi preview` can point at the line, and a value not known yet in a preview
 * passes. Each resource's checks are its own module beside this one (`checks/`).
 */
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { RE2JS } from "re2js";
import { isLoopbackHost } from "../../sdk/core/loopback";
import {
  MAX_CLAIM_ENTRIES,
  MAX_ISSUER_KEYS_LENGTH,
  MAX_PATTERN_COST,
  MAX_PATTERN_LENGTH,
  patternCost,
} from "../../sdk/resources/identity-bounds";
import * as uids from "../../sdk/uids";

/** What the engine sends in place of a value that is not known yet (during preview). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Names of groups, identities and roles (API rule). */
export const NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;

/** The length of a group's, an identity's or an identity provider's name (definitions at HEAD). */
export const NAME_LENGTH = { min: 3, max: 63 } as const;

/**
 * Upper bounds chosen by this provider (the API states none), generous enough for real
 * use while catching pasted blobs before they reach the service.
 */
export const MAX_LENGTH = {
  name: 128,
  description: 1024,
  issuer: 2048,
  subject: 1024,
  /** An audience, a claim's exact value, an AWS ARN or user id. */
  value: 2048,
  /** An RE2 pattern (the API's bound: the worst pattern still compiles quickly). */
  pattern: MAX_PATTERN_LENGTH,
  /** A claim name in `claims` / `claimPatterns`. */
  claimName: 256,
  /** `staticKeys.issuerKeys`, a JWKS document (the API's bound). */
  issuerKeys: MAX_ISSUER_KEYS_LENGTH,
} as const;

// The uid patterns, their shape texts and `parentOf` are the SDK's (`sdk/uids.ts`).
export {
  CHILD_UID_PATTERN,
  GROUP_UID_PATTERN,
  parentOf,
  ROLE_UID_PATTERN,
  ROLE_UID_SHAPE as ROLE_SHAPE,
} from "../../sdk/uids";

/** True when the engine does not know this value yet (preview). */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

/** A value quoted for a message, cut short so a pasted blob does not flood the output. */
export function quoted(value: string, max = 80): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, max))}... (${value.length} characters)`;
}

/** A plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Present: neither absent, `null` nor `""` (the API's rule for one-of members). */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** Result of validating one resource's inputs: normalized inputs and failures. */
export interface Checked<T> {
  inputs: T;
  failures: CheckFailure[];
}

/** What the engine hands `check`: the program's inputs, any value at all. */
export type RawInputs = Record<string, unknown>;

/** An RFC 3339 time (what the API accepts). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** JWK members that only a private key has (API rule: only public keys are accepted). */
const PRIVATE_KEY_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k"];
const KEY_TYPES = ["EC", "RSA", "OKP"];
/**
 * The curves of EC and OKP keys the token exchange verifies with (ES256, ES384, ES512,
 * EdDSA), and its smallest RSA modulus: a key outside them would refuse every token.
 */
const SIGNING_CURVES: Readonly<Record<string, readonly string[]>> = {
  EC: ["P-256", "P-384", "P-521"],
  OKP: ["Ed25519"],
};
const MIN_RSA_BITS = 2048;

/** Bits of an RSA modulus `n` (base64url); undefined when it is not one. */
function modulusBits(n: unknown): number | undefined {
  if (typeof n !== "string" || !/^[A-Za-z0-9_-]+$/.test(n)) return undefined;
  const bytes = Buffer.from(n, "base64url");
  let first = 0;
  while (first < bytes.length && bytes[first] === 0) first++;
  if (first === bytes.length) return 0;
  return (bytes.length - first - 1) * 8 + (32 - Math.clz32(bytes[first]));
}

/** Members no failure may show: a secret, or key material (a private key pasted by mistake). */
const UNSHOWN_MEMBERS = new Set(["clientSecret", "issuerKeys"]);
/** The longest input (as JSON) the engine may print beside a failure of one of its members. */
const MAX_SHOWN_LENGTH = 256;

/** True when `value` may be printed whole: short, and holding no secret or key material. */
function showable(value: unknown): boolean {
  if (isRecord(value) && Object.keys(value).some((key) => UNSHOWN_MEMBERS.has(key))) return false;
  return (JSON.stringify(value) ?? "").length <= MAX_SHOWN_LENGTH;
}

/**
 * `failures` as the engine can show them, its full path leading the reason of each
 * failure of a member: the engine prints a failure with the value of the input its
 * property names, looked up as a top-level key of `inputs`, so a nested path printed
 * `value {<nil>}`. The failure moves to the top-level input (`claimMatch`, reason
 * `claimMatch.issuer: must be ...`), or names none when that input's value must not be
 * printed (a secret, key material, a long value), and the engine then prints no value.
 */
export function onTopLevelInputs(
  failures: readonly CheckFailure[],
  inputs: Record<string, unknown>,
): CheckFailure[] {
  return failures.map(({ property, reason }) => {
    const input = /^[^.[]+/.exec(property)?.[0];
    if (input === undefined || input === property) return { property, reason };
    const shown = Object.hasOwn(inputs, input) && showable(inputs[input]);
    return { property: shown ? input : "", reason: `${property}: ${reason}` };
  });
}

/** Collects the failures of one resource's inputs. */
export class Checker {
  readonly failures: CheckFailure[] = [];

  fail(property: string, reason: string): void {
    this.failures.push({ property, reason });
  }

  /** A required string, or the unknown marker; undefined after a failure. */
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
  optionalString(property: string, value: unknown, max?: number): string {
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") {
      this.fail(property, `must be a string, got ${typeof value}`);
      return "";
    }
    if (max !== undefined && !isUnknown(value)) this.maxLength(property, value, max);
    return value;
  }

  /** An optional boolean; absent means `false`. The unknown marker passes as is. */
  optionalBoolean(property: string, value: unknown): boolean | string {
    if (value === undefined || value === null) return false;
    if (isUnknown(value)) return value as string;
    if (typeof value !== "boolean") {
      this.fail(property, `must be a boolean, got ${typeof value}`);
      return false;
    }
    return value;
  }

  maxLength(property: string, value: string, max: number): void {
    if (value.length > max) {
      this.fail(property, `must be at most ${max} characters, got ${value.length}`);
    }
  }

  /**
   * A name of the API's pattern, `min` to `max` characters. `kept` is the name the
   * stack already holds: the length rule judges only a name about to be written, so a
   * stack made before the rule still previews with no change.
   */
  name(property: string, value: unknown, min = 1, max: number = MAX_LENGTH.name, kept?: unknown) {
    const name = this.requiredString(property, value);
    if (name === undefined || isUnknown(name)) return name;
    if (!NAME_PATTERN.test(name)) {
      this.fail(
        property,
        `must match ${NAME_PATTERN.source} (lowercase letters, digits, space, '.', '_', '-'), got ${quoted(name)}`,
      );
    }
    const length = [...name].length;
    if (min <= 1) this.maxLength(property, name, max);
    else if (name !== kept && (length < min || length > max)) {
      this.fail(property, `must be ${min} to ${max} characters, got ${length}`);
    }
    return name;
  }

  description(property: string, value: unknown): string {
    return this.optionalString(property, value, MAX_LENGTH.description);
  }

  /**
   * The members of an object named within a group, in this order: `parentUid`, `name`
   * (3 to 63 characters, the rule of groups, identities and identity providers) and
   * `description`. The length rule spares a name already live: the one `olds` (the
   * inputs the stack holds) have, or, before the stack holds it, the name of an object
   * adopted (`adoptUid`), which the exporter writes as it reads it.
   */
  namedInGroup(news: RawInputs, olds?: RawInputs) {
    const adopting =
      typeof news.adoptUid === "string" &&
      uids.CHILD_UID_PATTERN.test(news.adoptUid) &&
      uids.parentOf(news.adoptUid) === news.parentUid;
    return {
      parentUid: this.groupUid("parentUid", news.parentUid),
      name: this.name(
        "name",
        news.name,
        NAME_LENGTH.min,
        NAME_LENGTH.max,
        // The stack's own name first: once adopted, a rename is judged like any other.
        olds?.name !== undefined ? olds.name : adopting ? news.name : undefined,
      ),
      description: this.description("description", news.description),
    };
  }

  /** A required uid of the given shape. */
  uid(property: string, value: unknown, pattern: RegExp, shape: string): string | undefined {
    const uid = this.requiredString(property, value);
    if (uid === undefined || isUnknown(uid)) return uid;
    if (!pattern.test(uid)) this.fail(property, `must be ${shape}, got ${quoted(uid)}`);
    return uid;
  }

  /** A required uid of the root organisation or of a group. */
  groupUid(property: string, value: unknown): string | undefined {
    return this.uid(property, value, uids.GROUP_UID_PATTERN, uids.GROUP_UID_SHAPE);
  }

  /** A required uid of an object directly in a group (an identity, a provider, ...). */
  childUid(property: string, value: unknown): string | undefined {
    return this.uid(property, value, uids.CHILD_UID_PATTERN, uids.CHILD_UID_SHAPE);
  }

  /** A required role uid: a built-in role's (40 hex) or a custom role's. */
  roleUid(property: string, value: unknown): string | undefined {
    return this.uid(property, value, uids.ROLE_UID_PATTERN, uids.ROLE_UID_SHAPE);
  }

  /** An `https` URL; `http` only on loopback (the emulator). */
  httpsUrl(property: string, value: unknown): string | undefined {
    const url = this.requiredString(property, value);
    if (url !== undefined && !isUnknown(url)) this.issuerUrl(property, url);
    return url;
  }

  /**
   * An optional object; absent gives undefined. The unknown marker gives `{}` (its
   * members are then unknown too, and pass).
   */
  optionalObject(property: string, value: unknown): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (isUnknown(value)) return {};
    if (!isRecord(value)) {
      this.fail(
        property,
        `must be an object, got ${Array.isArray(value) ? "array" : typeof value}`,
      );
      return undefined;
    }
    return value;
  }

  /**
   * An optional array of strings; absent means `[]`. The unknown marker (the whole list
   * or one element) is kept, so the caller can skip rules that need the value.
   */
  stringArray(property: string, value: unknown): string[] {
    if (value === undefined || value === null) return [];
    if (isUnknown(value)) return [value as string];
    if (!Array.isArray(value)) {
      this.fail(property, `must be a list of strings, got ${typeof value}`);
      return [];
    }
    const strings: string[] = [];
    value.forEach((item, index) => {
      if (typeof item !== "string") {
        this.fail(`${property}[${index}]`, `must be a string, got ${typeof item}`);
      } else {
        strings.push(item);
      }
    });
    return strings;
  }

  /** An optional string where `""` counts as unset; undefined when unset or not a string. */
  optionalSetString(property: string, value: unknown): string | undefined {
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string") {
      this.fail(property, `must be a string, got ${typeof value}`);
      return undefined;
    }
    return value;
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
    const uid = this.childUid("adoptUid", value);
    if (uid === undefined || isUnknown(uid) || parentUid === undefined || isUnknown(parentUid)) {
      return uid;
    }
    if (uids.CHILD_UID_PATTERN.test(uid) && uids.parentOf(uid) !== parentUid) {
      this.fail("adoptUid", `must be a direct child of ${parentProperty} ${parentUid}, got ${uid}`);
    }
    return uid;
  }

  /** An issuer already known to be a string: the provider's issuer rule. */
  issuerUrl(property: string, issuer: string): void {
    this.maxLength(property, issuer, MAX_LENGTH.issuer);
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      this.fail(property, `must be an absolute https URL, got ${quoted(issuer)}`);
      return;
    }
    const allowed =
      url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
    if (!allowed) {
      this.fail(
        property,
        `must be an https URL (http only on loopback: localhost, 127.0.0.0/8, [::1]), got ${quoted(issuer)}`,
      );
    }
  }

  /**
   * An RE2 pattern, compiled with re2js as the API compiles it (JavaScript's RegExp
   * accepts lookaround and backreferences, which RE2 refuses, and refuses `(?P<name>`,
   * which RE2 accepts), so a pattern the API would refuse fails in preview.
   */
  pattern(property: string, pattern: string): void {
    if (isUnknown(pattern)) return;
    if (pattern.length > MAX_LENGTH.pattern) {
      this.maxLength(property, pattern, MAX_LENGTH.pattern);
      return;
    }
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(pattern);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.fail(property, `not a valid RE2 pattern: ${message}`);
      return;
    }
    const cost = patternCost(compiled);
    if (cost > MAX_PATTERN_COST) {
      this.fail(
        property,
        `compiles to a program of ${cost} units, more than ${MAX_PATTERN_COST} (a large class such as \\pL repeated many times); write a smaller pattern`,
      );
    }
  }

  /**
   * A JWKS document as a string: at least one public key of `kty` EC, RSA or OKP, none
   * with private members. A private key is refused here, before it is ever sent; its
   * members are named, never their values.
   */
  issuerKeys(property: string, value: unknown): string | undefined {
    const text = this.requiredString(property, value);
    if (text === undefined || isUnknown(text)) return text;
    if (text.length > MAX_LENGTH.issuerKeys) {
      this.maxLength(property, text, MAX_LENGTH.issuerKeys);
      return text;
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      document = undefined;
    }
    const keys = isRecord(document) ? document.keys : undefined;
    if (!Array.isArray(keys)) {
      this.fail(property, 'must be a JWKS document {"keys":[...]} as a string');
      return text;
    }
    if (keys.length === 0) this.fail(property, "must hold at least one public key");
    keys.forEach((key: unknown, index) => {
      if (!isRecord(key)) {
        this.fail(property, `key ${index} must be an object`);
        return;
      }
      if (typeof key.kty !== "string" || !KEY_TYPES.includes(key.kty)) {
        this.fail(property, `key ${index}: kty must be EC, RSA or OKP`);
      }
      const secret = PRIVATE_KEY_MEMBERS.filter((member) => key[member] !== undefined);
      if (secret.length > 0) {
        this.fail(
          property,
          `key ${index} holds private key members (${secret.join(", ")}); only public keys may be registered`,
        );
      }
      // A key no token could be verified with: the service refuses it at create.
      const curves = SIGNING_CURVES[key.kty as string];
      if (curves && !curves.includes(String(key.crv))) {
        this.fail(
          property,
          `key ${index}: crv ${JSON.stringify(String(key.crv).slice(0, 20))} is not accepted for ${key.kty} keys (one of ${curves.join(", ")})`,
        );
      }
      const bits = key.kty === "RSA" ? modulusBits(key.n) : undefined;
      if (bits !== undefined && bits < MIN_RSA_BITS) {
        this.fail(
          property,
          `key ${index}: an RSA key must have at least ${MIN_RSA_BITS} bits (got ${bits})`,
        );
      }
    });
    return text;
  }

  /** `staticKeys.audiences`: empty, or exactly one non-empty string; absent means `[]`. */
  audiences(property: string, value: unknown): string[] {
    if (value === undefined || value === null) return [];
    if (isUnknown(value)) return [UNKNOWN_VALUE];
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== "string")) {
      this.fail(property, "must be a list of strings");
      return [];
    }
    if (value.length > 1)
      this.fail(property, `must hold at most one audience, got ${value.length}`);
    value.forEach((entry: string, index) => {
      if (entry === "") this.fail(`${property}[${index}]`, "must not be empty");
      else if (!isUnknown(entry)) this.maxLength(`${property}[${index}]`, entry, MAX_LENGTH.value);
    });
    return [...value];
  }

  /**
   * An optional RFC 3339 time, answered in the form the API answers it (milliseconds,
   * `Z`), so a time written with an offset or without milliseconds compares equal to
   * the stored one. Whether it lies in the allowed window is the API's to judge at the
   * write: checked here, a time that has passed would fail every later preview.
   */
  timestamp(property: string, value: unknown): string | undefined {
    const text = this.optionalSetString(property, value);
    if (text === undefined || isUnknown(text)) return text;
    const ms = RFC3339.test(text) ? Date.parse(text.toUpperCase()) : Number.NaN;
    if (Number.isNaN(ms)) {
      this.fail(
        property,
        `must be an RFC 3339 time such as "2027-01-31T00:00:00Z", got ${quoted(text)}`,
      );
      return undefined;
    }
    return new Date(ms).toISOString();
  }
}

/** Keeps `adoptUid` only when set, so inputs without it stay free of the key. */
export function withAdoptUid<T extends object>(inputs: T, adoptUid: string | undefined): T {
  return adoptUid === undefined ? inputs : { ...inputs, adoptUid };
}

/** `adoptUid` as given: undefined when absent or empty. */
export function givenAdoptUid(value: unknown): unknown {
  return value === undefined || value === null || value === "" ? undefined : value;
}

/**
 * Keys no map input may hold: `__proto__` names an object's prototype, and
 * `constructor` and `prototype` name members every object inherits, so an entry under
 * them is silently dropped or read as something else on its way to the service.
 */
export const MAGIC_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

/** The failure for a map key among `MAGIC_KEYS`, or undefined. */
export function magicKeyRule(key: string): string | undefined {
  return MAGIC_KEYS.includes(key)
    ? `a key must not be ${MAGIC_KEYS.map((k) => `"${k}"`).join(", ")} (got "${key}")`
    : undefined;
}

// The API's bounds on patterns (their length and compiled program) and on claim maps,
// stated once for the provider and the emulator.
export { MAX_CLAIM_ENTRIES, MAX_PATTERN_COST, patternCost };
