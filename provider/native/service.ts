/**
 * What the native plugin serves past its schema (`server.ts` loads this module at the
 * first call that needs it): configuration, every resource kind of `PROVIDER_KINDS` and
 * every lookup, from the same handlers and checks as the dynamic resources, for
 * programs in any Pulumi language.
 *
 * Written against the protocol modules `@pulumi/pulumi` ships (`proto/`), not its
 * `provider.main`, which drops the configure request's settings, hands secret envelopes
 * to `check` as they are and answers no detailed diff nor preview outputs. Only these
 * modules of `@pulumi/pulumi` are loaded, never the rest of it: the lookups are served
 * with the settings checked at configure, and read no config of their own.
 */
import type { IrmClient, Role } from "../../sdk/index";
import { onTopLevelInputs } from "../checks";
import { checkedProviderSettings, clientFor, type ProviderSettings, whatToCheck } from "../config";
import { rememberRole } from "../handlers/checked-role";
import {
  canonical,
  type HandlerContext,
  providerClock,
  type ResourceHandler,
} from "../handlers/common";
import { rememberExisting } from "../handlers/object-handler";
import { PROVIDER_KINDS } from "../kinds";
import * as lookups from "../lookups";
import { UserError } from "../user-error";
import { type Callback, Empty, grpc, type Message, messages, Struct } from "./protocol";
import type { NativeSchema } from "./schema";
import { INVOKES, type InvokeSpec, PACKAGE, resourceToken } from "./tokens";
import { defined, type Plain, UNKNOWN, unwrapSecrets, wrapSecrets } from "./values";

type Handler = ResourceHandler<Plain, Plain>;

/** What the resource types offer the server, by type token. */
interface TypeInfo {
  handler: Handler;
  /** Every output property the schema declares. */
  outputs: readonly string[];
  /** Properties always kept secret (the schema's `secret`). */
  secretOutputs: readonly string[];
  secretInputs: readonly string[];
  /** Every input property the schema declares. */
  inputs: readonly string[];
}

/** The lookups, by their export's name (`InvokeSpec.lookup`). */
const LOOKUPS = lookups as unknown as Record<
  string,
  (args: Plain, opts: { settings: ProviderSettings }) => Promise<unknown>
>;

/** The provider text a dynamic resource keeps in its inputs and state. */
const DYNAMIC_TEXT = "__provider";

/** A plain object of a Struct (absent: `{}`). */
function plainOf(struct: Message | undefined): Plain {
  return struct ? (struct.toJavaScript() as Plain) : {};
}

function structOf(props: Plain): Message {
  return Struct.fromJavaScript(defined(props));
}

/** The error as the engine shows it: its message, with what to check when the API or network failed. */
function grpcError(error: unknown): Error & { code: number } {
  const advice = whatToCheck(error);
  const message = advice ?? (error instanceof Error ? error.message : String(error));
  return Object.assign(new Error(message), { code: grpc.status.UNKNOWN });
}

/** Reads `irm:<key>` from a Configure request's arguments (or its legacy variables). */
function configReader(
  args: Plain,
  variables: Map<string, string>,
): (key: string) => string | undefined {
  return (key) => {
    const short = key.slice(`${PACKAGE}:`.length);
    const value = args[short] ?? variables.get(`${PACKAGE}:config:${short}`) ?? variables.get(key);
    if (value === undefined || value === null || value === "" || value === UNKNOWN)
      return undefined;
    return typeof value === "string" ? value : JSON.stringify(value);
  };
}

/** The type token of a request: its `type` field, or the last type of its URN. */
function typeOf(request: Message): string {
  const type: string = request.getType?.() ?? "";
  if (type !== "") return type;
  const urnType = String(request.getUrn()).split("::")[2] ?? "";
  return urnType.split("$").pop() ?? "";
}

