/**
 * The lifecycle every managed object shares — check, diff, create (with adoption and
 * recovery from an unknown outcome), read, update, delete — written once. Each
 * resource type supplies only what differs: its API collection, its fields and how
 * its outputs are built.
 */
import type { CheckResult } from "@pulumi/pulumi/dynamic";
import { jwtClaims } from "../../sdk/auth/token-source";
import type { IrmClient } from "../../sdk/index";
import { OutcomeUnknownError } from "../../sdk/index";
import { CHILD_UID_PATTERN, parentOf } from "../../sdk/uids";
import { isUnknown } from "../checks";
import type { ProviderSettings } from "../config";
import { withCheckedRole } from "./checked-role";
import {
  canonical,
  changedPaths,
  deleteWaitingForChildren,
  diffFields,
  type FieldSpec,
  findAfterUnknownOutcome,
  getOrUndefined,
  type HandlerContext,
  madeByAttempt,
  type NamedChildren,
  namesakes,
  noteOwned,
  protoFieldPath,
  type ResourceHandler,
  readObject,
} from "./common";

/** The verbs of one SDK collection the lifecycle uses. */
export interface ObjectApi<T, Body, MaskPath extends string> {
  get(uid: string): Promise<T>;
  update(uid: string, body: Body, options: { updateMask: MaskPath[] }): Promise<T>;
  delete(uid: string): Promise<unknown>;
  /** True only for the API's NOT_FOUND answering a GET or DELETE of this very uid. */
  isGone(error: unknown, uid: string): boolean;
}

/** The Get of a container's collection, as `check` uses it. */
export interface ContainerApi {
  get(uid: string): Promise<unknown>;
  isGone(error: unknown, uid: string): boolean;
}

/** What one resource type adds to the shared lifecycle. */
export interface ObjectSpec<
  Inputs extends { adoptUid?: string },
  Outputs extends { uid: string; createTime: string },
  T,
  Body,
  MaskPath extends string,
> {
  /** The object's kind in messages: `group`, `identity`, `role binding`, ... */
  kind:
    | "group"
    | "identity"
    | "role binding"
    | "role"
    | "identity provider"
    | "account association"
    | "external group role mapping"
    | "repo"
    | "event subscription";
  /** The input naming where the object lives; a change replaces the object. */
  container: FieldSpec<Inputs, Outputs>;
  /**
   * What the container is when it is not a group (a mapping lives under an identity
   * provider): its noun in messages and the collection `check` asks whether it exists.
   */
  containerKind?: { noun: string; api(client: IrmClient): ContainerApi };
  /**
   * Other inputs the API cannot change (an identity's kind): a change replaces the
   * object, and an object found after a lost create must match them too.
   */
  replacing?: ReadonlyArray<FieldSpec<Inputs, Outputs>>;
  /**
   * Inputs updated in place, each with its path among the inputs (camelCase); the
   * update mask sends it as the proto field path (`protoFieldPath`).
   */
  updatable: ReadonlyArray<FieldSpec<Inputs, Outputs>>;
  /** The input checks; `olds` are the inputs the stack holds (none at create). */
  check(news: Record<string, unknown>, olds?: Record<string, unknown>): CheckResult<Inputs>;
  api(client: IrmClient): ObjectApi<T, Body, MaskPath>;
  /**
   * Outputs (state) from the API's answer; `previous` is the state it replaces, when
   * there is one (read, update).
   */
  outputs(object: T, previous?: Outputs): Outputs | Promise<Outputs>;
  /** The inputs that the live object implies, for refresh. */
  inputsFrom(outputs: Outputs): Inputs;
  /** The PATCH body carrying the fields named (by their input paths, as `updatable` has them). */
  patchBody(inputs: Inputs, fields: readonly string[]): Body;
  /** One create request. */
  create(client: IrmClient, inputs: Inputs): Promise<T>;
  /** After a create's outcome was lost: the objects that create may have made. */
  candidates(client: IrmClient, inputs: Inputs): Promise<T[]>;
  /**
   * Why no lookup can tell what a lost create made (a kind with no name and no creation
   * time), when that is so: `recover` then answers this reason instead of an empty
   * finding, which would read as "the create never arrived". Unset, `candidates` can.
   */
  unrecoverable?: string;
  /** The object's name for messages, when it has one. */
  nameOf?(outputs: Outputs | undefined): string | undefined;
  /** Describes what a create makes, for messages (`group "x" under <uid>`). */
  describe(inputs: Inputs): string;
  /**
   * Outputs that carry write-only inputs (never in the API's answers, like a client
   * secret) after a request that sent them: a create, an adoption, an update, and the
   * object a lost create turns out to have made.
   */
  withWriteOnly?(outputs: Outputs, inputs: Inputs): Outputs;
  /**
   * State-only marks of what the inputs say and the API's answers cannot show, which
   * `inputsFrom` needs to give back the program's inputs on refresh (an identity whose
   * program leaves `staticKeys.expirationTime` to the service): `of` gives the marks
   * of some inputs, `in` those a state carries (`{}` for none). Every create and update
   * stores the marks of its inputs, a read keeps those of the state it refreshes, and
   * a change of them is an update (with no write unless a field changed too).
   * `outputs` never carries them.
   */
  marks?: { of(inputs: Inputs): object; in(state: Outputs): object };
  /**
   * The input holding the uid of a role the object grants (`roleUid`, `defaultRole`):
   * `check` adds what it reads of that role as `checkedRole`, for policy packs
   * (`checked-role.ts`).
   */
  roleInput?: string;
  /** What to do about RESOURCE_IN_USE, when the default advice (role bindings) is not it. */
  inUseRemedy?: string;
  /** The objects the API shows inside this one, named, when a delete is refused as not empty. */
  contents?(client: IrmClient, uid: string): Promise<string[]>;
  /** The objects that still refer to this one, named, when a delete is refused as in use. */
  usedBy?(client: IrmClient, uid: string): Promise<string[]>;
  /**
   * Why an object found by `adoptUid` cannot be managed as declared (a field the API
   * cannot change differs), or undefined when it can.
   */
  refuseAdoption?(current: Outputs, inputs: Inputs): string | undefined;
}

