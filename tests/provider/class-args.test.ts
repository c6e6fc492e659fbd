/**
 * The argument types derived with `ArgsOf` from a kind's inputs or an SDK shape, written
 * out as users have them: a change to the type they come from that would change what
 * a program may pass fails here (checked by the compiler: `npm run lint`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import type * as irm from "../../provider/index";

/** True when X and Y are the same type (optional and readonly members included). */
type Equal<X, Y> =
  (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;

type S = pulumi.Input<string>;
type StringMap = pulumi.Input<Record<string, pulumi.Input<string>>>;

type Pins = {
  RoleBindingArgs: Equal<
    irm.RoleBindingArgs,
    { readonly groupUid: S; readonly identityUid: S; readonly roleUid: S; readonly adoptUid?: S }
  >;
  ExternalGroupRoleMappingArgs: Equal<
    irm.ExternalGroupRoleMappingArgs,
    {
      readonly identityProviderUid: S;
      readonly externalGroupId: S;
      readonly roleUid: S;
      readonly scope: S;
      readonly adoptUid?: S;
    }
  >;
  GroupArgs: Equal<
    irm.GroupArgs,
    { readonly parentUid: S; readonly name: S; readonly description?: S; readonly adoptUid?: S }
  >;
  RoleArgs: Equal<
    irm.RoleArgs,
    {
      readonly parentUid: S;
      readonly name: S;
      readonly description?: S;
      readonly capabilities: pulumi.Input<S[]>;
      readonly adoptUid?: S;
    }
  >;
  SubscriptionArgs: Equal<
    irm.SubscriptionArgs,
    { readonly parentUid: S; readonly sink: S; readonly adoptUid?: S }
  >;
  AwsIdentityArgs: Equal<
    irm.AwsIdentityArgs,
    {
      readonly awsAccount: S;
      readonly arn?: S;
      readonly arnPattern?: S;
      readonly userId?: S;
      readonly userIdPattern?: S;
    }
  >;
  ClaimMatchArgs: Equal<
    irm.ClaimMatchArgs,
    {
      readonly issuer?: S;
      readonly issuerPattern?: S;
      readonly subject?: S;
      readonly subjectPattern?: S;
      readonly audience?: S;
      readonly audiencePattern?: S;
      readonly claims?: StringMap;
      readonly claimPatterns?: StringMap;
    }
  >;
  AmazonAccountArgs: Equal<irm.AmazonAccountArgs, { readonly account: S }>;
  GoogleProjectArgs: Equal<
    irm.GoogleProjectArgs,
    { readonly projectId: S; readonly projectNumber: S }
  >;
  AzureTenantArgs: Equal<
    irm.AzureTenantArgs,
    { readonly tenantId: S; readonly clientIds: StringMap }
  >;
};
const PINNED: { [K in keyof Pins]: true } = {} as Pins;

describe("argument types derived from inputs", () => {
  it("are what programs pass, member for member", () => {
    expect(PINNED).toBeDefined();
  });
});
