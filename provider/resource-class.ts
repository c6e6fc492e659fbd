/**
 * What every resource class of this package shares, written once: the type token a
 * policy pack matches on, `isInstance` that works across copies of the package, the
 * static `get` that reads an existing object into a stack, and the registration of
 * every output under its name.
 *
 * A resource class describes itself with {@link resourceKind}, extends the base
 * {@link declaring} makes for its kind (its type token, and its outputs declared at type
 * level from its state type, `GroupOutputs` beside its table), and passes its kind and
 * its resolved-at-registration inputs to the base constructor through
 * {@link registration}:
 *
 * ```ts
 * const GROUP = resourceKind(GROUP_SHAPE); // its table, `shapes/group.ts`
 * export class Group extends declaring<GroupOutputs>(GROUP) {
 *   constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
 *     super(...registration(GROUP, name, args, opts));
 *     uidFromId(this);
 *   }
 * }
 * ```
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { CONFIG_NAMESPACE } from "../sdk/settings";
import { checkedProviderSettings } from "./config";
import { staleBuild, staleBuildMessage } from "./fresh-build";
import { classDefaults, classOutputs, type KindShape, secretOutputs } from "./shapes/table";
import { providerText, RUNTIME_ENTRY } from "./shim";
import { UserError } from "./user-error";

/** The output every class answers from its `id` ({@link uidFromId}). */
const UID = "uid";

/** The module every resource of this package registers under. */
export const MODULE = "irm";

/** The type token of one resource type: `pulumi-nodejs:dynamic/irm:<type>`. */
export function typeToken(type: string): string {
  return `pulumi-nodejs:dynamic/${MODULE}:${type}`;
}

/** One resource type: its name, its provider text and every output it has. */
export interface ResourceKind {
  /** The type's name, e.g. `Group`; the last part of the type token. */
  readonly type: string;
  /** The type token, `pulumi-nodejs:dynamic/irm:<type>`. */
  readonly token: string;
  /** The provider text stored as `__provider` (`shim.ts`: it requires the runtime entry). */
  readonly providerText: string;
  /**
   * Every property the class declares as an output, inputs included. Each is registered
   * (as "not known yet" until the engine answers), because the engine's answer only
   * fills properties that were registered: one left out stays undefined forever, most
   * visibly after `get`, which registers nothing else. The exception is `uid`, which
   * {@link uidFromId} answers from the resource's `id`.
   */
  readonly outputs: readonly string[];
  /** The value of each optional input the program leaves out (or sets to null). */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Outputs always stored as secrets (a client secret, an invite code). */
  readonly secretOutputs: readonly string[];
}

/**
 * Describes a resource type for {@link IrmResource} from its table: the type's provider
 * text (from its runtime export's name), the outputs the class declares (all but the
 * state-only ones), the defaults of its inputs and its secret outputs.
 */
export function resourceKind(table: KindShape): ResourceKind {
  return {
    type: table.type,
    token: typeToken(table.type),
    providerText: providerText(table.runtimeExport),
    outputs: classOutputs(table),
    defaults: classDefaults(table),
    secretOutputs: secretOutputs(table),
  };
}

/**
 * True when `obj` is a resource registered under `token`. It compares type tokens, not
 * prototypes, so a resource made by another copy of this package (two versions in one
 * program, or a policy pack's own copy) is recognised too.
 */
export function isResourceOfType(obj: unknown, token: string): boolean {
  return (
    typeof obj === "object" &&
    obj !== null &&
    (obj as { __pulumiType?: unknown }).__pulumiType === token
  );
}

/** The static side `isInstance` and `get` need from a concrete class. */
interface ConcreteClass<T, Args> {
  readonly __pulumiType: string;
  new (name: string, args: Args, opts?: pulumi.CustomResourceOptions): T;
}

let runtimeChecked = false;

/**
 * Throws, before anything is registered, when the provider host could not load the
 * provider texts: it resolves `pulumi-irm/provider/runtime` from the program's folder
 * (its working directory, the program's too), so the package must be found from there.
 * A package that only another dependency installs, out of the program's reach (pnpm
 * keeps such a package in its `.pnpm` folder), is not.
 */
