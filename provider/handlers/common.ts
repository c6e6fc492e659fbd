/**
 * Pieces shared by the resource handlers: what a handler needs from the runtime,
 * field-by-field diffing, and the delete loop that waits out RESOURCE_NOT_EMPTY.
 */
import type { CheckResult, CreateResult, DiffResult, UpdateResult } from "@pulumi/pulumi/dynamic";
import type { IrmClient, RoleBinding, ServerTimeBounds } from "../../sdk/index";
import {
  AlreadyExistsError,
  FailedPreconditionError,
  isResourceNotEmpty,
  MAX_PAGE_SIZE,
  type OutcomeUnknownError,
  type PreconditionViolation,
} from "../../sdk/index";
import type { ProviderSettings } from "../config";

/** What a handler gets from the runtime: a client and the settings, both resolved lazily. */
export interface HandlerContext {
  client(): IrmClient;
  settings(): ProviderSettings;
  /** Waits between delete attempts; tests may shorten it. */
  sleep(ms: number): Promise<void>;
  /** The time in ms the waits above are measured by (`Date.now()` but in tests). */
  now(): number;
}

/**
 * The clock of the provider's own contexts (`provider/runtime.ts`, the native plugin):
 * real time. A test replaces `now` and `sleep` together (`vi.spyOn`) to run a wait of
 * seconds in virtual time through the real runtime, and restores them.
 */
