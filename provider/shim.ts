/**
 * The provider text every resource of this package stores in state (`__provider`, in its
 * inputs and again in its outputs), one per resource type, written out here in full.
 *
 * Pulumi's dynamic-provider host loads a resource's text as a module and calls its
 * `handler()` for the provider object (`requireFromString(text).handler()`), from the
 * program's folder. Each text below only requires the package's runtime entry by name
 * and hands over that entry's object for the type, plus its `configure`:
 *
 *     const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.group,configure:r.configure})
 *
 * The texts are set by the resource classes themselves (`resource-class.ts`), not made
 * by Pulumi's closure serializer: the serializer wrote 2 KB per type, and finds a
 * module's name from the file's path, which goes wrong under pnpm's `.pnpm` folders,
 * for a linked checkout and for a program whose path contains the package's name.
 *
 * Rules, because these texts outlive every release that wrote them:
 * - A text requires nothing but `pulumi-irm/provider/runtime` and reads nothing but its
 *   exports `configure` and its type's object (`group`, `identity`, `binding`, `role`,
 *   `idp`, `invite`, `assoc`, since the external group role mappings `egrm`, since the
 *   registry's writes `repo` and `subscription`, each with `check`, `diff`, `create`,
 *   `read`, `update`, `delete`). Every release since the
 *   first exports the first seven, so an older package still runs state of those types
 *   written by a newer one (a rollback), and the long texts of older releases still run
 *   on this one (an upgrade); a release exports every object any earlier one did.
 * - A text never changes once released: the runtime keeps a resource's stored text until
 *   a `refresh` moves it to the current one (`runtime.ts`), and a test pins each text.
 */

/** The runtime entry every text requires, resolved from the program's folder. */
export const RUNTIME_ENTRY = "pulumi-irm/provider/runtime";

/** Text of `pulumi-nodejs:dynamic/irm:Group`. */
export const groupProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.group,configure:r.configure})';

/** Text of `pulumi-nodejs:dynamic/irm:Identity`. */
export const identityProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.identity,configure:r.configure})';

/** Text of `pulumi-nodejs:dynamic/irm:RoleBinding`. */
export const roleBindingProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.binding,configure:r.configure})';

/** Text of `pulumi-nodejs:dynamic/irm:Role`. */
export const roleProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.role,configure:r.configure})';

/** Text of `pulumi-nodejs:dynamic/irm:IdentityProvider`. */
export const identityProviderProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.idp,configure:r.configure})';

/** Text of `pulumi-nodejs:dynamic/irm:GroupInvite`. */
export const groupInviteProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.invite,configure:r.configure})';

/** Text of `pulumi-nodejs:dynamic/irm:AccountAssociation`. */
export const accountAssociationProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.assoc,configure:r.configure})';

/** Text of `pulumi-nodejs:dynamic/irm:ExternalGroupRoleMapping`. */
export const externalGroupRoleMappingProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.egrm,configure:r.configure})';

/** Text of `pulumi-nodejs:dynamic/irm:Repo`. */
export const repoProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.repo,configure:r.configure})';

/** Text of `pulumi-nodejs:dynamic/irm:Subscription`. */
export const subscriptionProvider =
  'const r=require("pulumi-irm/provider/runtime");exports.handler=()=>({...r.subscription,configure:r.configure})';

/**
 * True when `text` is a provider text of this package, of this release or an older one:
 * it requires the runtime entry by name. Such a text runs wherever the package is
 * installed where the program's folder finds it.
 */
export function isPackageProviderText(text: unknown): text is string {
  return typeof text === "string" && text.includes(`require("${RUNTIME_ENTRY}")`);
}
