/**
 * Checks of the answers the SDK decodes: every field the SDK hands out has the type
 * its interface promises, or the answer is refused with the field named. One reader
 * per resource shape (in `sdk/resources/`) uses these; nothing else casts a body.
 */

/** An answer that does not have the shape of the resource it should carry. */
export class ShapeError extends Error {
  override name = "ShapeError";
  constructor(
    /** Dotted path of the offending field, e.g. `group.uid`. */
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}

/**
 * At most this many items in one array of an answer (a page's items, a record's list
 * field): more is no answer of the API, and is refused rather than held.
 */
export const MAX_ARRAY_ITEMS = 10_000;

/** Describes a JSON value's kind for messages, never its content. */
export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The members of `T` that a string may be written to. */
type StringMember<T> = { [K in keyof T]-?: string extends T[K] ? K : never }[keyof T] & string;

/** Reads the fields of one JSON object, naming each failure by its path. */
export class ShapeReader {
  constructor(
    readonly raw: Record<string, unknown>,
    /** Path of this object in messages, e.g. `group` or `roleBinding.identity`. */
    readonly at: string,
  ) {}

  static of(value: unknown, at: string): ShapeReader {
    if (!isRecord(value)) throw new ShapeError(at, `expected an object, got ${kindOf(value)}`);
    return new ShapeReader(value, at);
  }

  #fail(field: string, problem: string): never {
    throw new ShapeError(`${this.at}.${field}`, problem);
  }

  /** A required non-empty string. */
  string(field: string): string {
    const value = this.raw[field];
    if (value === undefined) this.#fail(field, "missing (expected a string)");
    if (typeof value !== "string") this.#fail(field, `expected a string, got ${kindOf(value)}`);
    if (value === "") this.#fail(field, "empty");
    return value;
  }

  /** A string that may be absent (then `fallback`) or empty. */
  optionalString(field: string): string | undefined;
  optionalString(field: string, fallback: string): string;
  optionalString(field: string, fallback?: string): string | undefined {
    const value = this.raw[field];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "string") this.#fail(field, `expected a string, got ${kindOf(value)}`);
    return value;
  }

  /** A required timestamp (ISO 8601). */
  timestamp(field: string): string {
    const value = this.string(field);
    if (Number.isNaN(Date.parse(value)))
      this.#fail(field, `not a timestamp: ${JSON.stringify(value.slice(0, 40))}`);
    return value;
  }

  optionalTimestamp(field: string): string | undefined {
    const value = this.optionalString(field);
    if (value === undefined || value === "") return undefined;
    if (Number.isNaN(Date.parse(value)))
      this.#fail(field, `not a timestamp: ${JSON.stringify(value.slice(0, 40))}`);
    return value;
  }

  /**
   * Sets on `target` each of `fields` the answer carries as a timestamp; one that is
   * absent or `""` stays unset there.
   */
  copyTimestamps<T extends object>(target: T, ...fields: StringMember<T>[]): void {
    for (const field of fields) {
      const value = this.optionalTimestamp(field);
      if (value !== undefined) (target as Record<string, unknown>)[field] = value;
    }
  }

  optionalBoolean(field: string, fallback: boolean): boolean {
    const value = this.raw[field];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "boolean") this.#fail(field, `expected a boolean, got ${kindOf(value)}`);
    return value;
  }

  /** An array of at most {@link MAX_ARRAY_ITEMS} items, `[]` when absent. */
  array(field: string): unknown[] {
    const value = this.raw[field];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) this.#fail(field, `expected an array, got ${kindOf(value)}`);
    if (value.length > MAX_ARRAY_ITEMS) {
      this.#fail(field, `more than ${MAX_ARRAY_ITEMS} items (${value.length})`);
    }
    return value;
  }

  /** An array of strings (at most {@link MAX_ARRAY_ITEMS}), `[]` when absent. */
  stringArray(field: string): string[] {
    const value = this.array(field);
    value.forEach((item, index) => {
      if (typeof item !== "string")
        this.#fail(`${field}[${index}]`, `expected a string, got ${kindOf(item)}`);
    });
    return value as string[];
  }

  /** A nested object, required. */
  object(field: string): ShapeReader {
    const value = this.raw[field];
    if (value === undefined) this.#fail(field, "missing (expected an object)");
    return ShapeReader.of(value, `${this.at}.${field}`);
  }

  /** A nested object that may be absent (then `{}`). */
  optionalObject(field: string): ShapeReader {
    const value = this.raw[field];
    if (value === undefined || value === null) return new ShapeReader({}, `${this.at}.${field}`);
    return ShapeReader.of(value, `${this.at}.${field}`);
  }
}

/** Int64 counters travel as strings; anything else than an integer is refused. */
export function int64Field(value: unknown, field: string, fallback = 0): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "number" && Number.isSafeInteger(value)) return value;
  if (typeof value === "string" && /^-?\d{1,16}$/.test(value)) return Number(value);
  throw new ShapeError(field, `expected an integer (or its string), got ${kindOf(value)}`);
}
