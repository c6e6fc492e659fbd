/**
 * `/iam/v2beta1/accountAssociations`: at most one per group, addressed by the
 * group's uid (the association's `uid` is its group's). GitHub App ids stay string
 * keys; installation ids are int64 on the wire and numbers here, so an id beyond
 * `Number.MAX_SAFE_INTEGER` is refused rather than silently rounded, in answers
 * and in requests alike.
 */
import { nameMismatch, WritableCollection } from "../core/collection";
import type { ListParams, RequestOptions, Timestamp } from "../core/common-types";
import type { ApiRequester } from "../core/resource";
import { isRecord, ShapeError, ShapeReader } from "../core/shape";
import { checkEnum, stringMap } from "./decode";
import type { ServicePrincipalName } from "./identities";
import { SERVICE_PRINCIPAL_NAMES } from "./identities";

export interface AmazonAccount {
  /** 12 digits. */
  account: string;
}

export interface GoogleProject {
  /** 6 to 30 characters: a lowercase letter, then lowercase letters, digits or `-`. */
  projectId: string;
  /** Non-empty, at most 64 characters. */
  projectNumber: string;
}

export interface AzureTenant {
  /** A GUID. */
  tenantId: string;
  /** Component name to client id (a GUID); at least one. */
  clientIds: Record<string, string>;
}

export interface GitHubInstallation {
  /** A positive int64; the SDK hands out numbers and refuses an answer beyond `Number.MAX_SAFE_INTEGER`. */
  installationId: number;
  /** Informational; `""` when unset. */
  name: string;
}

export interface GitHubInstallations {
  /** GitHub App id (a positive int64 in decimal, kept as a string key) to its installations. */
  appInstallations: Record<string, { installations: GitHubInstallation[] }>;
}

/** A GitHub installation as sent: `installationId` a safe integer or its decimal string. */
export interface GitHubInstallationInput {
  installationId: number | string;
  name?: string;
}

export interface GitHubInstallationsInput {
  appInstallations: Record<string, { installations: GitHubInstallationInput[] }>;
}

export interface ChainguardBindings {
  /** Service (short name, e.g. `INGESTER`) to the uid of an identity directly in the group with that `servicePrincipal`. */
  serviceBindings: Partial<Record<ServicePrincipalName, string>>;
}

/**
 * A group's outside accounts, and the identities the platform's services assume
 * there. A group has at most one; its `uid` is the group's uid.
 */
export interface AccountAssociation {
  uid: string;
  name: string;
  description: string;
  amazon?: AmazonAccount;
  google?: GoogleProject;
  azure?: AzureTenant;
  github?: GitHubInstallations;
  chainguard?: ChainguardBindings;
  createTime: Timestamp;
  updateTime: Timestamp;
}

/** At least one of the five blocks. */
export interface AccountAssociationCreate {
  name: string;
  description?: string;
  amazon?: AmazonAccount;
  google?: GoogleProject;
  azure?: AzureTenant;
  github?: GitHubInstallationsInput;
  chainguard?: ChainguardBindings;
}

/**
 * A block named in the mask is replaced whole; a member named alone
 * (`google.project_id`) changes that member and keeps the rest of its block. Without a
 * mask, the members a block carries apply (the mask the API's gateway implies) and a
 * block sent as `null` is removed; with a mask, a named block absent from the body is
 * removed (`*` removes every absent one). At least one block must remain.
 */
export interface AccountAssociationUpdate {
  name?: string;
  description?: string;
  amazon?: AmazonAccount | null;
  google?: GoogleProject | null;
  azure?: AzureTenant | null;
  github?: GitHubInstallationsInput | null;
  chainguard?: ChainguardBindings | null;
}

/**
 * Whole blocks, or one member of a block (proto field names); a map member
 * (`azure.client_ids`, ...) is replaced whole.
 */
export type AccountAssociationMaskPath =
  | "name"
  | "description"
  | "amazon"
  | "amazon.account"
  | "google"
  | "google.project_id"
  | "google.project_number"
  | "azure"
  | "azure.tenant_id"
  | "azure.client_ids"
  | "github"
  | "github.app_installations"
  | "chainguard"
  | "chainguard.service_bindings"
  | "*";

/** Scope filters test the group's uid: `descendantsOf: X` lists the associations of groups strictly below X. */
export type AccountAssociationListParams = ListParams;

/** GitHub App ids: positive int64 in decimal. */
const APP_ID = /^[1-9][0-9]{0,18}$/;

/** A positive int64 that is also a safe JavaScript integer; `undefined` when it is not. */
function safePositiveInteger(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  }
  if (typeof value === "string" && /^[1-9][0-9]{0,15}$/.test(value)) {
    const number = Number(value);
    return Number.isSafeInteger(number) ? number : undefined;
  }
  return undefined;
}

function decodeInstallation(raw: unknown, at: string): GitHubInstallation {
  const r = ShapeReader.of(raw, at);
  const installationId = safePositiveInteger(r.raw.installationId);
  if (installationId === undefined) {
    throw new ShapeError(
      `${at}.installationId`,
      r.raw.installationId === undefined
        ? "missing (expected a positive integer)"
        : "not a positive integer within Number.MAX_SAFE_INTEGER",
    );
  }
  return { installationId, name: r.optionalString("name", "") };
}

function decodeGitHub(r: ShapeReader): GitHubInstallations {
  const apps = r.object("appInstallations");
  const appInstallations: GitHubInstallations["appInstallations"] = {};
  for (const [appId, value] of Object.entries(apps.raw)) {
    const at = `${apps.at}.${appId}`;
    if (!APP_ID.test(appId)) throw new ShapeError(at, "the key is not a GitHub App id (int64)");
    const app = ShapeReader.of(value, at);
    const list = app.raw.installations;
    if (!Array.isArray(list)) throw new ShapeError(`${at}.installations`, "expected an array");
    appInstallations[appId] = {
      installations: list.map((item, index) =>
        decodeInstallation(item, `${at}.installations[${index}]`),
      ),
    };
  }
  return { appInstallations };
}

