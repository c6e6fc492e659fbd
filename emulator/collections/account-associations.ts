/**
 * Account associations: `/iam/v2beta1/accountAssociations` (addendum, 5). A group's outside
 * accounts (cloud accounts, GitHub App installations) and the identities platform
 * services assume in it. A group has at most one, and its uid is the group's uid.
 */
import type { Access } from "../access";
import { alreadyExists, invalidArgument, notFound } from "../errors";
import { SERVICE_PRINCIPALS } from "../identity-kinds/shapes";
import { refuseMagicKey } from "../map-keys";
import type { AccountAssociationRecord } from "../model";
import { type JsonObject, optionalObject, optionalString } from "../requests";
import type { State } from "../state";
import { requireEveryGrantOf } from "./identities";
import * as kit from "./kit";
import { writableCollection } from "./writable";

const BLOCKS = ["amazon", "google", "azure", "github", "chainguard"] as const;
type Block = (typeof BLOCKS)[number];

const AWS_ACCOUNT = /^[0-9]{12}$/;
const MAX_PROJECT_ID_LENGTH = 128;
const GUID = /^[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}$/;
const MAX_PROJECT_NUMBER_LENGTH = 64;
const MAX_INT64 = 9_223_372_036_854_775_807n;
const SERVICE_PRINCIPAL_PREFIX = "SERVICE_PRINCIPAL_";

/**
 * The members of each block a mask may name alone (corrections 15): the gateway builds a
 * mask from a PATCH body down to these leaves, and stops at a map (`azure.client_ids`,
 * `github.app_installations` and `chainguard.service_bindings` are replaced whole).
 */
const LEAVES: { [B in Block]: readonly string[] } = {
  amazon: ["account"],
  google: ["projectId", "projectNumber"],
  azure: ["tenantId", "clientIds"],
  github: ["appInstallations"],
  chainguard: ["serviceBindings"],
};

export const ACCOUNT_ASSOCIATION_MASK_PATHS: readonly string[] = [
  "name",
  "description",
  ...BLOCKS,
  ...BLOCKS.flatMap((block) => LEAVES[block].map((leaf) => `${block}.${leaf}`)),
];

/** How NOT_FOUND and ALREADY_EXISTS name a group's association. */
export function associationOf(groupUid: string): string {
  return `account association of ${groupUid}`;
}

export function accountAssociationOut(association: AccountAssociationRecord): JsonObject {
  const out: JsonObject = {
    uid: association.uid,
    name: association.name,
    description: association.description,
  };
  if (association.amazon) out.amazon = { ...association.amazon };
  if (association.google) out.google = { ...association.google };
  if (association.azure) {
    out.azure = {
      tenantId: association.azure.tenantId,
      clientIds: { ...association.azure.clientIds },
    };
  }
  if (association.github) {
    out.github = {
      appInstallations: Object.fromEntries(
        Object.entries(association.github.appInstallations).map(([appId, app]) => [
          appId,
          { installations: app.installations.map((installation) => ({ ...installation })) },
        ]),
      ),
    };
  }
  if (association.chainguard) {
    out.chainguard = { serviceBindings: { ...association.chainguard.serviceBindings } };
  }
  out.createTime = association.createTime;
  out.updateTime = association.updateTime;
  return out;
}

// ---------------------------------------------------------------- validation

/** A map-valued member: a JSON object of string keys (values checked by the caller). */
function requireMap(value: unknown, field: string): Array<[string, unknown]> {
  if (value === undefined || value === null) throw invalidArgument(field, "is required");
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalidArgument(field, "must be an object");
  }
  const entries = Object.entries(value as JsonObject);
  if (entries.length === 0) throw invalidArgument(field, "must have at least one entry");
  for (const [key] of entries) refuseMagicKey(key, field);
  return entries;
}

function requireString(block: JsonObject, member: string, field: string): string {
  const value = optionalString(block, member, field);
  if (!value) throw invalidArgument(field, "is required");
  return value;
}

