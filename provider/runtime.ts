/**
 * The provider's runtime entry (`pulumi-irm/provider/runtime`). The serialized shims in
 * state `require` this module inside the provider host and delegate to it, so the
 * settings, the token and the client live here, in module state, and never in state.
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
import type { HandlerContext } from "./handlers/common";
import { groupHandler } from "./handlers/group";
import { groupInviteHandler } from "./handlers/group-invite";
import { identityHandler } from "./handlers/identity";
import { identityProviderHandler } from "./handlers/identity-provider";
import { roleHandler } from "./handlers/role";
import { roleBindingHandler } from "./handlers/role-binding";

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

/*
 * One export per resource type, named as its serialized shims call it: that text is in
 * every resource's state, so a name never changes once released, and names are short
 * because each is repeated in every resource's `__provider` (kept under 2 KB). The rule:
 * each export is made by the handler factory named after its resource type,
 * `<resourceType>Handler(context)` from `handlers/<resource-type>.ts`; the export's own
 * name is the short one state calls, given beside each below.
 */

/** `group`: provider methods of `pulumi-nodejs:dynamic/irm:Group`. */
export const group = groupHandler(context);
/** `identity`: provider methods of `pulumi-nodejs:dynamic/irm:Identity`. */
export const identity = identityHandler(context);
/** `binding`: provider methods of `pulumi-nodejs:dynamic/irm:RoleBinding`. */
export const binding = roleBindingHandler(context);
/** `role`: provider methods of `pulumi-nodejs:dynamic/irm:Role`. */
export const role = roleHandler(context);
/** `idp`: provider methods of `pulumi-nodejs:dynamic/irm:IdentityProvider`. */
export const idp = identityProviderHandler(context);
/** `invite`: provider methods of `pulumi-nodejs:dynamic/irm:GroupInvite`. */
export const invite = groupInviteHandler(context);
/** `assoc`: provider methods of `pulumi-nodejs:dynamic/irm:AccountAssociation`. */
export const assoc = accountAssociationHandler(context);
