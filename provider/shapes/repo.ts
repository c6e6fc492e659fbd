/** The shape of `Repo`: a registry repository's inputs (with its README) and its state. */
import { CATALOG_TIERS } from "../../sdk/index";
import {
  ADOPT_UID,
  CREATE_TIME,
  echoed,
  enumOf,
  kindShape,
  STRING,
  STRING_ARRAY,
  UID_OUTPUT,
  UPDATE_TIME,
} from "./table";

const INPUTS = {
  parentUid: {
    shape: STRING,
    doc: "Uid of the group the repo belongs to.",
    required: true,
    replaces: true,
  },
  name: {
    shape: STRING,
    doc: "Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters, unique in the group.",
    required: true,
  },
  description: { shape: STRING, doc: "Free text, at most 1024 characters.", default: "" },
  catalogTier: {
    shape: enumOf(CATALOG_TIERS),
    doc: "The catalog tier (`CATALOG_TIER_BASE`, ...).",
    default: "CATALOG_TIER_UNSPECIFIED",
  },
  aliases: {
    shape: STRING_ARRAY,
    doc: "Equivalent image names, each a name of the same pattern.",
    default: [],
  },
  readme: { shape: STRING, doc: 'The README\'s Markdown, at most 1 MiB; `""`: none.', default: "" },
  adoptUid: ADOPT_UID(
    "Uid of an existing repo (directly in `parentUid`) to bring under management; read only at creation.",
  ),
} as const;

export const REPO_SHAPE = kindShape({
  type: "Repo",
  doc: "A registry repository in a group, with its README.",
  inputs: INPUTS,
  outputs: {
    uid: UID_OUTPUT("The repo's uid (its group's uid, `/`, 16 hex)."),
    parentUid: echoed(INPUTS.parentUid, false),
    name: echoed(INPUTS.name, true),
    description: echoed(INPUTS.description, true),
    catalogTier: echoed(INPUTS.catalogTier, true),
    aliases: echoed(INPUTS.aliases, true),
    readme: echoed(INPUTS.readme, true),
    createTime: { ...CREATE_TIME, doc: "When the repo was created (RFC 3339)." },
    updateTime: {
      ...UPDATE_TIME,
      doc: "When the repo's own fields last changed (a README change leaves it).",
    },
  },
});

/** The inputs of a `Repo` after its checks. */
export interface RepoInputs {
  /** Uid of the group the repo belongs to. */
  parentUid: string;
  /** The repo's name, unique in its group. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** A `CatalogTier` value name; `CATALOG_TIER_UNSPECIFIED` when none. */
  catalogTier: string;
  /** Equivalent image names; `[]` when none. */
  aliases: string[];
  /** The README's Markdown; `""` when none. */
  readme: string;
  /** Uid of an existing repo of the group to bring under management. */
  adoptUid?: string;
}

/** Outputs of a Repo, as stored in state: its inputs and what the API adds. */
export interface RepoOutputs extends Omit<RepoInputs, "adoptUid"> {
  /** The repo's uid (its group's uid, `/`, 16 hex). */
  uid: string;
  /** When the repo was created (RFC 3339). */
  createTime: string;
  /** When the repo's own fields last changed (a README write leaves it). */
  updateTime: string;
}