/** A positive int64 in decimal, from a JSON number or a string; answered as a string. */
function requirePositiveInt64(value: unknown, field: string): string {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw invalidArgument(field, "must be a positive integer");
    text = String(value);
  } else if (typeof value === "string") {
    text = value;
  } else if (value === undefined || value === null) {
    throw invalidArgument(field, "is required");
  } else {
    throw invalidArgument(field, "must be a positive integer (a number or a decimal string)");
  }
  if (!/^[1-9][0-9]*$/.test(text) || BigInt(text) > MAX_INT64) {
    throw invalidArgument(field, "must be a positive 64-bit integer");
  }
  return text;
}

function parseAmazon(block: JsonObject): AccountAssociationRecord["amazon"] {
  const account = requireString(block, "account", "amazon.account");
  if (!AWS_ACCOUNT.test(account)) throw invalidArgument("amazon.account", "must be 12 digits");
  return { account };
}

function parseGoogle(block: JsonObject): AccountAssociationRecord["google"] {
  const projectId = requireString(block, "projectId", "google.projectId");
  // The definitions state no form (only that it is required), so none is checked beyond
  // a bound on its size.
  if (projectId.length > MAX_PROJECT_ID_LENGTH) {
    throw invalidArgument(
      "google.projectId",
      `must be at most ${MAX_PROJECT_ID_LENGTH} characters`,
    );
  }
  const projectNumber = requireString(block, "projectNumber", "google.projectNumber");
  if (projectNumber.length > MAX_PROJECT_NUMBER_LENGTH) {
    throw invalidArgument(
      "google.projectNumber",
      `must be at most ${MAX_PROJECT_NUMBER_LENGTH} characters`,
    );
  }
  return { projectId, projectNumber };
}

function parseAzure(block: JsonObject): AccountAssociationRecord["azure"] {
  const tenantId = requireString(block, "tenantId", "azure.tenantId");
  if (!GUID.test(tenantId)) throw invalidArgument("azure.tenantId", "must be a GUID");
  const clientIds: Record<string, string> = {};
  for (const [component, value] of requireMap(block.clientIds, "azure.clientIds")) {
    if (component === "") throw invalidArgument("azure.clientIds", "a key must not be empty");
    const field = `azure.clientIds.${component}`;
    if (typeof value !== "string") throw invalidArgument(field, "must be a string");
    if (!GUID.test(value)) throw invalidArgument(field, "must be a GUID");
    clientIds[component] = value;
  }
  return { tenantId, clientIds };
}

function parseGithub(block: JsonObject): AccountAssociationRecord["github"] {
  const appInstallations: NonNullable<AccountAssociationRecord["github"]>["appInstallations"] = {};
  for (const [appId, value] of requireMap(block.appInstallations, "github.appInstallations")) {
    const appField = `github.appInstallations.${appId}`;
    if (!/^[1-9][0-9]*$/.test(appId) || BigInt(appId) > MAX_INT64) {
      throw invalidArgument(appField, "the key must be a GitHub App id (a positive integer)");
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw invalidArgument(appField, "must be an object");
    }
    const list = (value as JsonObject).installations;
    if (list !== undefined && list !== null && !Array.isArray(list)) {
      throw invalidArgument(`${appField}.installations`, "must be an array");
    }
    if (!Array.isArray(list) || list.length === 0) {
      throw invalidArgument(`${appField}.installations`, "must have at least one installation");
    }
    const seen = new Set<string>();
    const installations = list.map((item: unknown, index: number) => {
      const field = `${appField}.installations[${index}]`;
      if (typeof item !== "object" || item === null || Array.isArray(item)) {
        throw invalidArgument(field, "must be an object");
      }
      const installation = item as JsonObject;
      const installationId = requirePositiveInt64(
        installation.installationId,
        `${field}.installationId`,
      );
      if (seen.has(installationId)) {
        throw invalidArgument(`${field}.installationId`, "appears twice for this app");
      }
      seen.add(installationId);
      return { installationId, name: optionalString(installation, "name", `${field}.name`) ?? "" };
    });
    appInstallations[appId] = { installations };
  }
  return { appInstallations };
}

