/**
 * The provider text every resource of this package stores in state (`__provider`, in its
 * inputs and again in its outputs), one per resource type, made by `providerText` from the
 * name of the type's runtime export (its table, `shapes/<kind>.ts`, names it).
 *
 * Pulumi's dynamic-provider host loads a resource's text as a module and calls its
 * `handler()` for the provider object (`requireFromString(text).handler()`), from the
 * program's folder. Each text below only requires the package's runtime entry by name
 * and hands over that entry's object for the type, plus its `configure`
 * ({@link providerText}, from the name of the type's export):
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

/**
 * The text of the resource type whose runtime object is exported as `runtimeExport`
 * (`shapes/<kind>.ts` names it): `providerText("group")` is the text of every `Group`.
 * Byte for byte what every release wrote (`tests/provider/provider-text.test.ts` pins
 * each type's).
 */
export function providerText(runtimeExport: string): string {
  return `const r=require("${RUNTIME_ENTRY}");exports.handler=()=>({...r.${runtimeExport},configure:r.configure})`;
}

/**
 * True when `text` is a provider text of this package, of this release or an older one:
 * it requires the runtime entry by name. Such a text runs wherever the package is
 * installed where the program's folder finds it.
 */
export function isPackageProviderText(text: unknown): text is string {
  return typeof text === "string" && text.includes(`require("${RUNTIME_ENTRY}")`);
}