function decodeAzure(r: ShapeReader): AzureTenant {
  return { tenantId: r.string("tenantId"), clientIds: stringMap(r, "clientIds") };
}

function decodeChainguard(r: ShapeReader): ChainguardBindings {
  const bindings = stringMap(r, "serviceBindings");
  const serviceBindings: ChainguardBindings["serviceBindings"] = {};
  for (const [service, uid] of Object.entries(bindings)) {
    const name: ServicePrincipalName = checkEnum(
      service,
      `${r.at}.serviceBindings`,
      SERVICE_PRINCIPAL_NAMES,
    );
    if (uid === "") throw new ShapeError(`${r.at}.serviceBindings.${service}`, "empty");
    serviceBindings[name] = uid;
  }
  return { serviceBindings };
}

/** Reads one block when present (`null` counts as absent). */
function block<B>(r: ShapeReader, field: string, read: (b: ShapeReader) => B): B | undefined {
  const value = r.raw[field];
  if (value === undefined || value === null) return undefined;
  return read(r.object(field));
}

export function decodeAccountAssociation(
  raw: unknown,
  at = "accountAssociation",
): AccountAssociation {
  const r = ShapeReader.of(raw, at);
  const association: AccountAssociation = {
    uid: r.string("uid"),
    name: r.string("name"),
    description: r.optionalString("description", ""),
    createTime: r.timestamp("createTime"),
    updateTime: r.timestamp("updateTime"),
  };
  const amazon = block(r, "amazon", (b) => ({ account: b.string("account") }));
  if (amazon) association.amazon = amazon;
  const google = block(r, "google", (b) => ({
    projectId: b.string("projectId"),
    projectNumber: b.string("projectNumber"),
  }));
  if (google) association.google = google;
  const azure = block(r, "azure", decodeAzure);
  if (azure) association.azure = azure;
  const github = block(r, "github", decodeGitHub);
  if (github) association.github = github;
  const chainguard = block(r, "chainguard", decodeChainguard);
  if (chainguard) association.chainguard = chainguard;
  return association;
}

/**
 * Checks the installation ids of a body before it is sent: a number beyond
 * `Number.MAX_SAFE_INTEGER` has already lost its value, and a decimal string beyond it
 * would be stored but could never be read back (answers are decoded to numbers and
 * refused beyond it), leaving a create that succeeded looking failed. Both are refused.
 */
function checkInstallationIds(github: GitHubInstallationsInput | null | undefined): void {
  if (!isRecord(github) || !isRecord(github.appInstallations)) return;
  for (const [appId, app] of Object.entries(github.appInstallations)) {
    const installations = isRecord(app) ? app.installations : undefined;
    if (!Array.isArray(installations)) continue;
    installations.forEach((installation, index) => {
      const id = isRecord(installation) ? installation.installationId : undefined;
      const unsafe =
        typeof id === "number"
          ? !(Number.isSafeInteger(id) && id > 0)
          : typeof id === "string" && /^[0-9]+$/.test(id) && safePositiveInteger(id) === undefined;
      if (unsafe) {
        throw new TypeError(
          `github.appInstallations.${appId}.installations[${index}].installationId: must be a positive safe integer (at most 9007199254740991), or its decimal string, got ${String(id).slice(0, 40)}`,
        );
      }
    });
  }
}

/**
 * `/iam/v2beta1/accountAssociations`: every verb takes the group's uid. `delete`
 * also resolves when the group has none (the service's delete is idempotent here);
 * a group that does not exist is still `NotFoundError`.
 */
export class AccountAssociations extends WritableCollection<
  AccountAssociation,
  AccountAssociationCreate,
  AccountAssociationUpdate,
  AccountAssociationMaskPath,
  AccountAssociationListParams
> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/iam/v2beta1/accountAssociations",
      listKey: "accountAssociations",
      noun: "accountAssociation",
      decode: decodeAccountAssociation,
      // The uid is the group's: scope filters test the group's place in the tree, as
      // by default (the parent of the uid).
    });
  }

  /** The association of `groupUid`; `NotFoundError` when it has none. */
  override get(groupUid: string, options?: RequestOptions): Promise<AccountAssociation> {
    return super.get(groupUid, options);
  }

  /** Creates the association of `groupUid`; `AlreadyExistsError` when it has one (no upsert). */
  override create(
    groupUid: string,
    fields: AccountAssociationCreate,
    options?: RequestOptions,
  ): Promise<AccountAssociation> {
    return super.create(groupUid, fields, options);
  }

  /** Removes the association of `groupUid`; resolves also when there was none. */
  override delete(groupUid: string, options?: RequestOptions): Promise<void> {
    return super.delete(groupUid, options);
  }

  protected override createBody(fields: AccountAssociationCreate): unknown {
    checkInstallationIds(fields.github);
    return fields;
  }

  protected override updateBody(fields: AccountAssociationUpdate): unknown {
    checkInstallationIds(fields.github);
    return fields;
  }

  /** The answer of a create is the group's own association: its uid is the group's. */
  protected override notCreatedUnder(
    item: AccountAssociation,
    groupUid: string,
  ): string | undefined {
    return item.uid === groupUid
      ? undefined
      : `${item.uid} is not the group the association was created for (${groupUid})`;
  }

  protected override filterMismatch(
    item: AccountAssociation,
    params: AccountAssociationListParams,
  ) {
    return nameMismatch(item, params);
  }
}