function parseChainguard(block: JsonObject): AccountAssociationRecord["chainguard"] {
  const serviceBindings: Record<string, string> = {};
  for (const [service, value] of requireMap(block.serviceBindings, "chainguard.serviceBindings")) {
    const field = `chainguard.serviceBindings.${service}`;
    const fullName = `${SERVICE_PRINCIPAL_PREFIX}${service}`;
    if (!(SERVICE_PRINCIPALS as readonly string[]).includes(fullName)) {
      throw invalidArgument(
        field,
        `the key must be a service principal name without its prefix (${SERVICE_PRINCIPALS.map(
          (name) => name.slice(SERVICE_PRINCIPAL_PREFIX.length),
        ).join(", ")})`,
      );
    }
    if (typeof value !== "string") throw invalidArgument(field, "must be a string");
    if (value === "") throw invalidArgument(field, "is required");
    kit.requirePathUid(value, field);
    serviceBindings[service] = value;
  }
  return { serviceBindings };
}

const PARSERS: { [B in Block]: (block: JsonObject) => AccountAssociationRecord[B] } = {
  amazon: parseAmazon,
  google: parseGoogle,
  azure: parseAzure,
  github: parseGithub,
  chainguard: parseChainguard,
};

/** A block from the body: absent or null answers undefined (no block). */
function parseBlock<B extends Block>(body: JsonObject, name: B): AccountAssociationRecord[B] {
  const block = optionalObject(body, name);
  return block === undefined ? undefined : PARSERS[name](block);
}

/** Refuses a record without any block (at create and after every update). */
function requireSomeBlock(record: Pick<AccountAssociationRecord, Block>): void {
  if (BLOCKS.every((name) => record[name] === undefined)) {
    throw invalidArgument("body", `at least one of ${BLOCKS.join(", ")} is required`);
  }
}

function setBlock<B extends Block>(
  record: AccountAssociationRecord,
  name: B,
  value: AccountAssociationRecord[B],
): void {
  if (value === undefined) delete record[name];
  else record[name] = value;
}

/**
 * Step 4 for service bindings: each uid names a direct child of the association's group
 * (INVALID_ARGUMENT naming the binding, judged on the uid alone), then each identity
 * exists (NOT_FOUND) and has the matching service principal (INVALID_ARGUMENT). The principal is read defensively: an identity without one never
 * matches.
 */
function requireServiceIdentities(
  state: State,
  groupUid: string,
  chainguard: AccountAssociationRecord["chainguard"],
): void {
  if (!chainguard) return;
  const bindings = Object.entries(chainguard.serviceBindings);
  // Where a uid points is judged on the uid alone, before anything is looked up: an
  // identity of another group (perhaps one the caller cannot read) and a missing uid
  // there get the same answer, so the answer tells nothing about that group.
  for (const [service, identityUid] of bindings) {
    if (kit.parentOf(identityUid) !== groupUid) {
      throw invalidArgument(
        `chainguard.serviceBindings.${service}`,
        "must name an identity directly in this group",
      );
    }
  }
  for (const [, identityUid] of bindings) {
    if (!state.identities.has(identityUid)) throw notFound(identityUid);
  }
  for (const [service, identityUid] of bindings) {
    const field = `chainguard.serviceBindings.${service}`;
    const identity = state.identities.get(identityUid) as { servicePrincipal?: unknown };
    if (identity.servicePrincipal !== `${SERVICE_PRINCIPAL_PREFIX}${service}`) {
      throw invalidArgument(
        field,
        `must name an identity whose servicePrincipal is ${SERVICE_PRINCIPAL_PREFIX}${service}`,
      );
    }
  }
}

/**
 * Step 6 for service bindings: naming an identity in `serviceBindings` lets that
 * platform service act as the identity for the group's accounts, with every role
 * binding the identity holds. So it needs what granting those bindings needs: every
 * capability each one grants, on its group (no one grants more than they hold). Only
 * bindings the write adds or changes are checked; restating one is free.
 */