/**
 * What a create that lost its answer may have made, for the repair of an interrupted
 * run (`irm-pending`): the objects the lost-create recovery would consider (`candidates`,
 * or the one `adoptUid` names), each as `create` would have stored it, split into those
 * equal to every input the create sent and the others, with the input paths that differ.
 */
export interface Recovery<Outputs> {
  matching: Outputs[];
  differing: Array<{ uid: string; fields: string[] }>;
  /**
   * Set when nothing can be told (the spec's `unrecoverable`, without an `adoptUid`):
   * why. `matching` and `differing` are then empty and say nothing.
   */
  unrecoverable?: string;
}

/** A handler of the shared lifecycle: the provider's methods, plus `recover`. */
export interface RecoverableHandler<Inputs, Outputs> extends ResourceHandler<Inputs, Outputs> {
  recover(inputs: Inputs): Promise<Recovery<Outputs>>;
}

/**
 * Groups known to exist, per client: what one token may see says nothing of another's,
 * nor of another API, so two providers with different settings in one process never
 * share an answer. Keyed by the client object (`clientFor` keeps one per settings),
 * never by the token; a group's uid is never reused, so an answer holds for the
 * client's life.
 */
const existingGroups = new WeakMap<IrmClient, Map<string, Promise<boolean>>>();

function existingGroupsOf(client: IrmClient): Map<string, Promise<boolean>> {
  const cache = existingGroups.get(client) ?? new Map<string, Promise<boolean>>();
  existingGroups.set(client, cache);
  return cache;
}

/**
 * The identity the requests are made as, when the settings tell it without a request:
 * the static token's `sub` (read, not verified: the API verifies it on every request),
 * else the identity a workload assumes by token exchange. Undefined for a flat subject
 * (a person's account) or anything that is not an identity's uid.
 */
export function callerIdentity(
  settings: Pick<ProviderSettings, "token" | "identity">,
): string | undefined {
  let subject: unknown = settings.identity;
  if (settings.token !== undefined) {
    try {
      subject = jwtClaims(settings.token).sub;
    } catch {
      return undefined; // not a JWT: the settings' check refuses it anyway
    }
  }
  return typeof subject === "string" && CHILD_UID_PATTERN.test(subject) ? subject : undefined;
}

/** Clients whose cache holds the groups above their caller's identity. */
const callersKnown = new WeakSet<IrmClient>();

