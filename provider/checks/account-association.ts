/**
 * The input checks of `AccountAssociation`: its group, and each block of outside
 * accounts it holds, checked to the member.
 */
import type {
  ChainguardBindings,
  GitHubInstallations,
  ServicePrincipalName,
} from "../../sdk/index";
import { SERVICE_PRINCIPAL_NAMES } from "../../sdk/index";
import { IDENTITY_UID_SHAPE } from "../../sdk/uids";
import type { AccountAssociationInputs, AssociationBlocks } from "../shapes/index";
import {
  CHILD_UID_PATTERN,
  Checker,
  givenAdoptUid,
  isRecord,
  isUnknown,
  magicKeyRule,
  parentOf,
  quoted,
  withAdoptUid,
} from "./checker";

/** The five kinds of outside account an association may hold. */
export const ASSOCIATION_BLOCKS = ["amazon", "google", "azure", "github", "chainguard"] as const;
type BlockName = (typeof ASSOCIATION_BLOCKS)[number];

const AWS_ACCOUNT = /^[0-9]{12}$/;
const GCP_PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const GUID = /^[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}$/;
const APP_ID = /^[1-9][0-9]{0,18}$/;
const INT64_MAX = 9_223_372_036_854_775_807n;
const MAX_KEY = 256;

/** A map input: an object whose values are checked by `each`; unknown passes as `{}`. */
function checkMap<V>(
  checker: Checker,
  property: string,
  value: unknown,
  each: (key: string, value: unknown, at: string) => V | undefined,
): Record<string, V> {
  const result: Record<string, V> = {};
  if (isUnknown(value)) return result;
  if (!isRecord(value) || Object.keys(value).length === 0) {
    checker.fail(property, "must be an object with at least one entry");
    return result;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = `${property}.${key}`;
    if (key === "" || key.length > MAX_KEY) {
      checker.fail(property, `keys must be 1 to ${MAX_KEY} characters, got ${quoted(key)}`);
      continue;
    }
    const magic = magicKeyRule(key);
    if (magic !== undefined) {
      checker.fail(property, magic);
      continue;
    }
    const checked = each(key, item, at);
    if (checked !== undefined) result[key] = checked;
  }
  return result;
}

/** A string member of a block that must match `pattern` (when known). */
function patterned(
  checker: Checker,
  property: string,
  value: unknown,
  pattern: RegExp,
  shape: string,
): string {
  const text = checker.requiredString(property, value);
  if (text === undefined) return "";
  if (!isUnknown(text) && !pattern.test(text)) {
    checker.fail(property, `must be ${shape}, got ${quoted(text)}`);
  }
  return text;
}

/** A positive int64 installation id that is also a safe JavaScript integer. */
function installationId(checker: Checker, property: string, value: unknown): number | string {
  if (isUnknown(value)) return value as string;
  let id: number | undefined;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) id = value;
  if (typeof value === "string" && /^[1-9][0-9]*$/.test(value)) id = Number(value);
  if (id === undefined) {
    checker.fail(property, "must be a positive integer (a number or its decimal string)");
    return 0;
  }
  if (!Number.isSafeInteger(id)) {
    checker.fail(
      property,
      "must be at most 9007199254740991 (beyond, JavaScript numbers lose digits)",
    );
    return 0;
  }
  return id;
}

function checkGitHub(checker: Checker, raw: Record<string, unknown>): GitHubInstallations {
  const appInstallations = checkMap(
    checker,
    "github.appInstallations",
    raw.appInstallations,
    (appId, app, at) => {
      if (!APP_ID.test(appId) || BigInt(appId) > INT64_MAX) {
        checker.fail(at, "the key must be a GitHub App id (a positive int64 in decimal)");
      }
      if (isUnknown(app)) return { installations: [] };
      const list = isRecord(app) ? app.installations : undefined;
      if (isUnknown(list)) return { installations: [] };
      if (!Array.isArray(list) || list.length === 0) {
        checker.fail(`${at}.installations`, "must be a list of at least one installation");
        return { installations: [] };
      }
      const seen = new Set<number | string>();
      const installations = list.map((item, index) => {
        const itemAt = `${at}.installations[${index}]`;
        if (!isRecord(item)) {
          checker.fail(itemAt, "must be an object with installationId and an optional name");
          return { installationId: 0, name: "" };
        }
        const id = installationId(checker, `${itemAt}.installationId`, item.installationId);
        if (id !== 0 && !isUnknown(id) && seen.has(id)) {
          checker.fail(`${itemAt}.installationId`, `${id} is listed twice for app ${appId}`);
        }
        seen.add(id);
        const name = checker.optionalString(`${itemAt}.name`, item.name, MAX_KEY);
        return { installationId: id as number, name };
      });
      return { installations };
    },
  );
  return { appInstallations };
}

