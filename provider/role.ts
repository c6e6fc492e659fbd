/** The `Role` resource: a custom role of a group, usable in its group and below it. */
import type * as pulumi from "@pulumi/pulumi";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { RoleOutputs } from "./shapes/index";
import { ROLE_SHAPE } from "./shapes/index";

/** Arguments of a {@link Role}. */
export interface RoleArgs {
  /** Uid of the group that owns the role. Changing it replaces the role. */
  readonly parentUid: pulumi.Input<string>;
  /**
   * Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters, and not a built-in
   * role's (`owner`, `editor`, `viewer`, `registry.pull`). Updated in place.
   */
  readonly name: pulumi.Input<string>;
  /** Free text, at most 1024 characters; defaults to `""`. Updated in place. */
  readonly description?: pulumi.Input<string>;
  /**
   * At least one capability, by the API's enum value name (`CAP_REPO_LIST`,
   * `CAP_IAM_GROUPS_CREATE`; the SDK's `CAPABILITIES` lists them). There is no GET
   * capability: a Get needs the LIST one. A former name (`repos.list`) is refused with
   * its replacement. Compared as a set: order and duplicates make no change. Updated in
   * place.
   */
  readonly capabilities: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Uid of an existing custom role of `parentUid` to bring under management instead of
   * creating one. Read only at creation.
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const ROLE = resourceKind(ROLE_SHAPE);

/** A custom role: a named set of capabilities, usable in its group and the groups below it. */
export class Role extends declaring<RoleOutputs>(ROLE) {
  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(ROLE, name, args, opts));
    uidFromId(this);
  }
}
