/** The shape of `AccountAssociation`: a group's outside accounts, its inputs and state. */
import type {
  AmazonAccount,
  AzureTenant,
  ChainguardBindings,
  GitHubInstallations,
  GoogleProject,
} from "../../sdk/index";
import { SERVICE_PRINCIPAL_NAMES } from "../../sdk/index";
import * as t from "./table";

const BLOCK_DOC = "Updated in place, replaced whole, and removed when dropped from the program.";

const AMAZON = t.objectOf({
  account: t.REQUIRED_STRING("The AWS account id: 12 digits."),
});

const GOOGLE = t.objectOf({
  projectId: t.REQUIRED_STRING(
    "6 to 30 characters: a lowercase letter, then lowercase letters, digits or `-`.",
  ),
  projectNumber: t.REQUIRED_STRING("Non-empty, at most 64 characters."),
});

const AZURE = t.objectOf({
  tenantId: t.REQUIRED_STRING("A GUID."),
  clientIds: {
    shape: t.STRING_MAP,
    doc: "Component name to client id (a GUID); at least one.",
    required: true,
  },
});

const GITHUB_INSTALLATION = t.objectOf({
  installationId: {
    shape: t.INTEGER,
    doc: "A positive integer (or its decimal string), once per app.",
    required: true,
    alsoAccepts: [t.STRING],
  },
  name: { shape: t.STRING, doc: "Informational.", default: "" },
});

const GITHUB = t.objectOf({
  appInstallations: {
    shape: {
      type: "map",
      values: t.objectOf({
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

const CHAINGUARD = t.objectOf({
  serviceBindings: {
    shape: { type: "map", values: t.STRING, keys: SERVICE_PRINCIPAL_NAMES },
    doc: "Service name without its prefix (`INGESTER`, ...) to the uid of an identity directly in the group with that `servicePrincipal`.",
    required: true,
  },
});

const INPUTS = {
  groupUid: t.CONTAINER("Uid of the group (at most one association per group)."),
  name: t.NAME(),
  description: t.DESCRIPTION,
  amazon: { shape: AMAZON, doc: `An AWS account. ${BLOCK_DOC}` },
  google: { shape: GOOGLE, doc: `A GCP project. ${BLOCK_DOC}` },
  azure: { shape: AZURE, doc: `An Azure tenant. ${BLOCK_DOC}` },
  github: { shape: GITHUB, doc: `GitHub App installations. ${BLOCK_DOC}` },
  chainguard: {
    shape: CHAINGUARD,
    doc: `The identities the platform's services assume in the group. ${BLOCK_DOC}`,
  },
  adoptUid: t.ADOPT_UID(
    "`groupUid` again, to bring the group's existing association under management; read only at creation.",
  ),
} as const;

export const ACCOUNT_ASSOCIATION_SHAPE = t.kindShape({
  type: "AccountAssociation",
  runtimeExport: "assoc",
  blocksGroupDelete: true,
  doc: "The outside accounts of a group (at least one block), and the identities the platform's services assume there.",
  inputs: INPUTS,
  outputs: {
    uid: t.UID_OUTPUT("Equals `groupUid`: an association is addressed by its group."),
    groupUid: t.echoed(INPUTS.groupUid, false),
    name: t.echoed(INPUTS.name, true),
    description: t.echoed(INPUTS.description, true),
    amazon: t.echoed(INPUTS.amazon, true),
    google: t.echoed(INPUTS.google, true),
    azure: t.echoed(INPUTS.azure, true),
    github: t.echoed(INPUTS.github, true),
    chainguard: t.echoed(INPUTS.chainguard, true),
    createTime: t.CREATE_TIME,
    updateTime: t.UPDATE_TIME,
  },
});

/** The blocks of an association; at least one is present. */
export interface AssociationBlocks {
  /** The AWS account, when set. */
  amazon?: AmazonAccount;
  /** The GCP project, when set. */
  google?: GoogleProject;
  /** The Azure tenant, when set. */
  azure?: AzureTenant;
  /** The GitHub App installations (ids as numbers, names `""` when unset), when set. */
  github?: GitHubInstallations;
  /** The service bindings, when set. */
  chainguard?: ChainguardBindings;
}

/** Inputs of an AccountAssociation after `check`. */
export interface AccountAssociationInputs extends AssociationBlocks {
  /** Uid of the group. */
  groupUid: string;
  /** The association's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** Must equal `groupUid`: the group's existing association is managed from now on. */
  adoptUid?: string;
}

/** Outputs of an AccountAssociation, as stored in state: its inputs and what the API adds. */
export interface AccountAssociationOutputs extends Omit<AccountAssociationInputs, "adoptUid"> {
  /** Equals `groupUid`: an association is addressed by its group. */
  uid: string;
  /** When the association was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
  /** When the association last changed. */
  updateTime: string;
}