function checkChainguard(
  checker: Checker,
  raw: Record<string, unknown>,
  groupUid: string | undefined,
): ChainguardBindings {
  const names = SERVICE_PRINCIPAL_NAMES as readonly string[];
  const serviceBindings = checkMap(
    checker,
    "chainguard.serviceBindings",
    raw.serviceBindings,
    (service, uid, at) => {
      if (!names.includes(service)) {
        checker.fail(
          at,
          `the key must be a service name without its SERVICE_PRINCIPAL_ prefix: one of ${names.join(", ")}`,
        );
      }
      const identity = checker.uid(at, uid, CHILD_UID_PATTERN, IDENTITY_UID_SHAPE);
      if (
        identity !== undefined &&
        !isUnknown(identity) &&
        groupUid !== undefined &&
        !isUnknown(groupUid) &&
        CHILD_UID_PATTERN.test(identity) &&
        parentOf(identity) !== groupUid
      ) {
        checker.fail(at, `must be an identity directly in groupUid ${groupUid}, got ${identity}`);
      }
      return identity;
    },
  );
  return { serviceBindings: serviceBindings as Partial<Record<ServicePrincipalName, string>> };
}

/** The blocks given, checked; absent ones left out. */
function checkBlocks(
  checker: Checker,
  news: Record<string, unknown>,
  groupUid: string | undefined,
): AssociationBlocks {
  const blocks: AssociationBlocks = {};
  const given = ASSOCIATION_BLOCKS.filter(
    (name) => news[name] !== undefined && news[name] !== null,
  );
  if (given.length === 0) {
    checker.fail("amazon", `at least one of ${ASSOCIATION_BLOCKS.join(", ")} is required`);
  }
  // A block not known yet in a preview is kept as it is; its members are checked once known.
  for (const name of given) {
    if (isUnknown(news[name])) Object.assign(blocks, { [name]: news[name] });
  }
  const block = (name: BlockName) =>
    isUnknown(news[name]) ? undefined : checker.optionalObject(name, news[name]);
  const amazon = block("amazon");
  if (amazon) {
    blocks.amazon = {
      account: patterned(checker, "amazon.account", amazon.account, AWS_ACCOUNT, "12 digits"),
    };
  }
  const google = block("google");
  if (google) {
    const projectNumber = checker.requiredString("google.projectNumber", google.projectNumber);
    if (projectNumber !== undefined && !isUnknown(projectNumber)) {
      checker.maxLength("google.projectNumber", projectNumber, 64);
    }
    blocks.google = {
      projectId: patterned(
        checker,
        "google.projectId",
        google.projectId,
        GCP_PROJECT_ID,
        "a GCP project id (6 to 30 characters: a lowercase letter, then lowercase letters, digits or '-', not ending in '-')",
      ),
      projectNumber: projectNumber ?? "",
    };
  }
  const azure = block("azure");
  if (azure) {
    blocks.azure = {
      tenantId: patterned(checker, "azure.tenantId", azure.tenantId, GUID, "a GUID"),
      clientIds: checkMap(checker, "azure.clientIds", azure.clientIds, (_key, id, at) =>
        patterned(checker, at, id, GUID, "a GUID"),
      ),
    };
  }
  const github = block("github");
  if (github) blocks.github = checkGitHub(checker, github);
  const chainguard = block("chainguard");
  if (chainguard) blocks.chainguard = checkChainguard(checker, chainguard, groupUid);
  return blocks;
}

export function checkAccountAssociationInputs(news: Record<string, unknown>) {
  const checker = new Checker();
  const groupUid = checker.groupUid("groupUid", news.groupUid);
  const name = checker.name("name", news.name);
  const description = checker.description("description", news.description);
  const blocks = checkBlocks(checker, news, groupUid);
  const adoptUid = givenAdoptUid(news.adoptUid);
  let adopt: string | undefined;
  if (adoptUid !== undefined) {
    adopt = checker.groupUid("adoptUid", adoptUid);
    if (
      adopt !== undefined &&
      !isUnknown(adopt) &&
      groupUid !== undefined &&
      !isUnknown(groupUid) &&
      adopt !== groupUid
    ) {
      checker.fail(
        "adoptUid",
        `must equal groupUid ${groupUid} (an association's uid is its group's), got ${adopt}`,
      );
    }
  }
  const inputs = withAdoptUid<AccountAssociationInputs>(
    { groupUid: groupUid ?? "", name: name ?? "", description, ...blocks },
    adopt,
  );
  return { inputs, failures: checker.failures };
}
