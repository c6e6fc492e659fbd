/** The shape of `Identity`: its inputs (exactly one of four kinds) and its state. */
import type {
  AwsIdentity,
  ClaimMatch,
  ServicePrincipal,
  StaticKeys,
  StaticKeysCreate,
} from "../../sdk/index";
import { SERVICE_PRINCIPAL_NAMES, SERVICE_PRINCIPALS } from "../../sdk/index";
import * as t from "./table";

const CLAIM_MATCH = t.objectOf({
  issuer: { shape: t.STRING, doc: "The token issuer: an `https` URL (`http` only on loopback)." },
  issuerPattern: { shape: t.STRING, doc: "RE2 pattern the token's `iss` must fully match." },
  subject: { shape: t.STRING, doc: "The token subject; `*` matches any subject of the issuer." },
  subjectPattern: { shape: t.STRING, doc: "RE2 pattern the token's `sub` must fully match." },
  audience: { shape: t.STRING, doc: "An element of the token's `aud` must equal it." },
  audiencePattern: {
    shape: t.STRING,
    doc: "RE2 pattern an element of the token's `aud` must fully match.",
  },
  claims: { shape: t.STRING_MAP, doc: "Claims the token must carry with exactly these values." },
  claimPatterns: {
    shape: t.STRING_MAP,
    doc: "Claims whose values must fully match these RE2 patterns.",
  },
});

const STATIC_KEYS_MEMBERS = {
  issuer: t.REQUIRED_STRING("The token issuer the token's `iss` must equal."),
  subject: t.REQUIRED_STRING("The subject the token's `sub` must equal."),
  issuerKeys: t.REQUIRED_STRING(
    'The issuer\'s public keys: a JWKS document `{"keys":[...]}` as a string.',
  ),
  audiences: {
    shape: t.STRING_ARRAY,
    doc: "Empty, or exactly one audience the token's `aud` must contain.",
    default: [],
  },
} as const;

const STATIC_KEYS = t.objectOf({
  ...STATIC_KEYS_MEMBERS,
  expirationTime: {
    shape: t.STRING,
    doc: "RFC 3339 time after which the identity is refused; left out, the service's default.",
  },
});

const AWS_IDENTITY = t.objectOf({
  awsAccount: t.REQUIRED_STRING("The AWS account id: 12 digits."),
  arn: { shape: t.STRING, doc: "The caller's ARN, exactly." },
  arnPattern: { shape: t.STRING, doc: "RE2 pattern the caller's ARN must fully match." },
  userId: { shape: t.STRING, doc: "The caller's user id, exactly." },
  userIdPattern: { shape: t.STRING, doc: "RE2 pattern the caller's user id must fully match." },
});

const INPUTS = {
  parentUid: t.CONTAINER("Uid of the group the identity belongs to."),
  name: t.NAME(),
  description: t.DESCRIPTION,
  claimMatch: {
    shape: CLAIM_MATCH,
    doc: "The claims a presented OIDC token must carry.",
    replaces: "presence",
  },
  staticKeys: {
    shape: STATIC_KEYS,
    doc: "Keys registered for an issuer that cannot be reached.",
    replaces: "presence",
  },
  awsIdentity: { shape: AWS_IDENTITY, doc: "An AWS role or user.", replaces: "presence" },
  servicePrincipal: {
    shape: t.enumOf(SERVICE_PRINCIPALS),
    doc: "The platform service this identity stands for (`SERVICE_PRINCIPAL_INGESTER`).",
    replaces: true,
    alsoAccepts: [t.enumOf(SERVICE_PRINCIPAL_NAMES)],
  },
  adoptUid: t.ADOPT_UID(
    "Uid of an existing identity (a direct child of `parentUid`, of the same kind) to bring under management; read only at creation.",
  ),
} as const;

export const IDENTITY_SHAPE = t.kindShape({
  type: "Identity",
  runtimeExport: "identity",
  blocksGroupDelete: true,
  doc: "A workload, person or service identity of a group: exactly one of four kinds.",
  inputs: INPUTS,
  outputs: {
    uid: t.UID_OUTPUT("The identity's uid (its group's uid, `/`, 16 hex)."),
    parentUid: t.echoed(INPUTS.parentUid, false),
    name: t.echoed(INPUTS.name, true),
    description: t.echoed(INPUTS.description, true),
    claimMatch: t.echoed(INPUTS.claimMatch, true),
    staticKeys: {
      shape: t.objectOf({
        ...STATIC_KEYS_MEMBERS,
        audiences: {
          shape: t.STRING_ARRAY,
          doc: STATIC_KEYS_MEMBERS.audiences.doc,
          required: true,
        },
        expirationTime: t.REQUIRED_STRING(
          "When the identity stops being accepted (the service's default when not set).",
        ),
      }),
      doc: "The registered keys, with the service's `expirationTime`; absent for other kinds.",
      setByCreate: false,
      changedByUpdate: true,
    },
    awsIdentity: t.echoed(INPUTS.awsIdentity, true),
    servicePrincipal: t.echoed(INPUTS.servicePrincipal, false),
    lastSeenTime: {
      shape: t.STRING,
      doc: "When a token was last exchanged for this identity; absent until then.",
      setByCreate: false,
      changedByUpdate: false,
    },
    createTime: t.CREATE_TIME,
    updateTime: t.UPDATE_TIME,
  },
});

/**
 * `staticKeys` of an identity after `check`: `audiences` always present (`[]` when
 * none), `expirationTime` only when the program sets it (RFC 3339, normalised to
 * milliseconds and `Z`; absent: the service's default).
 */
export type StaticKeysInputs = StaticKeysCreate & { audiences: string[] };

/** `staticKeys` of an identity as stored: every member, as the API answers it. */
export type StaticKeysOutputs = StaticKeys;

/** Inputs of an Identity after `check`: exactly one of the four kinds is set. */
export interface IdentityInputs {
  /** Uid of the group the identity belongs to. */
  parentUid: string;
  /** The identity's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** Which OIDC tokens may assume it: only the members that are set. */
  claimMatch?: ClaimMatch;
  /** Keys registered for an issuer that cannot be reached. */
  staticKeys?: StaticKeysInputs;
  /** An AWS role or user. */
  awsIdentity?: AwsIdentity;
  /** The platform service, by its full name (`SERVICE_PRINCIPAL_INGESTER`). */
  servicePrincipal?: string;
  /** Uid of an existing identity of the same kind to bring under management. */
  adoptUid?: string;
}

/** Outputs of an Identity, as stored in state: only the member of its kind is present. */
export interface IdentityOutputs {
  /** The identity's uid (its group's uid, `/`, 16 hex). */
  uid: string;
  /** Uid of the group the identity belongs to. */
  parentUid: string;
  /** The identity's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** Which OIDC tokens may assume it (the members that are set); absent for other kinds. */
  claimMatch?: ClaimMatch;
  /** The registered keys and the service's `expirationTime`; absent for other kinds. */
  staticKeys?: StaticKeysOutputs;
  /** The AWS role or user; absent for other kinds. */
  awsIdentity?: AwsIdentity;
  /** The platform service, by its full name; absent for other kinds. */
  servicePrincipal?: ServicePrincipal;
  /** Absent until a token has been exchanged for this identity. */
  lastSeenTime?: string;
  /** When the identity was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
  /** When the identity last changed. */
  updateTime: string;
}