function checkRuntimeReachable(): void {
  if (runtimeChecked) return;
  const folder = process.cwd();
  try {
    // As from a file of that folder: `require.resolve` with `paths` would first find the
    // package from this very file (a package resolves its own name), wherever it is.
    createRequire(path.join(folder, "index.js")).resolve(RUNTIME_ENTRY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "an error";
    throw new Error(
      `pulumi-irm: the Pulumi provider host loads this package as \`${RUNTIME_ENTRY}\` from ` +
        `the program's folder ${folder}, and it does not resolve there (${code}). ` +
        "Add pulumi-irm to the program's own dependencies (the package.json of that folder).",
    );
  }
  runtimeChecked = true;
}

/** What the program's settings check found: nothing yet, or the error it threw. */
let settingsChecked: { error?: unknown } | undefined;

/**
 * Throws, before the first resource is registered, what `checkedProviderSettings`
 * refuses in the program's `irm:` configuration and environment: the program stops
 * there with one message, in preview as at `up`, and no provider is ever configured
 * with them (the provider host would report it once per resource type, with its
 * stack). Under `runtime.setMocks` nothing is sent anywhere, and nothing is checked.
 */
function checkSettingsOnce(): void {
  if (settingsChecked === undefined) {
    settingsChecked = {};
    if (!runningUnderMocks()) {
      const config = new pulumi.Config(CONFIG_NAMESPACE);
      const prefix = `${CONFIG_NAMESPACE}:`;
      try {
        checkedProviderSettings((key) => config.get(key.slice(prefix.length)));
      } catch (error) {
        settingsChecked.error = error;
      }
    }
  }
  if (settingsChecked.error !== undefined) throw settingsChecked.error;
}

/** What the check of the program's build found: nothing yet, or the error it threw. */
let buildChecked: { error?: unknown } | undefined;

/**
 * Throws, before the first resource is registered, when the program runs compiled
 * JavaScript older than its TypeScript sources (`fresh-build.ts`): a forgotten build
 * must not deploy the old program. Under `runtime.setMocks` nothing is deployed, and
 * nothing is checked.
 */
function checkBuildOnce(): void {
  if (buildChecked === undefined) {
    buildChecked = {};
    if (!runningUnderMocks()) {
      const folder = process.cwd();
      const stale = staleBuild(Object.keys(require.cache), folder);
      if (stale) buildChecked.error = new UserError(staleBuildMessage(stale, folder));
    }
  }
  if (buildChecked.error !== undefined) throw buildChecked.error;
}

/** Whether the program runs under `pulumi.runtime.setMocks` (its monitor holds the mocks). */
function runningUnderMocks(): boolean {
  const runtime = pulumi.runtime as unknown as { getMonitor?: () => unknown };
  const monitor = runtime.getMonitor?.();
  return typeof monitor === "object" && monitor !== null && "mocks" in monitor;
}

/**
 * What every resource class of this package has: the statics below and the instance
 * type. Classes extend it through {@link IrmResource}, which is this class without a
 * constructor of its own.
 */
export abstract class IrmResourceBase extends pulumi.CustomResource {
  /** Type token a policy pack matches on; each class sets its own. */
  static readonly __pulumiType: string = "";

  /**
   * True when `obj` is a resource of this class, even one created by another copy of
   * this package (compared by type token). Call it on a class: `Group.isInstance(x)`.
   */
  static override isInstance<T>(
    this: { readonly __pulumiType: string; readonly prototype: T },
    obj: unknown,
  ): obj is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass it is called on, whose token counts.
    return isResourceOfType(obj, this.__pulumiType);
  }

  /**
   * Reads an existing object into the stack without managing it: its outputs come
   * from the API (one GET, through the provider, in preview too), and `pulumi destroy`
   * leaves it alone. `id` is the object's uid. Fails when no such object exists or the
   * token may not read it. To manage an existing object instead, use `adoptUid` where
   * the class offers it.
   */
  static get<T, Args>(
    this: ConcreteClass<T, Args>,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): T {
    // No arguments: with `opts.id` set, the base constructor registers only the outputs.
    return new this(name, undefined as Args, { ...opts, id });
  }
}