/**
 * The groups above the caller's own identity exist: an identity lives in a group, and a
 * group cannot be deleted while it holds anything. A credential whose identity or groups
 * are gone fails every request anyway (nothing is written), so a parent among them needs
 * no GET to be told apart from a mistyped uid. Most often this is the root organisation
 * a program names from its configuration.
 */
function knowCallerGroups(context: HandlerContext): void {
  const client = context.client();
  if (callersKnown.has(client)) return;
  callersKnown.add(client);
  const caller = callerIdentity(context.settings());
  const cache = existingGroupsOf(client);
  for (let group = caller && parentOf(caller); group; group = parentOf(group)) {
    if (!cache.has(group)) cache.set(group, Promise.resolve(true));
  }
}

/**
 * An object this client has just made, adopted or read exists: when it is a group, the
 * check of a child declared under it in the same run needs no GET of its own.
 */
function seenExisting(context: HandlerContext, uid: string): void {
  existingGroupsOf(context.client()).set(uid, Promise.resolve(true));
}

/**
 * An object this client has read elsewhere (a lookup of the native plugin) holds its
 * containers: each uid above it exists (a group cannot be deleted while it holds
 * anything), and the object itself when it is a group (`isGroup`). The check of an
 * object declared under one of them sends no GET. Only containers are kept: an
 * identity or a role the lookup answered is no place to declare anything, and a check
 * naming it as a parent still asks the API.
 */
export function rememberExisting(client: IrmClient, uid: string, isGroup: boolean): void {
  const cache = existingGroupsOf(client);
  for (let known = isGroup ? uid : parentOf(uid); known; known = parentOf(known)) {
    cache.set(known, Promise.resolve(true));
  }
}

/** As {@link seenExisting}, but never over an answer this client already has. */
function trustExisting(context: HandlerContext, uid: string): void {
  const cache = existingGroupsOf(context.client());
  if (!cache.has(uid)) cache.set(uid, Promise.resolve(true));
}

/**
 * False only when the API answers NOT_FOUND for this group (or, with `collection`, this
 * object of another collection: uids are never shared across collections).
 */
function groupExists(
  context: HandlerContext,
  uid: string,
  collection?: (client: IrmClient) => ContainerApi,
): Promise<boolean> {
  knowCallerGroups(context);
  const client = context.client();
  const cache = existingGroupsOf(client);
  let known = cache.get(uid);
  if (known === undefined) {
    const groups = collection ? collection(client) : client.iam.groups;
    known = groups.get(uid).then(
      () => true,
      (error: unknown) => !groups.isGone(error, uid),
    );
    const asked = known;
    cache.set(uid, asked);
    // A group found missing may be created later in the same process: ask again then
    // (unless something has since said it exists).
    asked.then((exists) => exists || (cache.get(uid) === asked && cache.delete(uid)));
  }
  return known;
}

/**
 * The handler factory of one resource type: what the runtime calls with its context
 * (`kinds.ts`), giving the shared lifecycle over the type's `spec`.
 */
export function objectHandler<
  Inputs extends { adoptUid?: string },
  Outputs extends { uid: string; createTime: string },
  T,
  Body,
  MaskPath extends string,
>(
  spec: ObjectSpec<Inputs, Outputs, T, Body, MaskPath>,
): (context: HandlerContext) => RecoverableHandler<Inputs, Outputs> {
  return (context) => lifecycle(context, spec);
}

/**
 * The handler factory of a resource type whose objects are named within their group
 * (`parentUid`), with its collection named once: the lifecycle's collection, the
 * namesakes a lost create may have made (see {@link namesakes}) and the name in messages.
 * The container is `parentUid` unless the spec words it otherwise.
 */
export function namedObjectHandler<
  Inputs extends { adoptUid?: string; parentUid: string; name: string },
  Outputs extends { uid: string; createTime: string; name: string; parentUid: string },
  T,
  Body,
  MaskPath extends string,
>(
  collection: (client: IrmClient) => ObjectApi<T, Body, MaskPath> & NamedChildren<T>,
  spec: Omit<
    ObjectSpec<Inputs, Outputs, T, Body, MaskPath>,
    "api" | "candidates" | "nameOf" | "container"
  > & { container?: FieldSpec<Inputs, Outputs> },
): (context: HandlerContext) => RecoverableHandler<Inputs, Outputs> {
  return objectHandler<Inputs, Outputs, T, Body, MaskPath>({
    ...spec,
    container: spec.container ?? {
      path: "parentUid",
      fromInputs: (inputs) => inputs.parentUid,
      fromOutputs: (outputs) => outputs.parentUid,
    },
    api: collection,
    candidates: namesakes(collection),
    nameOf: (outputs) => outputs?.name,
  });
}

