/**
 * The language of the shape tables (`shapes/<kind>.ts`): what one property's value is,
 * what an input or an output of a resource type is, and the table of one type. Below
 * both `checks/` and `handlers/`: it imports nothing of the provider.
 *
 * A value's type is precise enough for a Pulumi package schema: a string (with its
 * values when it is an enum), an integer, a number, a boolean, an array of T, a map of
 * T (string keys, or only some: `keys`, each optional), or an object with named
 * properties.
 */

/** The type of one value. */
export type ValueShape =
  | { readonly type: "string"; readonly enum?: readonly string[] }
  | { readonly type: "integer" }
  | { readonly type: "number" }
  | { readonly type: "boolean" }
  | { readonly type: "array"; readonly items: ValueShape }
  | { readonly type: "map"; readonly values: ValueShape; readonly keys?: readonly string[] }
  | { readonly type: "object"; readonly properties: Readonly<Record<string, PropertyShape>> };

/**
 * One property of an object value, or one input of a resource type: its type, whether
 * the program must set it, what a change of it does, its default and one line of doc.
 */
export interface PropertyShape {
  readonly shape: ValueShape;
  /** Doc line for users (what the argument is). */
  readonly doc: string;
  /** The program must set it (after the class's defaults are applied, for an input). */
  readonly required?: boolean;
  /**
   * A change replaces the object: `true` for any change of value, `"presence"` when
   * only setting or removing it does (an identity's kind); absent: updated in place, or
   * (`adoptUid`) read only at creation.
   */
  readonly replaces?: true | "presence";
  /**
   * The value it takes when the program leaves it out: an input with a default is
   * always present after `check`. The resource class applies a top-level input's
   * default itself unless {@link defaultByCheck}.
   */
  readonly default?: unknown;
  /** The default is filled in by `check` only, never by the class (a secret left out). */
  readonly defaultByCheck?: true;
  /** Always a Pulumi secret, in inputs and in state. */
  readonly secret?: boolean;
  /**
   * Other types the program may also write, which `check` turns into `shape` (a
   * lifetime in seconds for a duration string, an installation id as a number).
   */
  readonly alsoAccepts?: readonly ValueShape[];
}

/** One property of a resource's state (an output). */
export interface OutputShape {
  readonly shape: ValueShape;
  readonly doc: string;
  /** Present in state after every create (else only sometimes, e.g. one kind's member). */
  readonly setByCreate: boolean;
  /** An update may change it (an updatable input, `updateTime`). */
  readonly changedByUpdate: boolean;
  /** Always stored as a Pulumi secret. */
  readonly secret?: boolean;
  /**
   * Kept in state only, not declared on the resource class (nor registered as one of its
   * outputs): `createTime` of a `Subscription`, which the API never answers.
   */
  readonly stateOnly?: boolean;
}

/** The table of one resource type. */
export interface KindShape {
  /** The type's name: the last part of its type token (`Group`). */
  readonly type: string;
  /**
   * The runtime's export the type's provider text calls (`group`): stored in every
   * resource's state, so it never changes once released (`shim.ts`).
   */
  readonly runtimeExport: string;
  /** A resource of this type in a group makes the API refuse the group's delete. */
  readonly blocksGroupDelete?: true;
  /** One line on what the resource is. */
  readonly doc: string;
  /** What the program passes (after `check`), in the order of the class's arguments. */
  readonly inputs: Readonly<Record<string, PropertyShape>>;
  /** What state holds, in the order the class declares (and registers) them. */
  readonly outputs: Readonly<Record<string, OutputShape>>;
}

/** Type-checks a table while keeping its literal types (for {@link InputsOf}). */
export function kindShape<const T extends KindShape>(table: T): T {
  return table;
}

/* The few value shapes the tables write often. */
export const STRING = { type: "string" } as const;
export const BOOLEAN = { type: "boolean" } as const;
export const INTEGER = { type: "integer" } as const;
export const STRING_ARRAY = { type: "array", items: STRING } as const;
export const STRING_MAP = { type: "map", values: STRING } as const;

/** A string of these values. */
export function enumOf<const E extends readonly string[]>(values: E) {
  return { type: "string", enum: values } as const;
}

/** An object of these properties. */
export function objectOf<const P extends Readonly<Record<string, PropertyShape>>>(properties: P) {
  return { type: "object", properties } as const;
}

/** The shared output of an object's uid, its creation and its last change. */
export const UID_OUTPUT = (doc: string) =>
  ({ shape: STRING, doc, setByCreate: true, changedByUpdate: false }) as const;
export const CREATE_TIME = {
  shape: STRING,
  doc: "When it was created (RFC 3339, milliseconds, `Z`).",
  setByCreate: true,
  changedByUpdate: false,
} as const;
export const UPDATE_TIME = {
  shape: STRING,
  doc: "When it last changed.",
  setByCreate: true,
  changedByUpdate: true,
} as const;

/** A string the program must set. */
export const REQUIRED_STRING = (doc: string) => ({ shape: STRING, doc, required: true }) as const;

