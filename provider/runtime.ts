/**
 * The provider's runtime entry (`pulumi-irm/provider/runtime`). The provider texts in
 * state (`shim.ts`) `require` this module inside the provider host and hand over its
 * per-type objects, so the settings, the token and the client live here, in module
 * state, and never in state.
 */
import type { ConfigureRequest } from "@pulumi/pulumi/dynamic";
import {
  clientFor,
  type ProviderSettings,
  redactSettings,
  requireApiUrl,
  resolveProviderSettings,
} from "./config";
import { accountAssociationHandler } from "./handlers/account-association";
import type { HandlerContext, ResourceHandler } from "./handlers/common";
import { groupHandler } from "./handlers/group";
import { groupInviteHandler } from "./handlers/group-invite";
import { identityHandler } from "./handlers/identity";
import { identityProviderHandler } from "./handlers/identity-provider";
import { roleHandler } from "./handlers/role";
import { roleBindingHandler } from "./handlers/role-binding";
import {
  accountAssociationProvider,
  groupInviteProvider,
  groupProvider,
  identityProvider,
  identityProviderProvider,
  isPackageProviderText,
  roleBindingProvider,
  roleProvider,
} from "./shim";

let settings: ProviderSettings | undefined;

/**
 * Reads `irm:` config, then `IRM_*` variables, then defaults. The host calls this once
 * per distinct serialized provider (so up to once per resource type) with the same
 * config; the client is shared until the settings really change (`clientFor`).
 */
export async function configure(req: ConfigureRequest): Promise<void> {
  settings = resolveProviderSettings((key) => req.config.get(key));
  // Before any check or request, in preview too: where the token would go is unset.
  requireApiUrl(settings);
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
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Gives `value` a `__provider` that stays `text`: the provider host writes the text it
 * loaded into what a method returns (`result.__provider = ...` after `check`,
 * `Object.assign(result, {__provider})` after `read`), and this property ignores that
 * write, while the host's copy into the response reads `text`. A host that copies
 * differently just keeps its own text: the behaviour of before, no harm.
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

/*
 * One export per resource type, named as its serialized shims call it: that text is in
 * every resource's state, so a name never changes once released (the provider texts of
 * every release call these names, `configure` included). The rule:
 * each export is made by the handler factory named after its resource type,
 * `<resourceType>Handler(context)` from `handlers/<resource-type>.ts`; the export's own
 * name is the short one state calls, given beside each below.
 */

/** `group`: provider methods of `pulumi-nodejs:dynamic/irm:Group`. */
export const group = keepingText(groupHandler(context), groupProvider);
/** `identity`: provider methods of `pulumi-nodejs:dynamic/irm:Identity`. */
export const identity = keepingText(identityHandler(context), identityProvider);
/** `binding`: provider methods of `pulumi-nodejs:dynamic/irm:RoleBinding`. */
export const binding = keepingText(roleBindingHandler(context), roleBindingProvider);
/** `role`: provider methods of `pulumi-nodejs:dynamic/irm:Role`. */
export const role = keepingText(roleHandler(context), roleProvider);
/** `idp`: provider methods of `pulumi-nodejs:dynamic/irm:IdentityProvider`. */
export const idp = keepingText(identityProviderHandler(context), identityProviderProvider);
/** `invite`: provider methods of `pulumi-nodejs:dynamic/irm:GroupInvite`. */
export const invite = keepingText(groupInviteHandler(context), groupInviteProvider);
/** `assoc`: provider methods of `pulumi-nodejs:dynamic/irm:AccountAssociation`. */
export const assoc = keepingText(accountAssociationHandler(context), accountAssociationProvider);