/**
 * Base of every resource class of this package: a custom resource of the Node.js dynamic
 * provider (`pulumi-nodejs:dynamic/irm:<type>`, as `pulumi.dynamic.Resource` registers),
 * whose `__provider` input is the type's short text of `shim.ts` instead of a serialized
 * object. `pulumi.dynamic.Resource.isInstance` (that of every custom resource) is true of
 * it; `instanceof pulumi.dynamic.Resource` is not.
 *
 * It is {@link IrmResourceBase} (statics, prototype, `instanceof`) whose construction is
 * `pulumi.CustomResource`'s own, with no constructor of ours in between: a bound copy of
 * `pulumi.CustomResource` has no frame on the call stack. The engine stores with every
 * resource the frames `@pulumi/pulumi`'s `Resource` constructor takes (`stackTrace`, and
 * the first as `sourcePosition`), less its own, `CustomResource`'s and the one constructor
 * that calls it. A base constructor of ours, even a default one (`pulumi up` runs
 * programs with V8's inspector on, which keeps a frame for those), would push the class's
 * constructor (`new Group`, with the package's path) into every resource's state and
 * make `sourcePosition` point into the package instead of the program's line.
 */
export const IrmResource: typeof IrmResourceBase = withoutOwnFrame(IrmResourceBase);
export type IrmResource = IrmResourceBase;

/**
 * The outputs a resource class declares, from its kind's state type `State`: each
 * member as `pulumi.Output` of its type in state, `undefined` included where state may
 * lack it. Hovering one shows its doc in `State`.
 */
export type DeclaredOutputs<State> = {
  readonly [K in keyof State]-?: pulumi.Output<State[K]>;
};

/**
 * The arguments a class takes for plain values `T` (a kind's inputs after `check`, or
 * an SDK shape): each member as a `pulumi.Input`, optional where it is in `T` or named
 * in `Defaulted` (a member `check` fills in when the program leaves it out), a list's
 * elements and a string map's values each an input too. Hovering one shows its doc in
 * `T`.
 */
export type ArgsOf<T, Defaulted extends keyof T = never> = {
  readonly [K in keyof WithOptional<T, Defaulted>]: ArgOf<
    Exclude<WithOptional<T, Defaulted>[K], undefined>
  >;
};

/** `T` with the members named in `K` optional (a program may leave out what has a default). */
type WithOptional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** The name and description every named object takes (updated in place). */
export interface NamedArgs {
  /** Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters. Updated in place. */
  readonly name: pulumi.Input<string>;
  /** Free text, at most 1024 characters; defaults to `""`. Updated in place. */
  readonly description?: pulumi.Input<string>;
}

/** One argument of {@link ArgsOf}. */
type ArgOf<V> = V extends readonly (infer E)[]
  ? pulumi.Input<pulumi.Input<E>[]>
  : V extends Record<string, infer R>
    ? string extends keyof V
      ? pulumi.Input<Record<string, pulumi.Input<R>>>
      : pulumi.Input<V>
    : pulumi.Input<V>;

/** {@link IrmResource}, typed as the base of a class whose instances carry `Outputs`. */
export type IrmResourceWith<Outputs> = Omit<typeof IrmResourceBase, "prototype"> &
  (abstract new (
    ...args: ConstructorParameters<typeof IrmResourceBase>
  ) => IrmResourceBase & Outputs) & { readonly prototype: IrmResourceBase & Outputs };

/**
 * The base of the resource class of `kind`: {@link IrmResource} again (a bound
 * `pulumi.CustomResource`, no constructor of ours, see there why), whose static
 * `__pulumiType` is the kind's token, typed as declaring the outputs of state `State`
 * (less the members named in `StateOnly`, which the table keeps in state only). A class
 * extends it instead of setting its token and writing each output out as
 * `declare readonly x: pulumi.Output<T>`.
 */
export function declaring<State, StateOnly extends keyof State = never>(
  kind: ResourceKind,
): IrmResourceWith<DeclaredOutputs<Omit<State, StateOnly>>> {
  const base = withoutOwnFrame(IrmResourceBase);
  Object.defineProperty(base, "__pulumiType", { value: kind.token });
  return base as unknown as IrmResourceWith<DeclaredOutputs<Omit<State, StateOnly>>>;
}