/** The input naming where an object lives: required, and a change replaces the object. */
export const CONTAINER = (doc: string) =>
  ({ shape: STRING, doc, required: true, replaces: true }) as const;

/** A name input: the API's name pattern, `rule` (its length, ...) after it. */
export const NAME = (rule = "at most 128 characters") =>
  ({
    shape: STRING,
    doc: `Name, matching \`^[a-z0-9 ._-]{1,}$\`, ${rule}.`,
    required: true,
  }) as const;

/** The free text of a named object, `""` when left out. */
export const DESCRIPTION = {
  shape: STRING,
  doc: "Free text, at most 1024 characters.",
  default: "",
} as const;

/** The usual `adoptUid` input: read only at creation. */
export const ADOPT_UID = (doc: string) => ({ shape: STRING, doc }) as const;

/** True when an input is always present after `check` (required, or defaulted). */
type AlwaysPresent<P> = P extends { required: true } | { default: NonNullable<unknown> }
  ? true
  : false;

/** The output that echoes an input, as state stores it. */
export interface Echoed<P extends PropertyShape, U extends boolean> {
  readonly shape: P["shape"];
  readonly doc: string;
  readonly setByCreate: AlwaysPresent<P>;
  readonly changedByUpdate: U;
  readonly secret?: boolean;
}

/**
 * The output that echoes `input`: present after every create when the input always is,
 * secret when it is, changed by an update when `changedByUpdate`.
 */
export function echoed<const P extends PropertyShape, const U extends boolean>(
  input: P,
  changedByUpdate: U,
): Echoed<P, U> {
  const setByCreate = (input.required === true || input.default !== undefined) as AlwaysPresent<P>;
  return {
    shape: input.shape,
    doc: input.doc,
    setByCreate,
    changedByUpdate,
    ...(input.secret ? { secret: true } : {}),
  };
}

/* -------------------------------------------------------------------------------------
 * Plain TypeScript types from a table, to tie each kind's `XInputs`/`XOutputs` to it.
 */

/** The plain value of a {@link ValueShape}. */
export type ValueOf<S> = S extends { type: "string"; enum: readonly (infer E)[] }
  ? E
  : S extends { type: "string" }
    ? string
    : S extends { type: "integer" | "number" }
      ? number
      : S extends { type: "boolean" }
        ? boolean
        : S extends { type: "array"; items: infer I }
          ? ValueOf<I>[]
          : S extends { type: "map"; values: infer V; keys: readonly (infer K)[] }
            ? Partial<Record<K & string, ValueOf<V>>>
            : S extends { type: "map"; values: infer V }
              ? Record<string, ValueOf<V>>
              : S extends { type: "object"; properties: infer P }
                ? PropertiesOf<P>
                : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RequiredKeys<P> = {
  [K in keyof P]: P[K] extends { required: true } | { default: NonNullable<unknown> } ? K : never;
}[keyof P];

/**
 * The object a record of {@link PropertyShape}s describes after `check`: the required
 * ones and those with a default are always present.
 */
export type PropertiesOf<P> = Simplify<
  { [K in RequiredKeys<P>]: P[K] extends { shape: infer S } ? ValueOf<S> : never } & {
    [K in Exclude<keyof P, RequiredKeys<P>>]?: P[K] extends { shape: infer S } ? ValueOf<S> : never;
  }
>;

/** Inputs after `check`, as a table describes them. */
export type InputsOf<T extends KindShape> = PropertiesOf<T["inputs"]>;

type CreatedKeys<O> = { [K in keyof O]: O[K] extends { setByCreate: true } ? K : never }[keyof O];

/** State, as a table describes it: what every create sets is always present. */
export type OutputsOf<T extends KindShape> = Simplify<
  {
    [K in CreatedKeys<T["outputs"]>]: T["outputs"][K] extends { shape: infer S }
      ? ValueOf<S>
      : never;
  } & {
    [K in Exclude<keyof T["outputs"], CreatedKeys<T["outputs"]>>]?: T["outputs"][K] extends {
      shape: infer S;
    }
      ? ValueOf<S>
      : never;
  }
>;

/* -------------------------------------------------------------------------------------
 * What the resource classes take from a table.
 */

/** The outputs a resource class declares and registers, in the table's order. */
export function classOutputs(table: KindShape): string[] {
  return Object.entries(table.outputs)
    .filter(([, output]) => output.stateOnly !== true)
    .map(([name]) => name);
}

/** The value of each input the program may leave out, where the class gives one. */
export function classDefaults(table: KindShape): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(table.inputs)
      .filter(([, input]) => input.default !== undefined && input.defaultByCheck !== true)
      .map(([name, input]) => [name, input.default]),
  );
}

/** The outputs always stored as secrets. */
export function secretOutputs(table: KindShape): string[] {
  return Object.entries(table.outputs)
    .filter(([, output]) => output.secret === true)
    .map(([name]) => name);
}