/**
 * Objects a resource adopted in this provider process (one engine run). A delete of one
 * of them later in the run is that of the old resource the adopter takes over from (one
 * renamed in the program without an alias, or replaced while its `adoptUid` names its
 * own object; the engine deletes the old one after the new one is made), so it must
 * leave the object to the adopter.
 */
const adoptedInRun = new Set<string>();

/** What the state of a resource that adopted its object carries besides its outputs. */
interface AdoptedState {
  /** The uid it adopted; absent from every other resource's state. */
  adoptUid?: string;
}

/**
 * `outs` with the uid the resource adopted, when it adopted one: a refresh hands the
 * provider only the outputs, and gives back this uid in the inputs it reads (see
 * `read`), so the inputs of an adopted resource survive a refresh unchanged. Nothing is
 * added to the state of a resource that did not adopt.
 */
function withAdoptUid<State extends object>(state: State, adoptUid: string | undefined): State {
  return adoptUid ? { ...state, adoptUid } : state;
}

/**
 * Whether `read` serves a resource the program reads with `get` rather than manages.
 * The engine's read step hands `read` the program's inputs (no `uid`: `get` declares
 * none) and keeps them as the state's inputs whatever `read` answers; the state is then
 * marked `external`, and a refresh of it gives back no inputs of its own (the engine
 * keeps those the read step stored), so refreshing it moves only what the service
 * changed. Nothing is added to the state of a managed resource.
 */
function readsExternal(props: object | undefined): boolean {
  const state = props as { uid?: unknown; external?: unknown } | undefined;
  return state?.uid === undefined || state.external === true;
}

/** The uid a resource's state says it adopted, if any. */
function adoptedUid(state: object | undefined): string | undefined {
  const uid = (state as AdoptedState | undefined)?.adoptUid;
  return typeof uid === "string" && uid !== "" ? uid : undefined;
}

function lifecycle<
  Inputs extends { adoptUid?: string },
  Outputs extends { uid: string; createTime: string },
  T,
  Body,
  MaskPath extends string,