export const providerClock = {
  now: (): number => Date.now(),
  sleep: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * What `read` returns: the live outputs and the inputs they imply, so the next diff
 * compares against the refreshed state; `id: ""` when the object is gone.
 */
export interface RefreshResult<Inputs, Outputs> {
  id: string;
  props?: Outputs;
  inputs?: Inputs;
}

/** The provider methods of one resource type, typed with its inputs and outputs. */
export interface ResourceHandler<Inputs, Outputs> {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<CheckResult<Inputs>>;
  diff(id: string, olds: Outputs, news: Inputs): Promise<DiffResult>;
  create(inputs: Inputs): Promise<CreateResult<Outputs>>;
  read(id: string, props?: Outputs): Promise<RefreshResult<Inputs, Outputs>>;
  update(id: string, olds: Outputs, news: Inputs): Promise<UpdateResult<Outputs>>;
  delete(id: string, props: Outputs): Promise<void>;
}

/**
 * One updatable field: its update-mask path and how to read it from inputs or outputs.
 * Absent and `""` read the same, so state written without a description diffs clean.
 */
export interface FieldSpec<Inputs, Outputs> {
  path: string;
  fromInputs(inputs: Inputs): string | undefined;
  fromOutputs(outputs: Outputs): string | undefined;
  /**
   * When the new inputs leave this field out (absent or `""`) and this answers true, the
   * old value is no change to send: the service keeps a value it chose itself (a
   * default, such as `staticKeys.expirationTime`), or clears the field by itself (the
   * partner of a one-of pair member the inputs set: setting `claimMatch.subjectPattern`
   * clears `claimMatch.subject`). Without it, a field left out is cleared.
   */
  absentIsNoChange?(inputs: Inputs): boolean;
}

/**
 * A field path as the update mask sends it: each segment in its proto field name
 * (`claimMatch.subjectPattern` -> `claim_match.subject_pattern`, `defaultRole` ->
 * `default_role`), since the gateway passes the mask to the service as it is.
 */
export function protoFieldPath(path: string): string {
  return path
    .split(".")
    .map((segment) => segment.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`))
    .join(".");
}

/** Input paths (camelCase) of the fields whose new input differs from the old output. */
export function changedPaths<Inputs, Outputs>(
  fields: ReadonlyArray<FieldSpec<Inputs, Outputs>>,
  olds: Outputs,
  news: Inputs,
): string[] {
  return fields
    .filter((field) => {
      const next = field.fromInputs(news) ?? "";
      if (next === "" && field.absentIsNoChange?.(news)) return false;
      return (field.fromOutputs(olds) ?? "") !== next;
    })
    .map((field) => field.path);
}

/**
 * A map or list as one comparable string: JSON with object keys sorted, so the order
 * a program writes a map in and the order the service answers it in compare equal;
 * `""` for an absent or empty one, which the service treats as unset.
 */
export function canonical(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value) && value.length === 0) return "";
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0) {
    return "";
  }
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (typeof v === "object" && v !== null) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((key) => [key, sorted((v as Record<string, unknown>)[key])]),
      );
    }
    return v;
  };
  return JSON.stringify(sorted(value));
}

/** Diff result from the replacing and updatable fields, ignoring everything else. */
export function diffFields<Inputs, Outputs>(
  replacing: ReadonlyArray<FieldSpec<Inputs, Outputs>>,
  updatable: ReadonlyArray<FieldSpec<Inputs, Outputs>>,
  olds: Outputs,
  news: Inputs,
): DiffResult {
  const replaces = changedPaths(replacing, olds, news);
  const updates = changedPaths(updatable, olds, news);
  if (replaces.length === 0 && updates.length === 0) return { changes: false };
  return replaces.length > 0 ? { changes: true, replaces } : { changes: true };
}

/** The keys of `T` whose values are strings (or absent). */
type StringKeys<T> = { [K in keyof T]-?: T[K] extends string | undefined ? K : never }[keyof T];

/** A field kept under the same key, as a string, in the inputs and in state. */
export function sameField<Inputs, Outputs>(
  path: StringKeys<Inputs> & StringKeys<Outputs> & string,
): FieldSpec<Inputs, Outputs> {
  return {
    path,
    fromInputs: (inputs) => inputs[path] as string | undefined,
    fromOutputs: (outputs) => outputs[path] as string | undefined,
  };
}

/** The first of `items` that `matches`, reading no further; undefined when none does. */
export async function firstMatching<T>(
  items: AsyncIterable<T>,
  matches: (item: T) => boolean,
): Promise<T | undefined> {
  for await (const item of items) if (matches(item)) return item;
  return undefined;
}

/**
 * One create by `create`. When the API answers that such an object exists already, it
 * is not ours to take silently (it may belong to another stack): the error names the
 * existing object's uid, found by `find`, and how to adopt it. `what` is the object as
 * the message names it ("A role binding of identity ... in group ...").
 */
export async function createOrNameDuplicate<T extends { uid: string }>(
  what: string,
  create: () => Promise<T>,
  find: () => Promise<T | undefined>,
): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (!(error instanceof AlreadyExistsError)) throw error;
    const existing = await find();
    const which = existing ? ` as ${existing.uid}` : "";
    throw new Error(
      `${what} already exists${which}. To manage it from this stack, set ` +
        `adoptUid${existing ? ` to ${existing.uid}` : ""}; otherwise remove the duplicate declaration.`,
    );
  }
}

/** What every named object's answer carries (a group, role, identity, provider, association). */
export interface NamedObject {
  uid: string;
  name: string;
  description?: string;
  createTime: string;
  updateTime: string;
}

/**
 * The state every named object keeps of its answer: its uid, name, description (`""`
 * when none) and its two times. Each handler adds where the object lives and its own
 * fields.
 */
export function namedOutputs(object: NamedObject): Required<NamedObject> {
  return {
    uid: object.uid,
    name: object.name,
    description: object.description ?? "",
    createTime: object.createTime,
    updateTime: object.updateTime,
  };
}

/** Drops undefined members: the gRPC Struct encoding cannot carry them. */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The members of `source` named in `keys`, undefined ones left out. Every handler's
 * `inputsFrom` is this: the inputs a live object implies are its state's copy of each
 * input.
 */
export function pick<T extends object, K extends keyof T>(
  source: T,
  keys: readonly K[],
): Pick<T, K> {
  return withoutUndefined(Object.fromEntries(keys.map((key) => [key, source[key]]))) as Pick<T, K>;
}

/**
 * The members of `inputs` among `keys` that the update mask names: a PATCH body's
 * top-level fields, each sent as the program declares it.
 */
export function maskedFields<T extends object, K extends keyof T & string>(
  inputs: T,
  mask: readonly string[],
  keys: readonly K[],
): Partial<Pick<T, K>> {
  return pick(
    inputs,
    keys.filter((key) => mask.includes(key)),
  );
}

/** The listing of a collection whose objects are named children of a group. */
export interface NamedChildren<T> {
  list(params: { childrenOf: string; name: string; pageSize: number }): PromiseLike<{
    items: T[];
  }>;
}

/**
 * The `candidates` of an object named within its group (`parentUid`): after a lost
 * create, the objects of that name directly in the group, one page of the largest size.
 */
export function namesakes<T>(collection: (client: IrmClient) => NamedChildren<T>) {
  return async (client: IrmClient, inputs: { parentUid: string; name: string }): Promise<T[]> => {
    const page = await collection(client).list({
      childrenOf: inputs.parentUid,
      name: inputs.name,
      pageSize: MAX_PAGE_SIZE,
    });
    return page.items;
  };
}

/**
 * Runs the object's own GET; undefined when the object is gone. `isGone` decides,
 * and only the API's NOT_FOUND answering this very GET is "gone": a 404 page from a
 * proxy or a wrong `irm:apiUrl`, or a NOT_FOUND from the token exchange, is an error.
 */
export async function getOrUndefined<T>(
  fetch: () => Promise<T>,
  isGone: (error: unknown) => boolean,
): Promise<T | undefined> {
  try {
    return await fetch();
  } catch (error) {
    if (isGone(error)) return undefined;
    throw error;
  }
}

/**
 * The `read` of an object: its own GET (see {@link getOrUndefined}), `id: ""` when it is
 * gone, else its state, noted as held by this process, and the inputs that state implies.
 */
export async function readObject<T, Inputs, Outputs extends { uid: string }>(
  fetch: () => Promise<T>,
  isGone: (error: unknown) => boolean,
  outputs: (object: T) => Outputs | Promise<Outputs>,
  inputsFrom: (outputs: Outputs) => Inputs,
): Promise<RefreshResult<Inputs, Outputs>> {
  const object = await getOrUndefined(fetch, isGone);
  if (object === undefined) return { id: "" };
  const outs = await outputs(object);
  noteOwned(outs.uid);
  return { id: outs.uid, props: outs, inputs: inputsFrom(outs) };
}

/**
 * Uids this provider process has answered to a resource: made by a create, found
 * after a lost one, adopted or read. The engine runs every resource of a program in
 * one provider process, so a sibling resource's object is here once its create has
 * answered, and a lost create's recovery never takes it for its own.
 */
const ownedUids = new Set<string>();

/** Records that a resource of this process holds `uid`. */
export function noteOwned(uid: string): void {
  if (uid !== "") ownedUids.add(uid);
}

/** True when a resource of this process already holds `uid`. */
export function isOwned(uid: string): boolean {
  return ownedUids.has(uid);
}

/** Creates under way in this process, by what they send (their key). */
const createsInFlight = new Map<string, number>();

/**
 * Runs one create, counted under `key` while it is under way, so that a sibling's
 * lost create with the same key knows that an object matching it may be this one's.
 */
export async function countedInFlight<T>(key: string, run: () => Promise<T>): Promise<T> {
  createsInFlight.set(key, (createsInFlight.get(key) ?? 0) + 1);
  try {
    return await run();
  } finally {
    const left = (createsInFlight.get(key) ?? 1) - 1;
    if (left === 0) createsInFlight.delete(key);
    else createsInFlight.set(key, left);
  }
}

/** How many creates with `key` are under way in this process. */
export function inFlight(key: string): number {
  return createsInFlight.get(key) ?? 0;
}

/** An object found after a create whose outcome was lost. */
export interface Candidate {
  uid: string;
  createTime: string;
}

/**
 * After a create whose outcome is unknown: among objects that match what was sent
 * (same place, same fields), the one that create made, if any, judged on the
 * service's own clock. `sentAt` is the service's time when the create was sent, as
 * the `Date` headers of its answers bound it (`IrmClient.serverClock`).
 *
 * - An object made before the earliest time the service's clock can have read when the
 *   create was sent existed before the attempt: it is never taken over.
 * - None left: the create did not take effect (`undefined`).
 * - Exactly one: that is the one.
 * - Several, or no `Date` header to judge by: which one is ours cannot be told, so this
 *   fails, naming the candidates and how to adopt the right one.
 */
export function madeByAttempt<T extends Candidate>(
  what: string,
  candidates: readonly T[],
  sentAt: ServerTimeBounds | undefined,
): T | undefined {
  // A sibling resource's object (its create answered in this process) is never ours.
  const unowned = candidates.filter((item) => !isOwned(item.uid));
  if (unowned.length === 0) return undefined;
  const eligible =
    sentAt === undefined
      ? [...unowned]
      : unowned.filter((item) => Date.parse(item.createTime) >= sentAt.earliest);
  if (eligible.length === 0) return undefined;
  if (eligible.length === 1 && sentAt !== undefined) return eligible[0];
  const listed = eligible.map((item) => `${item.uid} (createTime ${item.createTime})`).join(", ");
  const why =
    sentAt === undefined
      ? "the service sent no Date header, so when the create was sent cannot be compared with when these were made"
      : `each was made after the service's clock could have read ${new Date(sentAt.earliest).toISOString()} when the create was sent (its Date headers have one-second resolution)`;
  throw new Error(
    `The answer to the create of ${what} was lost, and which object it made cannot be told: ` +
      `${eligible.length} match what was sent: ${listed}; ${why}. Nothing was created again. ` +
      "If one of them is this stack's, set adoptUid to its uid and run the update again; " +
      "delete any that nobody wants.",
  );
}

/** Shortest time a lost create that may still be running is waited for. */
const SETTLE_MIN_MS = 10_000;
const SETTLE_FIRST_DELAY_MS = 250;
const SETTLE_MAX_DELAY_MS = 5_000;

/**
 * After a create whose outcome is unknown: looks for the object it made. When the
 * service may still be working on that create (the client timed out, or a gateway
 * answered 504), finding nothing at once proves nothing, so it looks again, backing
 * off, for as long as the request timeout (at least ten seconds) before answering
 * "not made" and letting the caller create once more.
 */
export async function findAfterUnknownOutcome<T>(
  context: HandlerContext,
  outcome: OutcomeUnknownError,
  find: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const found = await find();
  if (found !== undefined || !outcome.mayStillBeRunning) return found;
  const deadline = context.now() + Math.max(context.client().timeoutMs, SETTLE_MIN_MS);
  let delayMs = SETTLE_FIRST_DELAY_MS;
  for (;;) {
    const remainingMs = deadline - context.now();
    if (remainingMs <= 0) return undefined;
    await context.sleep(Math.min(delayMs, remainingMs));
    delayMs = Math.min(delayMs * 2, SETTLE_MAX_DELAY_MS);
    const later = await find();
    if (later !== undefined) return later;
  }
}

/**
 * A delete the API refuses, said once. `@pulumi/pulumi`'s provider host logs a failed
 * delete as `${error}: ${error.stack}` before the engine reports its message, so the
 * text would show three times with a stack trace; this error's string is only its
 * headline and it has no stack, so the full message shows once, in the engine's report.
 */
export class RefusedDelete extends Error {
  readonly #headline: string;

  constructor(headline: string, details: string) {
    super(`${headline}: ${details}`);
    this.name = "RefusedDelete";
    this.#headline = headline;
    this.stack = "";
  }

  override toString(): string {
    return this.#headline;
  }
}

/**
 * How long a delete refused as not empty waits when the API still lists objects inside
 * (named in the error after it): long enough for a child deleted just before to go.
 */
export const NAMED_BLOCKER_GRACE_MS = 5_000;

/** First wait after a refused delete; doubles each time up to the cap. */
const DELETE_FIRST_DELAY_MS = 250;
const DELETE_MAX_DELAY_MS = 5_000;

/** Violation type of a group that still has children (API specification). */
const RESOURCE_NOT_EMPTY = "RESOURCE_NOT_EMPTY";
/**
 * Violation type of an identity or role still referenced by role bindings (the
 * emulator's and this project's name for the "still bound" precondition).
 */
const RESOURCE_IN_USE = "RESOURCE_IN_USE";

/** Describes the object a delete is about, for the final error message. */
export interface DeleteTarget {
  /** `group`, `identity`, `role binding`. */
  kind: string;
  uid: string;
  /** Name as last known from state; may be absent in old state. */
  name?: string;
  /** What to do about RESOURCE_IN_USE, replacing the default advice about role bindings. */
  inUseRemedy?: string;
  /**
   * The objects the API shows inside the object (`repo "app" (<uid>)`), asked once after
   * the first RESOURCE_NOT_EMPTY: any there was not deleted by this run before it (the
   * engine deletes dependants first), so waiting cannot help.
   */
  contents?: () => Promise<string[]>;
  /**
   * The objects that still refer to the object (`role binding ... (<uid>)`), asked once
   * after the first RESOURCE_IN_USE, on the same grounds as `contents`.
   */
  usedBy?: () => Promise<string[]>;
}

/** How many objects of one kind a refused delete names. */
export const NAMED_BLOCKERS = 10;

/** `kind "name" (uid)`: how a refused delete names an object that has a name. */
export function describeNamed(kind: string): (item: { uid: string; name: string }) => string {
  return (item) => `${kind} ${JSON.stringify(item.name)} (${item.uid})`;
}

/** A role binding as a refused delete names it: whose, which role, and its uid. */
export function describeBinding(binding: RoleBinding, withGroup = true): string {
  const where = withGroup ? ` in group ${JSON.stringify(binding.group.name)}` : "";
  return (
    `role binding of identity ${JSON.stringify(binding.identity.name)} as ` +
    `${JSON.stringify(binding.role.name)}${where} (${binding.uid})`
  );
}

/**
 * One of the listings a refused delete names its blockers from: each item described,
 * or nothing when the listing fails (a token that may not make it, NOT_FOUND of a get),
 * so that the other listings still count and the API's own refusal still stands.
 */
export async function describedOrNone<T>(
  listing: PromiseLike<{ items: readonly T[] }>,
  describe: (item: T) => string,
): Promise<string[]> {
  try {
    return (await listing).items.map((item) => describe(item));
  } catch {
    return [];
  }
}

/** The role bindings that name an identity or use a role, as a refused delete names them. */
export function bindingsReferring(
  client: IrmClient,
  filter: { identity: string } | { role: string },
): Promise<string[]> {
  return describedOrNone(
    client.iam.roleBindings.list({ ...filter, pageSize: NAMED_BLOCKERS }),
    (binding) => describeBinding(binding),
  );
}

/**
 * A refusal that other deletes of the same run may lift: children still on their way
 * out (RESOURCE_NOT_EMPTY) or bindings that still refer to the object (RESOURCE_IN_USE).
 */
function blockingViolations(error: unknown): PreconditionViolation[] | undefined {
  if (isResourceNotEmpty(error)) return error.preconditionViolations;
  if (!(error instanceof FailedPreconditionError)) return undefined;
  const inUse = error.preconditionViolations.filter((v) => v.type === RESOURCE_IN_USE);
  return inUse.length > 0 ? error.preconditionViolations : undefined;
}

/** What the user can do about the violations that outlasted the wait. */
function remedy(violations: PreconditionViolation[], inUseRemedy?: string): string {
  const advice: string[] = [];
  if (violations.some((v) => v.type === RESOURCE_NOT_EMPTY)) {
    advice.push(
      "Remove those children from this program, or delete the ones this stack does not " +
        "manage out of band (for example repositories pushed into the group)",
    );
  }
  if (violations.some((v) => v.type === RESOURCE_IN_USE)) {
    advice.push(
      inUseRemedy ??
        "Remove the role bindings that still refer to it, from this program or out of band " +
          "if this stack does not manage them",
    );
  }
  return `${advice.join("; ")}, then run the update again.`;
}

/**
 * Deletes one object. The API's NOT_FOUND answering this DELETE is success (already gone). RESOURCE_NOT_EMPTY (and
 * RESOURCE_IN_USE) is retried with capped exponential backoff until `deleteTimeoutMs`,
 * because children deleted in the same run may still be on their way out; then it
 * fails with a message that says what blocks the delete and what to do. Only this
 * object is ever deleted.
 */
export async function deleteWaitingForChildren(
  context: HandlerContext,
  target: DeleteTarget,
  remove: () => Promise<unknown>,
  isGone: (error: unknown) => boolean,
): Promise<void> {
  const timeoutMs = context.settings().deleteTimeoutMs;
  let deadline = context.now() + timeoutMs;
  const label = target.name ? `"${target.name}" (${target.uid})` : target.uid;
  const listed = (list?: () => Promise<string[]>) => async () =>
    list ? await list().catch(() => [] as string[]) : [];
  const contents = listed(target.contents);
  const usedBy = listed(target.usedBy);
  let delayMs = DELETE_FIRST_DELAY_MS;
  let looked = false;
  for (;;) {
    try {
      await remove();
      return;
    } catch (error) {
      // Only the API's NOT_FOUND answering this DELETE means done; a proxy's 404 is not.
      if (isGone(error)) return;
      const violations = blockingViolations(error);
      if (violations === undefined) throw error;
      const notEmpty = target.contents !== undefined && isResourceNotEmpty(error);
      const inUse =
        !notEmpty &&
        target.usedBy !== undefined &&
        violations.some((v) => v.type === RESOURCE_IN_USE);
      const blockers = notEmpty ? contents : inUse ? usedBy : undefined;
      let listedNow: string[] | undefined;
      if (blockers && !looked) {
        looked = true;
        // The engine deleted this run's dependants before; what is still listed is not
        // on its way out unless it goes within a short grace.
        listedNow = await blockers();
        if (listedNow.length > 0) {
          deadline = Math.min(deadline, context.now() + NAMED_BLOCKER_GRACE_MS);
        }
      }
      const remainingMs = deadline - context.now();
      // Listed again once the grace is over, unless it was listed just now.
      const held = blockers && remainingMs <= 0 ? (listedNow ?? (await blockers())) : [];
      if (held.length > 0) {
        throw new RefusedDelete(
          `Cannot delete ${target.kind} ${label}`,
          notEmpty
            ? `it still holds ${held.join(", ")}, which this run did not delete. Delete or ` +
                "move them out of band (or add them to this program), then run again. The " +
                `${target.kind} was not deleted.`
            : `${held.join(", ")} still ${held.length === 1 ? "refers" : "refer"} to it, ` +
                `which this run did not delete. ${remedy(violations, target.inUseRemedy)} ` +
                `The ${target.kind} was not deleted.`,
        );
      }
      if (remainingMs <= 0) {
        const blocking = violations.map((v) => `${v.type}: ${v.description}`).join("; ");
        throw new RefusedDelete(
          `Cannot delete ${target.kind} ${label}`,
          `the API still refuses after waiting ${Math.round(timeoutMs / 1000)}s (irm:deleteTimeoutMs / IRM_DELETE_TIMEOUT_MS). ` +
            `Blocking: ${blocking || (error as Error).message}. ${remedy(violations, target.inUseRemedy)} ` +
            `The ${target.kind} was not deleted.`,
        );
      }
      await context.sleep(Math.min(delayMs, remainingMs));
      delayMs = Math.min(delayMs * 2, DELETE_MAX_DELAY_MS);
    }
  }
}