function withoutOwnFrame<C extends abstract new (...args: never[]) => object>(base: C): C {
  const construct = pulumi.CustomResource.bind(undefined) as unknown as C;
  Object.setPrototypeOf(construct, base);
  Object.defineProperty(construct, "prototype", { value: base.prototype });
  // `instanceof` on a bound function asks its target (`pulumi.CustomResource`), so the
  // base answers for itself; a class extending it (`Group`) inherits this static and
  // gets the ordinary prototype-chain answer: a Group is no Identity.
  Object.defineProperty(construct, Symbol.hasInstance, {
    value(this: unknown, obj: unknown): boolean {
      return this === construct
        ? obj instanceof base
        : Function.prototype[Symbol.hasInstance].call(this, obj);
    },
  });
  Object.defineProperty(construct, "name", { value: "IrmResource" });
  return construct;
}

/**
 * How many frames a stack made while a class of this package constructs its resource
 * holds. `@pulumi/pulumi` gives each promise it makes there (four per registered
 * property, more per resource) the stack of its making, `new Error().stack`, formatted
 * at once through the program runner's source-map support (ts-node's for a TypeScript
 * program): with the default 10 frames, a large part of what a program spends per
 * resource.
 * Those stacks are printed only for a promise still pending at exit, with
 * `PULUMI_DEBUG_PROMISE_LEAKS` set, which keeps the default. Five frames still name the
 * program's line (and its caller) in an error the constructor throws: `Resource`,
 * `CustomResource`, the class, the program. The stack stored in state is unchanged:
 * `Resource` lifts the limit itself while it reads it.
 */
const CONSTRUCTION_FRAMES = 5;

/** `Error.stackTraceLimit` as it was before a construction shortened it, or undefined. */
let savedFrames: number | undefined;

function shortStacks(): void {
  if (savedFrames !== undefined || process.env.PULUMI_DEBUG_PROMISE_LEAKS) return;
  savedFrames = Error.stackTraceLimit;
  Error.stackTraceLimit = Math.min(savedFrames, CONSTRUCTION_FRAMES);
  // Should the constructor throw before `uidFromId`, the limit is back once the current
  // synchronous code is done.
  process.nextTick(restoreStacks);
}

function restoreStacks(): void {
  if (savedFrames === undefined) return;
  Error.stackTraceLimit = savedFrames;
  savedFrames = undefined;
}

/**
 * What a class of this package passes to its base constructor, `super(...registration(
 * KIND, name, args, opts))`, then {@link uidFromId}: every output but `uid` (which that
 * sets) is registered, not known yet; `inputs` are the class's arguments,
 * to which the kind's defaults are applied; they are left out when `opts.id` is set
 * (`get`), where the engine reads every output. The kind's secret outputs join
 * `additionalSecretOutputs`.
 *
 * A function and not a constructor of {@link IrmResource}, which has none of its own
 * (see there why).
 */
export function registration(
  kind: ResourceKind,
  name: string,
  inputs: object | undefined,
  opts: pulumi.CustomResourceOptions | undefined,
): [string, string, pulumi.Inputs, pulumi.CustomResourceOptions | undefined] {
  // `uid` is the one output not registered: `uidFromId` makes it the resource's `id`,
  // and each registered property costs `@pulumi/pulumi` four promises, each with the
  // stack of its making (through the source-map support of the program runner).
  const props: Record<string, unknown> = Object.fromEntries(
    kind.outputs.filter((key) => key !== UID).map((key) => [key, undefined]),
  );
  if (opts?.id === undefined && inputs !== undefined) {
    Object.assign(props, inputs);
    for (const [key, value] of Object.entries(kind.defaults)) props[key] ??= value;
  }
  const secret = kind.secretOutputs;
  const options =
    secret.length === 0
      ? opts
      : {
          ...opts,
          additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secret],
        };
  checkRuntimeReachable();
  checkBuildOnce();
  checkSettingsOnce();
  props.__provider = kind.providerText;
  shortStacks();
  return [kind.token, name, props, options];
}

/**
 * Makes a resource's `uid` its `id`: every provider here answers the object's uid as
 * the id. In the preview of an update, the engine takes the new inputs for a dynamic
 * resource's outputs, so an output that is no input (the uid) would be unknown, and
 * everything naming the object by it would be planned for replacement; the id stays
 * known there. Unknown only where the uid is (a create, a replacement). The construction
 * is over then: stacks get the program's frame limit back ({@link CONSTRUCTION_FRAMES}).
 */
export function uidFromId(resource: pulumi.CustomResource): void {
  (resource as unknown as Record<typeof UID, pulumi.Output<string>>)[UID] = resource.id;
  restoreStacks();
}