/** Names of the top-level properties whose values differ (absent, `""` and empty alike). */
function changedKeys(olds: Plain, news: Plain, keys: Iterable<string>): string[] {
  const text = (value: unknown) => (value === "" ? "" : canonical(value));
  return [...keys].filter((key) => text(olds[key]) !== text(news[key]));
}

/**
 * What a function's answer tells the checks of the same process, so that they ask the
 * API nothing more: each object read exists, with the groups above it (a new object's
 * container is not read again), and a role is recorded as `checkedRole` records it (a
 * binding that grants a role the program looked up by name reads no role).
 */
function rememberAnswer(client: IrmClient, invoke: InvokeSpec, result: unknown): void {
  if (invoke.returns === undefined) return;
  for (const item of Array.isArray(result) ? result : [result]) {
    const uid = (item as { uid?: unknown } | undefined)?.uid;
    if (typeof uid !== "string" || uid === "") continue;
    rememberExisting(client, uid, invoke.returns === "Group");
    if (invoke.returns === "Role") rememberRole(client, item as Role);
  }
}

/** The methods this module serves, by name (the rest: `server.ts`). */
export type ResourceMethods = ReturnType<typeof resourceService>;

/** Builds what the service serves past its schema; `schema` is the generated schema (`schema.ts`). */
export function resourceService(schema: NativeSchema) {
  let settings: ProviderSettings | undefined;
  const current = () => {
    settings ??= checkedProviderSettings(() => undefined);
    return settings;
  };
  const context: HandlerContext = {
    client: () => clientFor(current()),
    settings: current,
    sleep: (ms) => providerClock.sleep(ms),
    now: () => providerClock.now(),
  };
  const types = new Map<string, TypeInfo>();
  for (const kind of PROVIDER_KINDS) {
    const token = resourceToken(kind.type);
    const resource = schema.resources[token];
    const props = resource?.properties ?? {};
    const inputs = resource?.inputProperties ?? {};
    types.set(token, {
      handler: kind.handler(context) as unknown as Handler,
      outputs: Object.keys(props),
      secretOutputs: Object.keys(props).filter((key) => props[key].secret),
      secretInputs: Object.keys(inputs).filter((key) => inputs[key].secret),
      inputs: Object.keys(inputs),
    });
  }
  const typeInfo = (request: Message): TypeInfo => {
    const token = typeOf(request);
    const info = types.get(token);
    if (info === undefined) throw new UserError(`${PACKAGE}: unknown resource type ${token}`);
    return info;
  };

  /** One unary method: the answer of `run`, or its error as the engine shows it. */
  const unary =
    (run: (request: Message) => Promise<Message> | Message) =>
    (call: { request: Message }, callback: Callback) => {
      Promise.resolve()
        .then(() => run(call.request))
        .then(
          (response) => callback(null, response),
          (error) => callback(grpcError(error)),
        );
    };

  /** Outputs as the engine stores them: secrets wrapped, undefined dropped. */
  const outputsStruct = (info: TypeInfo, outs: Plain, inputSecrets: Iterable<string>) =>
    structOf(wrapSecrets(outs, [...info.secretOutputs, ...inputSecrets]));

  /** What preview answers for outputs: the inputs, the rest not known yet. */
  const predicted = (info: TypeInfo, base: Plain, inputs: Plain, unknown: Iterable<string>) => {
    const out: Plain = { ...base, ...inputs };
    for (const key of info.outputs) if (out[key] === undefined) out[key] = UNKNOWN;
    for (const key of unknown) if (key in out) out[key] = UNKNOWN;
    return out;
  };

  return {
    checkConfig: unary((request) => {
      const { plain } = unwrapSecrets(plainOf(request.getNews()));
      const response = new messages.CheckResponse();
      response.setInputs(request.getNews());
      try {
        checkedProviderSettings(configReader(plain, new Map()));
      } catch (error) {
        // An unknown value (preview) is judged at configure.
        if (!Object.values(plain).includes(UNKNOWN)) {
          const failure = new messages.CheckFailure();
          failure.setReason(error instanceof Error ? error.message : String(error));
          response.setFailuresList([failure]);
        }
      }
      return response;
    }),
    diffConfig: unary((request) => {
      const olds = unwrapSecrets(plainOf(request.getOlds())).plain;
      const news = unwrapSecrets(plainOf(request.getNews())).plain;
      const keys = changedKeys(olds, news, new Set([...Object.keys(olds), ...Object.keys(news)]));
      const response = new messages.DiffResponse();
      response.setChanges(
        keys.length > 0
          ? messages.DiffResponse.DiffChanges.DIFF_SOME
          : messages.DiffResponse.DiffChanges.DIFF_NONE,
      );
      response.setDiffsList(keys);
      return response;
    }),
    configure: unary((request) => {
      const args = unwrapSecrets(plainOf(request.getArgs())).plain;
      const variables = new Map<string, string>(request.getVariablesMap().toArray());
      // Before any check or request, in preview too (`checkedProviderSettings`).
      settings = checkedProviderSettings(configReader(args, variables));
      const response = new messages.ConfigureResponse();
      response.setAcceptsecrets(true);
      response.setSupportspreview(true);
      response.setAcceptresources(false);
      response.setAcceptoutputs(false);
      return response;
    }),
    check: unary(async (request) => {
      const info = typeInfo(request);
      const olds = unwrapSecrets(plainOf(request.getOlds())).plain;
      const news = unwrapSecrets(plainOf(request.getNews()));
      const result = await info.handler.check(olds, news.plain);
      const response = new messages.CheckResponse();
      if (result.inputs) {
        const inputs = wrapSecrets(result.inputs as Plain, [...news.secrets, ...info.secretInputs]);
        response.setInputs(structOf(inputs));
      }
      const failures = result.failures?.length ? onTopLevelInputs(result.failures, news.plain) : [];
      response.setFailuresList(
        failures.map((item) => {
          const failure = new messages.CheckFailure();
          failure.setProperty(item.property);
          failure.setReason(item.reason);
          return failure;
        }),
      );
      return response;
    }),
    diff: unary(async (request) => {
      const info = typeInfo(request);
      const olds = unwrapSecrets(plainOf(request.getOlds())).plain;
      const news = unwrapSecrets(plainOf(request.getNews())).plain;
      const result = await info.handler.diff(request.getId(), olds, news);
      const response = new messages.DiffResponse();
      const { DiffChanges } = messages.DiffResponse;
      // State a dynamic resource wrote (a stack moved here by aliases) holds its provider
      // text: an update drops it, which reads the object and writes nothing (no field differs).
      const dynamicText = DYNAMIC_TEXT in olds;
      if (!result.changes && !dynamicText) {
        response.setChanges(DiffChanges.DIFF_NONE);
        return response;
      }
      const replaces = result.replaces ?? [];
      const replacedTop = new Set(replaces.map((path) => path.split(".")[0]));
      const keys = result.changes
        ? // The inputs now given, and those the state holds that the program dropped.
          changedKeys(olds, news, new Set([...Object.keys(news), ...info.inputs])).filter(
            (key) => key !== "adoptUid",
          )
        : [];
      if (dynamicText) keys.push(DYNAMIC_TEXT);
      response.setChanges(DiffChanges.DIFF_SOME);
      response.setReplacesList(replaces);
      response.setDeletebeforereplace(result.deleteBeforeReplace === true);
      response.setDiffsList(keys);
      const detailed = new Map<string, Message>();
      for (const key of keys) {
        const entry = new messages.PropertyDiff();
        const { Kind } = messages.PropertyDiff;
        entry.setKind(
          key === DYNAMIC_TEXT
            ? Kind.DELETE
            : replacedTop.has(key)
              ? Kind.UPDATE_REPLACE
              : Kind.UPDATE,
        );
        entry.setInputdiff(true);
        detailed.set(key, entry);
      }
      if (detailed.size > 0) {
        response.setHasdetaileddiff(true);
        const map = response.getDetaileddiffMap();
        for (const [key, entry] of detailed) map.set(key, entry);
      }
      return response;
    }),
    create: unary(async (request) => {
      const info = typeInfo(request);
      const inputs = unwrapSecrets(plainOf(request.getProperties()));
      const response = new messages.CreateResponse();
      if (request.getPreview()) {
        response.setProperties(
          outputsStruct(info, predicted(info, {}, inputs.plain, []), inputs.secrets),
        );
        return response;
      }
      const result = await info.handler.create(inputs.plain);
      response.setId(result.id);
      response.setProperties(outputsStruct(info, result.outs as Plain, inputs.secrets));
      return response;
    }),
    read: unary(async (request) => {
      const info = typeInfo(request);
      const state = unwrapSecrets(plainOf(request.getProperties()));
      const stored = unwrapSecrets(plainOf(request.getInputs()));
      const id: string = request.getId();
      // `pulumi import` (and the `import` option) read with nothing stored: a managed
      // read of the object with this uid.
      const props = Object.keys(state.plain).length === 0 ? { uid: id } : state.plain;
      const result = await info.handler.read(id, props);
      const response = new messages.ReadResponse();
      if (!result.id) return response;
      const secrets = [...state.secrets, ...stored.secrets];
      response.setId(result.id);
      if (result.props) response.setProperties(outputsStruct(info, result.props, secrets));
      if (result.inputs) {
        response.setInputs(
          structOf(wrapSecrets(result.inputs as Plain, [...secrets, ...info.secretInputs])),
        );
      }
      return response;
    }),
    update: unary(async (request) => {
      const info = typeInfo(request);
      const olds = unwrapSecrets(plainOf(request.getOlds()));
      const news = unwrapSecrets(plainOf(request.getNews()));
      const secrets = [...olds.secrets, ...news.secrets];
      const response = new messages.UpdateResponse();
      if (request.getPreview()) {
        const { adoptUid: _adopt, ...inputs } = news.plain;
        const { [DYNAMIC_TEXT]: _text, ...state } = olds.plain;
        const changing = "updateTime" in state ? ["updateTime"] : [];
        response.setProperties(
          outputsStruct(info, predicted(info, state, inputs, changing), secrets),
        );
        return response;
      }
      const id: string = request.getId();
      if (
        DYNAMIC_TEXT in olds.plain &&
        !(await info.handler.diff(id, olds.plain, news.plain)).changes
      ) {
        // Only the provider text of a moved dynamic resource goes: the state is read afresh.
        const { [DYNAMIC_TEXT]: _text, ...state } = olds.plain;
        const read = await info.handler.read(id, state);
        if (!read.id || !read.props)
          throw new UserError(`${typeOf(request)} ${id} no longer exists`);
        response.setProperties(outputsStruct(info, read.props, secrets));
        return response;
      }
      const result = await info.handler.update(id, olds.plain, news.plain);
      response.setProperties(outputsStruct(info, result.outs as Plain, secrets));
      return response;
    }),
    delete: unary(async (request) => {
      const info = typeInfo(request);
      await info.handler.delete(
        request.getId(),
        unwrapSecrets(plainOf(request.getProperties())).plain,
      );
      return new Empty();
    }),
    invoke: unary(async (request) => {
      const token: string = request.getTok();
      const invoke = INVOKES[token];
      if (invoke === undefined) throw new UserError(`${PACKAGE}: unknown function ${token}`);
      const args = unwrapSecrets(plainOf(request.getArgs())).plain;
      // The settings checked at configure: the lookup reads no config (nor `@pulumi/pulumi`).
      const lookup = LOOKUPS[invoke.lookup];
      const result = await lookup(args, { settings: current() });
      rememberAnswer(context.client(), invoke, result);
      const response = new messages.InvokeResponse();
      response.setReturn(structOf(invoke.listing ? { items: result } : (result as Plain)));
      return response;
    }),
  };
}