function requireServiceBindingGrants(
  ctx: kit.EmulatorContext,
  access: Access,
  next: AccountAssociationRecord["chainguard"],
  current?: AccountAssociationRecord["chainguard"],
): void {
  for (const [service, identityUid] of Object.entries(next?.serviceBindings ?? {})) {
    if (current?.serviceBindings[service] === identityUid) continue;
    requireEveryGrantOf(
      ctx,
      access,
      identityUid,
      `naming an identity in chainguard.serviceBindings requires every capability its bindings grant`,
    );
  }
}

/** The group's association; NOT_FOUND names the group when it is missing, else the association. */
function loadAssociation(
  ctx: kit.EmulatorContext,
  uid: string,
): AccountAssociationRecord | undefined {
  kit.existing(ctx.state.groups, uid);
  return ctx.state.accountAssociations.get(uid);
}

type AssociationDraft = Omit<AccountAssociationRecord, "uid" | "createTime" | "updateTime">;

export const accountAssociations = writableCollection<AccountAssociationRecord, AssociationDraft>({
  name: "accountAssociations",
  out: (_ctx, association) => accountAssociationOut(association),
  load: (ctx, uid) => {
    const association = loadAssociation(ctx, uid);
    if (!association) throw notFound(associationOf(uid));
    return association;
  },
  list: { sortName: (_ctx, association) => association.name },
  create: {
    parentHint: "the group uid belongs in the path",
    body: (_ctx, body) => {
      const draft: AssociationDraft = {
        name: kit.requireName(body.name),
        description: optionalString(body, "description") ?? "",
      };
      for (const name of BLOCKS) {
        const value = parseBlock(body, name);
        if (value !== undefined) (draft as Record<string, unknown>)[name] = value;
      }
      requireSomeBlock(draft);
      return draft;
    },
    references: ({ ctx, parentUid, draft }) =>
      requireServiceIdentities(ctx.state, parentUid, draft.chainguard),
    grants: ({ ctx, access, draft }) => requireServiceBindingGrants(ctx, access, draft.chainguard),
    unique: ({ ctx, parentUid }) => {
      if (ctx.state.accountAssociations.has(parentUid)) {
        throw alreadyExists(associationOf(parentUid));
      }
    },
    build: (_ctx, draft, parentUid, now) => ({
      uid: parentUid,
      ...draft,
      createTime: now,
      updateTime: now,
    }),
  },
  update: {
    writable: ACCOUNT_ASSOCIATION_MASK_PATHS,
    fields: ["name", "description", ...BLOCKS],
    apply: (_ctx, current, body, paths) => {
      const next: AccountAssociationRecord = { ...current };
      // Without a mask a block sent as null or {} is named whole (`updatePaths`, as the
      // gateway's implied mask): null removes it; {} is judged as an empty block.
      // Leaf paths, gathered per block over the stored block; each block then judged whole.
      const merged = new Map<Block, JsonObject>();
      for (const path of paths) {
        if (path === "name") next.name = kit.requireName(body.name);
        else if (path === "description")
          next.description = optionalString(body, "description") ?? "";
        else if ((BLOCKS as readonly string[]).includes(path)) {
          const name = path as Block;
          setBlock(next, name, parseBlock(body, name));
        } else {
          const [name, leaf] = path.split(".") as [Block, string];
          const block = merged.get(name) ?? (structuredClone(current[name] ?? {}) as JsonObject);
          const given = optionalObject(body, name)?.[leaf];
          // A leaf the mask names and the body leaves out is cleared.
          if (given === undefined || given === null) delete block[leaf];
          else block[leaf] = given;
          merged.set(name, block);
        }
      }
      for (const [name, block] of merged) setBlock(next, name, PARSERS[name](block));
      requireSomeBlock(next);
      return next;
    },
    references: ({ ctx, current, next, paths }) => {
      if (paths.some((path) => path === "chainguard" || path.startsWith("chainguard."))) {
        requireServiceIdentities(ctx.state, current.uid, next.chainguard);
      }
    },
    grants: ({ ctx, access, current, next }) =>
      requireServiceBindingGrants(ctx, access, next.chainguard, current.chainguard),
  },
  // Idempotent: a group without an association answers `{}` (its group must exist).
  delete: { load: loadAssociation },
});
