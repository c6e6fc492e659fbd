/**
 * The provider's runtime entry (`pulumi-irm/provider/runtime`). The provider texts in
 * state (`shim.ts`) `require` this module inside the provider host and hand over its
 * per-type objects, so the settings, the token and the client live here, in module
 * state, and never in state.
 */
import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import { onTopLevelInputs } from "./checks";
import {
  checkedProviderSettings,
  clientFor,
  type ProviderSettings,
  redactSettings,
  resolveProviderSettings,
  whatToCheck,
} from "./config";
import { exitWhenEngineGone } from "./engine-watch";
import { type HandlerContext, providerClock, type ResourceHandler } from "./handlers/common";
import { PROVIDER_KINDS, type ProviderKind } from "./kinds";
import { isPackageProviderText } from "./shim";

let settings: ProviderSettings | undefined;

// In the provider host: exit once the engine that started it is gone (a killed CLI).
exitWhenEngineGone();

/**
 * Reads `irm:` config, then `IRM_*` variables, then defaults. The host calls this once
 * per distinct serialized provider (so up to once per resource type) with the same
 * config; the client is shared until the settings really change (`clientFor`).
 */
export async function configure(req: ConfigureRequest): Promise<void> {
  // Before any check or request, in preview too: no address, an address the token must
  // not go to, or a token that cannot work (`checkedProviderSettings`).
  settings = checkedProviderSettings((key) => req.config.get(key));
}

function currentSettings(): ProviderSettings {
  // Without configure (not expected from the host), fall back to environment and defaults.
  settings ??= resolveProviderSettings(() => undefined);
  return settings;
}

/** The settings in use with the token redacted (for diagnostics; never the token). */
export function describeSettings(): Record<string, unknown> {
  return redactSettings(currentSettings());
}

const context: HandlerContext = {
  client: () => clientFor(currentSettings()),
  settings: currentSettings,
  sleep: (ms) => providerClock.sleep(ms),
  now: () => providerClock.now(),
};

/**
 * Gives `value` a `__provider` that stays `text`: the provider host writes the text it
 * loaded into what a method returns (`result.__provider = ...` after `check`,
 * `Object.assign(result, {__provider})` after `read`), and this property ignores that
 * write, while the host's copy into the response reads `text`. A host that copies
 * differently just keeps its own text: the behaviour of before, no harm.
 *
 * Checked against `@pulumi/pulumi` 3.248.0, `cmd/dynamic-provider/index.js`: `check`
 * ends with `inputs[providerKey] = news[providerKey]` on the object our `check`
 * returned, and `read` with `resultIncludingProvider(result.props, props)` (and the same
 * of `result.inputs`), an `Object.assign` into our object of the text it loaded; both
 * then copy the object with `Struct.fromJavaScript`, which reads the getter.
 * `tests/provider/stored-text-in-host.test.ts` drives that very host over gRPC and
 * fails, saying so, once it assigns the text in any other way.
 */
function keepText<T extends object>(value: T, text: string): T {
  Object.defineProperty(value, "__provider", {
    get: () => text,
    set: () => {},
    enumerable: true,
    configurable: true,
  });
  return value;
}

/**
 * The handler of one type as the provider texts call it, with the text kept in step:
 * - `check` keeps the text a resource already stores (one of this package's, of any
 *   release), so an `up` after an upgrade or a rollback rewrites no stored text and
 *   never leaves a resource with one text in its inputs and another in its outputs;
 * - `read` writes this release's `text` into both, so a `refresh` moves every resource
 *   to it at once (the diff ignores `__provider`: the refresh reports no change).
 * New resources get the program's text, which is `text`.
 */
function keepingText<I, O>(handler: ResourceHandler<I, O>, text: string): ResourceHandler<I, O> {
  return {
    ...handler,
    async check(olds, news) {
      const result = await handler.check(olds, news);
      const stored = olds?.__provider;
      if (result.inputs && isPackageProviderText(stored)) keepText(result.inputs, stored);
      return result;
    },
    async read(id, props) {
      const result = await handler.read(id, props);
      if (result.id) {
        if (result.props) keepText(result.props, text);
        if (result.inputs) keepText(result.inputs, text);
      }
      return result;
    },
  };
}

/**
 * `handler` whose check failures each name a top-level input (or none), a member's path
 * leading the reason (`onTopLevelInputs`): this is where they leave the package for the
 * host, and the engine shows `value {<nil>}` for a property that is no top-level input.
 */
function withTopLevelFailures<I, O>(handler: ResourceHandler<I, O>): ResourceHandler<I, O> {
  return {
    ...handler,
    async check(olds, news) {
      const result = await handler.check(olds, news);
      return result.failures?.length
        ? { ...result, failures: onTopLevelInputs(result.failures, news) }
        : result;
    },
  };
}

/** The lines the provider host is about to print for errors it also answers the engine with. */
const hostCopies = new Set<string>();
let hostCopiesDropped = false;

/**
 * Keeps the provider host from printing a copy of `error` to stderr: the host writes
 * `${error}: ${error.stack}` before it answers the engine with the error's message, and
 * the engine shows that line too, cut off at its first colon, under the stack resource.
 * The message reaches the user once, from the answer; only that exact line is dropped.
 */
function reportedOnce(error: unknown): void {
  if (!(error instanceof Error)) return;
  hostCopies.add(`${error}: ${error.stack}`);
  if (hostCopiesDropped) return;
  hostCopiesDropped = true;
  const print = console.error;
  console.error = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && hostCopies.delete(args[0])) return;
    print.apply(console, args);
  };
}

/**
 * `handler` whose every method's failure from the API or the connection says what to
 * check (`whatToCheck`: an Unauthenticated answer names `irm:token` and the identity
 * settings). The error itself is kept, with its message completed, since the host reads
 * more than the message of some (the id of an object created but not ready).
 */
function withAdvice<I, O>(handler: ResourceHandler<I, O>): ResourceHandler<I, O> {
  const advised = (error: unknown): unknown => {
    const text = whatToCheck(error);
    if (text !== undefined && error instanceof Error) {
      Object.defineProperty(error, "message", { value: text, configurable: true, writable: true });
    }
    reportedOnce(error);
    return error;
  };
  const wrap =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await method(...args);
      } catch (error) {
        throw advised(error);
      }
    };
  return {
    check: wrap(handler.check.bind(handler)),
    diff: wrap(handler.diff.bind(handler)),
    create: wrap(handler.create.bind(handler)),
    read: wrap(handler.read.bind(handler)),
    update: wrap(handler.update.bind(handler)),
    delete: wrap(handler.delete.bind(handler)),
  };
}

/** The runtime's object of each resource type, by the name its provider text calls. */
type RuntimeObjects = {
  [K in ProviderKind as K["runtimeExport"]]: ReturnType<K["handler"]>;
};

const objects = Object.fromEntries(
  PROVIDER_KINDS.map((kind) => [
    kind.runtimeExport,
    keepingText<unknown, unknown>(
      withTopLevelFailures(withAdvice(kind.handler(context) as ResourceHandler<unknown, unknown>)),
      kind.text,
    ),
  ]),
) as RuntimeObjects;

/*
 * One export per resource type (`kinds.ts`), named as its provider text calls it: that
 * text is in every resource's state, so a name never changes once released (the texts
 * of every release call these names, `configure` included). A kind added to the list
 * and not exported here fails the test of the runtime's exports.
 */
export const { group, identity, binding, role, idp, invite, assoc, egrm, repo, subscription } =
  objects;