>(
  context: HandlerContext,
  spec: ObjectSpec<Inputs, Outputs, T, Body, MaskPath>,
): RecoverableHandler<Inputs, Outputs> {
  const api = () => spec.api(context.client());
  /** The input paths of the updatable fields that differ. */
  const maskOf = (olds: Outputs, news: Inputs) => changedPaths(spec.updatable, olds, news);
  /** The update mask of those fields, in proto field names, as the service matches them. */
  const wireMask = (fields: readonly string[]) => fields.map(protoFieldPath) as MaskPath[];
  const isGone = (uid: string) => (error: unknown) => api().isGone(error, uid);
  /** The state of `outs` marked as the inputs say (see `marks`). */
  const marked = (outs: Outputs, inputs: Inputs): Outputs =>
    spec.marks ? { ...outs, ...spec.marks.of(inputs) } : outs;
  const withWriteOnly = (outs: Outputs, inputs: Inputs) =>
    marked(spec.withWriteOnly ? spec.withWriteOnly(outs, inputs) : outs, inputs);
  /** The inputs mark the state otherwise than it is marked. */
  const marksChange = (olds: Outputs, news: Inputs) =>
    spec.marks !== undefined && canonical(spec.marks.of(news)) !== canonical(spec.marks.in(olds));
  /** Inputs whose change replaces the object: where it lives, and what cannot change. */
  const replacing = [spec.container, ...(spec.replacing ?? [])];
  /** The object sits where the inputs declare it and every other field equals them. */
  /** The input paths in which the object differs from the inputs: where it lives, then the rest. */
  const differences = (outs: Outputs, inputs: Inputs) => [
    ...changedPaths(replacing, outs, inputs),
    ...maskOf(outs, inputs),
  ];
  const matchesInputs = (outs: Outputs, inputs: Inputs) => differences(outs, inputs).length === 0;

  /** One PATCH with exactly the fields that differ; no request when nothing does. */
  async function patchDifferences(current: Outputs, inputs: Inputs): Promise<Outputs> {
    const mask = maskOf(current, inputs);
    if (mask.length === 0) return current;
    const updated = await api().update(current.uid, spec.patchBody(inputs, mask), {
      updateMask: wireMask(mask),
    });
    return spec.outputs(updated, current);
  }

  async function adopt(inputs: Inputs, uid: string) {
    const existing = await getOrUndefined(() => api().get(uid), isGone(uid));
    if (existing === undefined) {
      throw new Error(
        `adoptUid: no ${spec.kind} ${uid} exists (or it is not visible to this token)`,
      );
    }
    const current = await spec.outputs(existing);
    const actual = spec.container.fromOutputs(current);
    const declared = spec.container.fromInputs(inputs);
    if (actual !== declared) {
      throw new Error(
        `adoptUid: ${spec.kind} ${uid} sits under ${actual}, not under ${spec.container.path} ${declared}`,
      );
    }
    const refusal = spec.refuseAdoption?.(current, inputs);
    if (refusal !== undefined) throw new Error(`adoptUid: ${spec.kind} ${uid} ${refusal}`);
    const outs = withAdoptUid(withWriteOnly(await patchDifferences(current, inputs), inputs), uid);
    adoptedInRun.add(outs.uid);
    noteOwned(outs.uid);
    seenExisting(context, outs.uid);
    return { id: outs.uid, outs };
  }

  /**
   * `adoptUid` is read only by a create. Once the resource exists (its old inputs say
   * where it lives), its checked inputs keep the uid it adopted, or none, whatever the
   * program now says: they then equal what a refresh reads back from its state, and
   * editing or removing `adoptUid` changes nothing. A change that replaces the object
   * is a create, which takes the program's `adoptUid` as it stands.
   */
  function settledAdoption(olds: Record<string, unknown>, inputs: Inputs): Inputs {
    if (olds[spec.container.path] === undefined) return inputs;
    const previous = olds as Inputs;
    const replaced = replacing.some(
      (field) => (field.fromInputs(previous) ?? "") !== (field.fromInputs(inputs) ?? ""),
    );
    if (replaced) return inputs;
    const { adoptUid: _declared, ...kept } = inputs;
    return withAdoptUid(kept as Inputs, adoptedUid(previous));
  }

  /**
   * Before a create (or a move), while `pulumi preview` runs too: the group the object
   * is to live in must exist, or the failure names the input. One GET per distinct
   * group per client (API URL and token) in a provider process; an answer other than
   * NOT_FOUND leaves it to the create.
   */
  async function missingContainer(
    olds: Record<string, unknown>,
    inputs: Inputs | undefined,
  ): Promise<{ property: string; reason: string } | undefined> {
    if (inputs === undefined || inputs.adoptUid) return undefined;
    const uid = spec.container.fromInputs(inputs);
    if (uid === undefined || uid === "" || isUnknown(uid)) return undefined;
    if (olds[spec.container.path] === uid) {
      // Held in state under this container: it existed when state was written. A
      // replacement's second check (the engine's, without the old inputs) trusts that
      // too instead of asking; a container since deleted fails the create itself.
      trustExisting(context, uid);
      return undefined;
    }
    if (!(await groupExists(context, uid, spec.containerKind?.api))) {
      const noun = spec.containerKind?.noun ?? "group";
      return {
        property: spec.container.path,
        reason: `no ${noun} ${uid} exists (or this token may not see it); nothing was created`,
      };
    }
    return undefined;
  }

  return {
    async check(olds, news) {
      const checked = spec.check(news, olds);
      if (checked.failures?.length) return checked;
      const settled = checked.inputs && settledAdoption(olds, checked.inputs);
      const inputs =
        settled && spec.roleInput
          ? await withCheckedRole(context, settled, spec.roleInput, olds)
          : settled;
      const result = { ...checked, inputs };
      const failure = await missingContainer(olds, inputs);
      return failure === undefined ? result : { ...result, failures: [failure] };
    },

    async diff(_id, olds, news) {
      const result = diffFields(replacing, spec.updatable, olds, news);
      return result.changes || !marksChange(olds, news) ? result : { changes: true };
    },

    async create(inputs) {
      if (inputs.adoptUid) return adopt(inputs, inputs.adoptUid);
      const client = context.client();
      let created: T;
      // Local time just before the create leaves; the service's clock at that moment is
      // bounded afterwards from the Date headers of its answers (before and after).
      const sentAtLocal = Date.now();
      try {
        created = await spec.create(client, inputs);
      } catch (error) {
        if (!(error instanceof OutcomeUnknownError)) throw error;
        // Only an object made since this attempt began, on the service's clock, and
        // matching what was sent, can be ours: an older namesake is another stack's or
        // someone's by hand, and is never taken over.
        const found = await findAfterUnknownOutcome(context, error, async () => {
          const candidates = await Promise.all(
            (await spec.candidates(client, inputs)).map(async (item) =>
              withWriteOnly(await spec.outputs(item), inputs),
            ),
          );
          return madeByAttempt(
            spec.describe(inputs),
            candidates.filter((outs) => matchesInputs(outs, inputs)),
            client.serverClock.at(sentAtLocal),
          );
        });
        if (found !== undefined) {
          noteOwned(found.uid);
          seenExisting(context, found.uid);
          return { id: found.uid, outs: found };
        }
        created = await spec.create(client, inputs);
      }
      const outs = withWriteOnly(await spec.outputs(created), inputs);
      noteOwned(outs.uid);
      seenExisting(context, outs.uid);
      return { id: outs.uid, outs };
    },

    async recover(inputs) {
      const adoptUid = inputs.adoptUid || undefined;
      if (adoptUid === undefined && spec.unrecoverable !== undefined) {
        return { matching: [], differing: [], unrecoverable: spec.unrecoverable };
      }
      const found =
        adoptUid === undefined
          ? await spec.candidates(context.client(), inputs)
          : [await getOrUndefined(() => api().get(adoptUid), isGone(adoptUid))].filter(
              (item): item is Awaited<T> => item !== undefined,
            );
      const matching: Outputs[] = [];
      const differing: Array<{ uid: string; fields: string[] }> = [];
      for (const item of found) {
        const outs = withAdoptUid(withWriteOnly(await spec.outputs(item), inputs), adoptUid);
        const fields = differences(outs, inputs);
        if (fields.length === 0) matching.push(outs);
        else differing.push({ uid: outs.uid, fields });
      }
      return { matching, differing };
    },

    async read(id, props) {
      // The uid an adopted resource adopted, kept in its state and its inputs alike.
      const adoptUid = adoptedUid(props);
      const external = readsExternal(props);
      const result = await readObject(
        () => api().get(id),
        isGone(id),
        async (object) => {
          const outs = withAdoptUid(
            { ...(await spec.outputs(object, props)), ...(props && spec.marks?.in(props)) },
            adoptUid,
          );
          return external ? { ...outs, external: true } : outs;
        },
        // Read with `get`: no inputs, so that the engine keeps the program's.
        (outs) => (external ? ({} as Inputs) : withAdoptUid(spec.inputsFrom(outs), adoptUid)),
      );
      if (result.id !== "") seenExisting(context, result.id);
      return result;
    },

    async update(id, olds, news) {
      // The state keeps the inputs' adoptUid (`check` settles it: the uid adopted, if any).
      const kept = (outs: Outputs) => withAdoptUid(outs, news.adoptUid);
      const mask = maskOf(olds, news);
      // Nothing to send (the diff saw the marks change, see `marks`): the state is read
      // afresh and marked as the new inputs say.
      if (mask.length === 0) {
        return { outs: kept(marked(await spec.outputs(await api().get(id), olds), news)) };
      }
      const updated = await api().update(id, spec.patchBody(news, mask), {
        updateMask: wireMask(mask),
      });
      return { outs: kept(withWriteOnly(await spec.outputs(updated, olds), news)) };
    },

    async delete(id, props) {
      // Another resource of this run adopted the object: it stays, managed by that one.
      if (adoptedInRun.has(id)) return;
      const name = spec.nameOf?.(props);
      const { contents, usedBy } = spec;
      await deleteWaitingForChildren(
        context,
        {
          kind: spec.kind,
          uid: id,
          name,
          inUseRemedy: spec.inUseRemedy,
          contents: contents && (() => contents(context.client(), id)),
          usedBy: usedBy && (() => usedBy(context.client(), id)),
        },
        () => api().delete(id),
        isGone(id),
      );
    },
  };
}
