/**
 * The provider objects Pulumi serializes into every resource's `__provider` input, one
 * per resource type, all here: each is written out in full rather than made by a
 * function, because its text is what state stores (a function would capture its
 * arguments into that text, and a change of text is a change of every stored resource).
 *
 * Each method only requires the package's runtime entry and delegates, so the
 * serialized text stays small and holds no client, setting or token: those live in
 * the runtime module inside the provider host. Do not reference anything else from
 * this module in a method body: whatever a method captures is copied into state.
 * Methods are terse arrows forwarding `...a` because every character is repeated
 * in the `__provider` text of every resource (kept under 2 KB).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";

/** The runtime entry's shape, for typing the `require` below (erased at compile time). */
type Runtime = typeof import("./runtime");

/** Provider of `pulumi-nodejs:dynamic/irm:Group`. */
export const groupProvider: dynamic.ResourceProvider = {
  configure: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).configure(...a),
  check: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).group.check(...a),
  diff: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).group.diff(...a),
  create: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).group.create(...a),
  read: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).group.read(...a),
  update: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).group.update(...a),
  delete: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).group.delete(...a),
};

/** Provider of `pulumi-nodejs:dynamic/irm:Identity`. */
export const identityProvider: dynamic.ResourceProvider = {
  configure: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).configure(...a),
  check: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).identity.check(...a),
  diff: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).identity.diff(...a),
  create: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).identity.create(...a),
  read: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).identity.read(...a),
  update: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).identity.update(...a),
  delete: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).identity.delete(...a),
};

/** Provider of `pulumi-nodejs:dynamic/irm:RoleBinding`. */
export const roleBindingProvider: dynamic.ResourceProvider = {
  configure: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).configure(...a),
  check: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).binding.check(...a),
  diff: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).binding.diff(...a),
  create: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).binding.create(...a),
  read: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).binding.read(...a),
  update: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).binding.update(...a),
  delete: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).binding.delete(...a),
};

/** Provider of `pulumi-nodejs:dynamic/irm:Role`. */
export const roleProvider: dynamic.ResourceProvider = {
  configure: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).configure(...a),
  check: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).role.check(...a),
  diff: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).role.diff(...a),
  create: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).role.create(...a),
  read: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).role.read(...a),
  update: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).role.update(...a),
  delete: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).role.delete(...a),
};

/** Provider of `pulumi-nodejs:dynamic/irm:IdentityProvider`. */
export const identityProviderProvider: dynamic.ResourceProvider = {
  configure: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).configure(...a),
  check: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).idp.check(...a),
  diff: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).idp.diff(...a),
  create: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).idp.create(...a),
  read: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).idp.read(...a),
  update: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).idp.update(...a),
  delete: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).idp.delete(...a),
};

/** Provider of `pulumi-nodejs:dynamic/irm:GroupInvite`. */
export const groupInviteProvider: dynamic.ResourceProvider = {
  configure: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).configure(...a),
  check: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).invite.check(...a),
  diff: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).invite.diff(...a),
  create: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).invite.create(...a),
  read: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).invite.read(...a),
  update: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).invite.update(...a),
  delete: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).invite.delete(...a),
};

/** Provider of `pulumi-nodejs:dynamic/irm:AccountAssociation`. */
export const accountAssociationProvider: dynamic.ResourceProvider = {
  configure: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).configure(...a),
  check: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).assoc.check(...a),
  diff: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).assoc.diff(...a),
  create: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).assoc.create(...a),
  read: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).assoc.read(...a),
  update: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).assoc.update(...a),
  delete: (...a) => (require("pulumi-irm/provider/runtime") as Runtime).assoc.delete(...a),
};
