/** The shape of `AccountAssociation`: a group's outside accounts, its inputs and state. */
import type {
  AmazonAccount,
  AzureTenant,
  ChainguardBindings,
  GitHubInstallations,
  GoogleProject,
} from "../../sdk/index";
import { SERVICE_PRINCIPAL_NAMES } from "../../sdk/index";
import {
  ADOPT_UID,
  CREATE_TIME,
  echoed,
  INTEGER,
  kindShape,
  objectOf,
  STRING,
  STRING_MAP,
  UID_OUTPUT,
  UPDATE_TIME,
} from "./table";

const BLOCK_DOC = "Updated in place, replaced whole, and removed when dropped from the program.";

const AMAZON = objectOf({
  account: { shape: STRING, doc: "The AWS account id: 12 digits.", required: true },
});

const GOOGLE = objectOf({
  projectId: {
    shape: STRING,
    doc: "6 to 30 characters: a lowercase letter, then lowercase letters, digits or `-`.",
    required: true,
  },
  projectNumber: { shape: STRING, doc: "Non-empty, at most 64 characters.", required: true },
});

const AZURE = objectOf({
  tenantId: { shape: STRING, doc: "A GUID.", required: true },
  clientIds: {
    shape: STRING_MAP,
    doc: "Component name to client id (a GUID); at least one.",
    required: true,
  },
});

const GITHUB_INSTALLATION = objectOf({
  installationId: {
    shape: INTEGER,
    doc: "A positive integer (or its decimal string), once per app.",
    required: true,
    alsoAccepts: [STRING],
  },
  name: { shape: STRING, doc: "Informational.", default: "" },
});

const GITHUB = objectOf({
  appInstallations: {
    shape: {
      type: "map",
      values: objectOf({
        installations: {
          shape: { type: "array", items: GITHUB_INSTALLATION },
          doc: "The app's installations; at least one.",
          required: true,
        },
      }),
    },
    doc: "GitHub App id (a positive int64 in decimal) to its installations.",
    required: true,
  },
});

const CHAINGUARD = objectOf({
  serviceBindings: {
    shape: { type: "map", values: STRING, keys: SERVICE_PRINCIPAL_NAMES },
    doc: "Service name without its prefix (`INGESTER`, ...) to the uid of an identity directly in the group with that `servicePrincipal`.",
    required: true,
  },
});

const INPUTS = {
  groupUid: {
    shape: STRING,
    doc: "Uid of the group (at most one association per group).",
    required: true,
    replaces: true,
  },
  name: {
    shape: STRING,
    doc: "Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters.",
    required: true,
  },
  description: { shape: STRING, doc: "Free text, at most 1024 characters.", default: "" },
  amazon: { shape: AMAZON, doc: `An AWS account. ${BLOCK_DOC}` },
  google: { shape: GOOGLE, doc: `A GCP project. ${BLOCK_DOC}` },
  azure: { shape: AZURE, doc: `An Azure tenant. ${BLOCK_DOC}` },
  github: { shape: GITHUB, doc: `GitHub App installations. ${BLOCK_DOC}` },
  chainguard: {
    shape: CHAINGUARD,
    doc: `The identities the platform's services assume in the group. ${BLOCK_DOC}`,
  },
  adoptUid: ADOPT_UID(
    "`groupUid` again, to bring the group's existing association under management; read only at creation.",
  ),
} as const;

export const ACCOUNT_ASSOCIATION_SHAPE = kindShape({
  type: "AccountAssociation",
  doc: "The outside accounts of a group (at least one block), and the identities the platform's services assume there.",
  inputs: INPUTS,
  outputs: {
    uid: UID_OUTPUT("Equals `groupUid`: an association is addressed by its group."),
    groupUid: echoed(INPUTS.groupUid, false),
    name: echoed(INPUTS.name, true),
    description: echoed(INPUTS.description, true),
    amazon: echoed(INPUTS.amazon, true),
    google: echoed(INPUTS.google, true),
    azure: echoed(INPUTS.azure, true),
    github: echoed(INPUTS.github, true),
    chainguard: echoed(INPUTS.chainguard, true),
    createTime: CREATE_TIME,
    updateTime: UPDATE_TIME,
  },
});

/** The blocks of an association; at least one is present. */
export interface AssociationBlocks {
  amazon?: AmazonAccount;
  google?: GoogleProject;
  azure?: AzureTenant;
  /** Installation ids as numbers, names `""` when unset. */
  github?: GitHubInstallations;
  chainguard?: ChainguardBindings;
}

/** Inputs of an AccountAssociation after `check`. */
export interface AccountAssociationInputs extends AssociationBlocks {
  groupUid: string;
  name: string;
  description: string;
  /** Must equal `groupUid`: the group's existing association is managed from now on. */
  adoptUid?: string;
}

/** Outputs of an AccountAssociation, as stored in state: its inputs and what the API adds. */
export interface AccountAssociationOutputs extends Omit<AccountAssociationInputs, "adoptUid"> {
  /** Equals `groupUid`. */
  uid: string;
  createTime: string;
  updateTime: string;
}
