/** The `Repo` resource: a registry repository of a group, its settings and its README. */
import type * as pulumi from "@pulumi/pulumi";
import type { CatalogTier } from "../sdk/index";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { RepoOutputs } from "./shapes/index";
import { REPO_SHAPE } from "./shapes/index";

/** Arguments of a {@link Repo}. */
export interface RepoArgs {
  /** Uid of the group the repo belongs to. Changing it replaces the repo. */
  readonly parentUid: pulumi.Input<string>;
  /**
   * Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters, unique in the group.
   * Updated in place.
   */
  readonly name: pulumi.Input<string>;
  /** Free text, at most 1024 characters; defaults to `""`. Updated in place. */
  readonly description?: pulumi.Input<string>;
  /** The catalog tier (`CATALOG_TIER_BASE`, ...); defaults to `CATALOG_TIER_UNSPECIFIED`. */
  readonly catalogTier?: pulumi.Input<CatalogTier>;
  /** Equivalent image names, each a name of the same pattern; defaults to `[]`. */
  readonly aliases?: pulumi.Input<pulumi.Input<string>[]>;
  /** The README's Markdown, at most 1 MiB; defaults to `""` (none). */
  readonly readme?: pulumi.Input<string>;
  /**
   * Uid of an existing repo (directly in `parentUid`) to bring under management instead
   * of creating one. Read only at creation; see docs/provider.md "Adoption".
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const REPO = resourceKind(REPO_SHAPE);

/** State as a {@link Repo} declares it: the tier typed by its enum. */
interface RepoState extends Omit<RepoOutputs, "catalogTier"> {
  /** The catalog tier. */
  catalogTier: CatalogTier;
}

/** A registry repository in a group, with its README. */
export class Repo extends declaring<RepoState>(REPO) {
  constructor(name: string, args: RepoArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(REPO, name, args, opts));
    uidFromId(this);
  }
}
