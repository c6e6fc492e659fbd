/** The `AccountAssociation` resource: a group's outside accounts and service identities. */
import type * as pulumi from "@pulumi/pulumi";
import type { AmazonAccount, AzureTenant, GoogleProject, ServicePrincipalName } from "../sdk/index";
import type { ArgsOf, NamedArgs } from "./resource-class";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { AccountAssociationOutputs } from "./shapes/index";
import { ACCOUNT_ASSOCIATION_SHAPE } from "./shapes/index";

/** An AWS account. */
export interface AmazonAccountArgs extends ArgsOf<AmazonAccount> {}

/** A GCP project. */
export interface GoogleProjectArgs extends ArgsOf<GoogleProject> {}

/** An Azure tenant. */
export interface AzureTenantArgs extends ArgsOf<AzureTenant> {}

/** One installation of a GitHub App. */
export interface GitHubInstallationArgs {
  /** A positive integer (or its decimal string), once per app. */
  readonly installationId: pulumi.Input<number | string>;
  /** Informational; defaults to `""`. */
  readonly name?: pulumi.Input<string>;
}

/** GitHub App installations. */
export interface GitHubInstallationsArgs {
  /** GitHub App id (a positive int64 in decimal) to at least one installation. */
  readonly appInstallations: pulumi.Input<
    Record<
      string,
      pulumi.Input<{ installations: pulumi.Input<pulumi.Input<GitHubInstallationArgs>[]> }>
    >
  >;
}

/** The identities the platform's services assume in the group. */
export interface ChainguardBindingsArgs {
  /**
   * Service name without its prefix (`INGESTER`, `COSIGNED`, ...) to the uid of an
   * identity directly in the group whose `servicePrincipal` is that service.
   */
  readonly serviceBindings: pulumi.Input<
    Partial<Record<ServicePrincipalName, pulumi.Input<string>>>
  >;
}

/**
 * Arguments of an {@link AccountAssociation}. At least one of `amazon`, `google`,
 * `azure`, `github`, `chainguard` is required; each is updated in place, replaced
 * whole, and removed when dropped from the program.
 */
export interface AccountAssociationArgs extends NamedArgs {
  /** Uid of the group (at most one association per group). Changing it replaces the association. */
  readonly groupUid: pulumi.Input<string>;
  readonly amazon?: pulumi.Input<AmazonAccountArgs>;
  readonly google?: pulumi.Input<GoogleProjectArgs>;
  readonly azure?: pulumi.Input<AzureTenantArgs>;
  readonly github?: pulumi.Input<GitHubInstallationsArgs>;
  readonly chainguard?: pulumi.Input<ChainguardBindingsArgs>;
  /**
   * `groupUid` again, to bring the group's existing association under management
   * instead of creating one. Read only at creation.
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const ACCOUNT_ASSOCIATION = resourceKind(ACCOUNT_ASSOCIATION_SHAPE);

/** The outside accounts of a group, and the identities the platform's services assume there. */
export class AccountAssociation extends declaring<AccountAssociationOutputs>(ACCOUNT_ASSOCIATION) {
  constructor(name: string, args: AccountAssociationArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(ACCOUNT_ASSOCIATION, name, args, opts));
    uidFromId(this);
  }
}
