/**
 * The outputs each resource class exposes to a program, as types: every member of its
 * kind's state (`XOutputs` of `provider/shapes/`) but the state-only ones, each as
 * `pulumi.Output<T>` with T the state's type (`| undefined` where state may lack it),
 * and no other output. Checked by the compiler (`npm run lint`); the runtime half
 * (the names registered) is pinned in `class-registration.test.ts`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type * as irm from "../../provider/index";
import type { ProviderKind } from "../../provider/kinds";
import type {
  AccountAssociationOutputs,
  ExternalGroupRoleMappingOutputs,
  GroupInviteOutputs,
  GroupOutputs,
  IdentityOutputs,
  IdentityProviderOutputs,
  PROVIDER_SHAPES,
  RepoOutputs,
  RoleBindingOutputs,
  RoleOutputs,
  SubscriptionOutputs,
} from "../../provider/shapes/index";
import type { CatalogTier } from "../../sdk/index";

/** True when X and Y are the same type (optional and readonly members included). */
type Equal<X, Y> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;

/** Each class, with its state's type. */
interface Classes {
  Group: [irm.Group, GroupOutputs];
  Identity: [irm.Identity, IdentityOutputs];
  RoleBinding: [irm.RoleBinding, RoleBindingOutputs];
  Role: [irm.Role, RoleOutputs];
  IdentityProvider: [irm.IdentityProvider, IdentityProviderOutputs];
  GroupInvite: [irm.GroupInvite, GroupInviteOutputs];
  AccountAssociation: [irm.AccountAssociation, AccountAssociationOutputs];
  ExternalGroupRoleMapping: [irm.ExternalGroupRoleMapping, ExternalGroupRoleMappingOutputs];
  /** A repo's tier is typed by its enum on the class (state holds the same names). */
  Repo: [irm.Repo, Omit<RepoOutputs, "catalogTier"> & { catalogTier: CatalogTier }];
  Subscription: [irm.Subscription, SubscriptionOutputs];
}

/** The state members a table keeps in state only (not declared on the class). */
type StateOnly<N extends keyof typeof PROVIDER_SHAPES> = {
  [K in keyof (typeof PROVIDER_SHAPES)[N]["outputs"]]: (typeof PROVIDER_SHAPES)[N]["outputs"][K] extends {
    stateOnly: true;
  }
    ? K
    : never;
}[keyof (typeof PROVIDER_SHAPES)[N]["outputs"]];

/** Written out without the library's helpers: state member K as the class must expose it. */
type Expected<O, Keys extends keyof O> = {
  readonly [K in Keys]-?: pulumi.Output<
    Record<never, never> extends Pick<O, K> ? O[K] | undefined : O[K]
  >;
};

/** The names of a class's `pulumi.Output` members, less `urn` and `id` of every resource. */
type OutputNames<C> = Exclude<
  { [K in keyof C]: C[K] extends pulumi.Output<unknown> ? K : never }[keyof C],
  "urn" | "id"
>;

type Pins = {
  [N in keyof Classes]: [
    Equal<OutputNames<Classes[N][0]>, Exclude<keyof Classes[N][1], StateOnly<N>>>,
    Equal<
      Pick<Classes[N][0], OutputNames<Classes[N][0]>>,
      Expected<Classes[N][1], Exclude<keyof Classes[N][1], StateOnly<N>>>
    >,
  ];
};
const PINNED: { [N in keyof Pins]: [true, true] } = {} as Pins;
/** Every kind of `PROVIDER_KINDS` is pinned, and nothing else. */
const EVERY_KIND: Equal<keyof Classes, ProviderKind["type"]> = true;

describe("each resource class's outputs", () => {
  it("are its kind's state less the state-only members, for every kind", () => {
    expect(PINNED).toBeDefined();
    expect(EVERY_KIND).toBe(true);
  });
});
