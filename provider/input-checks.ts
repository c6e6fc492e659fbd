/**
 * Input checks of the Role, IdentityProvider, GroupInvite and AccountAssociation
 * resources, run by `check` before any request reaches the API. Like `validation.ts`
 * (whose patterns and helpers they reuse), every failure names the property and the
 * rule it broke, and a value not known yet in a preview passes.
 */
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { isUnknown, MAX_LENGTH, NAME_PATTERN, quoted } from "./validation";

/** True for an `http` host the emulator may run on: localhost, 127.0.0.0/8 or [::1]. */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** A plain object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

  /** A name of the API's pattern, `min` to `max` characters. */
  name(property: string, value: unknown, min = 1, max: number = MAX_LENGTH.name) {
    const name = this.requiredString(property, value);
    if (name === undefined || isUnknown(name)) return name;
    if (!NAME_PATTERN.test(name)) {
      this.fail(
        property,
        `must match ${NAME_PATTERN.source} (lowercase letters, digits, space, '.', '_', '-'), got ${quoted(name)}`,
      );
    }
    if (name.length < min || name.length > max) {
      this.fail(property, `must be ${min} to ${max} characters, got ${name.length}`);
    }
    return name;
  }

  description(property: string, value: unknown): string {
    return this.optionalString(property, value, MAX_LENGTH.description);
  }

  /** A required uid of the given shape. */
  uid(property: string, value: unknown, pattern: RegExp, shape: string): string | undefined {
    const uid = this.requiredString(property, value);
    if (uid === undefined || isUnknown(uid)) return uid;
    if (!pattern.test(uid)) this.fail(property, `must be ${shape}, got ${quoted(uid)}`);
    return uid;
  }

  /** An `https` URL; `http` only on loopback (the emulator). */
  httpsUrl(property: string, value: unknown): string | undefined {
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
}

/** Keeps `adoptUid` only when set, so inputs without it stay free of the key. */
export function withAdoptUid<T extends object>(inputs: T, adoptUid: string | undefined): T {
  return adoptUid === undefined ? inputs : { ...inputs, adoptUid };
}

/** `adoptUid` as given: undefined when absent or empty. */
export function givenAdoptUid(value: unknown): unknown {
  return value === undefined || value === null || value === "" ? undefined : value;
}
