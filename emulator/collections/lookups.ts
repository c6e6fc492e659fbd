/**
 * The IAM calls HEAD publishes that are neither a collection's verbs nor its batches:
 *
 * - `identities:lookupIdentity` (GET, any caller): the uid of the identity whose
 *   `claimMatch` names exactly this issuer and subject, else the uid such a user will
 *   receive (a flat uid derived from the two, as the platform's user identities are);
 * - `accountAssociations/<uid>:checkAccountAssociation` (POST,
 *   `CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST`): READY when the association holds the block of
 *   the provider asked for, NOT_READY "not configured" otherwise. The emulator makes
 *   no live credential exchange;
 * - `groups:lookupGroup`, `groups/<uid>:requestGroupAccess`, `groups:checkEligibility`
 *   (any caller): they are driven by a verified email on a token from a trusted
 *   upstream provider, which no emulator token carries, so a lookup and a request are
 *   the collapsed NOT_FOUND and eligibility is false;
 * - `terms/<group>` (POST `CAP_TERMS_ACCEPT`, GET `CAP_TERMS_LIST`): the documents a
 *   group accepted, kept on the group; a List includes those of its ancestors;
 * - `identities:updateIdentityMetadata` (PATCH, any caller): the caller's own profile
 *   fields, kept for the emulator process's life (see `State.identityMetadata`).
 */
import { createHash } from "node:crypto";
import { invalidArgument, notFound } from "../errors";
import { capabilityFor } from "../kinds";
import { parseListParams } from "../listing";
import type { TermsAcceptanceRecord } from "../model";
import {
  type ApiRequest,
  bodyObject,
  type JsonObject,
  jsonPath,
  ok,
  optionalObject,
  optionalString,
} from "../requests";
import * as kit from "./kit";

const ACCOUNT_PROVIDER_BLOCKS: Record<string, "google" | "amazon" | "azure"> = {
  ACCOUNT_PROVIDER_TYPE_GOOGLE: "google",
  ACCOUNT_PROVIDER_TYPE_AMAZON: "amazon",
  ACCOUNT_PROVIDER_TYPE_AZURE: "azure",
};

/** The most documents one AcceptTerms names, and a document id's length (the definitions give none). */
const MAX_DOCUMENTS = 50;
const MAX_DOCUMENT_ID = 128;

function only(method: string, request: ApiRequest): void {
  if (request.method !== method) throw kit.unsupported(request);
}

export const lookupIdentity: kit.CollectionHandler = async (ctx, request, uid) => {
  only("GET", request);
  if (uid !== undefined) throw kit.unsupported(request);
  await kit.callerOf(ctx, request, true);
  const issuer = request.query.get("issuer") ?? "";
  const subject = request.query.get("subject") ?? "";
  if (issuer === "") throw invalidArgument("issuer", "is required");
  if (subject === "") throw invalidArgument("subject", "is required");
  for (const identity of ctx.state.identities.values()) {
    const match = identity.claimMatch;
    if (match?.issuer === issuer && match.subject === subject) return ok({ uid: identity.uid });
  }
  const derived = createHash("sha1").update(`${issuer}\n${subject}`).digest("hex");
  return ok({ uid: derived });
};

export const checkAccountAssociation: kit.CollectionHandler = async (ctx, request, uid) => {
  only("POST", request);
  if (uid === undefined) throw kit.unsupported(request);
  const groupUid = kit.requirePathUid(uid);
  const access = await kit.callerOf(ctx, request, true);
  access.require(capabilityFor("accountAssociations", "list"), groupUid);
  const body = bodyObject(request);
  const type = optionalString(body, "providerType") ?? "";
  const block = ACCOUNT_PROVIDER_BLOCKS[type];
  if (!block) {
    throw invalidArgument(
      "providerType",
      `must be one of ${Object.keys(ACCOUNT_PROVIDER_BLOCKS).join(", ")}`,
    );
  }
  const association = kit.existing(ctx.state.accountAssociations, groupUid);
  return ok(
    association[block]
      ? { status: "CHECK_STATUS_READY" }
      : { status: "CHECK_STATUS_NOT_READY", reason: "not configured" },
  );
};

/** What LookupGroup and RequestGroupAccess answer every emulator caller (see above). */
const NO_MATCHING_ORGANISATION = () =>
  notFound("a verified organisation matching the email domain of the caller's token");

export const lookupGroup: kit.CollectionHandler = async (ctx, request, uid) => {
  only("GET", request);
  if (uid !== undefined) throw kit.unsupported(request);
  await kit.callerOf(ctx, request, true);
  throw NO_MATCHING_ORGANISATION();
};

export const checkEligibility: kit.CollectionHandler = async (ctx, request, uid) => {
  only("GET", request);
  if (uid !== undefined) throw kit.unsupported(request);
  await kit.callerOf(ctx, request, true);
  return ok({ eligible: false });
};

export const requestGroupAccess: kit.CollectionHandler = async (ctx, request, uid) => {
  only("POST", request);
  if (uid === undefined) throw invalidArgument("groupUid", "is required");
  await kit.callerOf(ctx, request, true);
  bodyObject(request);
  throw NO_MATCHING_ORGANISATION();
};

function acceptanceOut(groupUid: string, acceptance: TermsAcceptanceRecord) {
  return {
    docId: acceptance.docId,
    acceptedBy: acceptance.acceptedBy,
    orgUid: groupUid,
    createTime: acceptance.createTime,
  };
}

/** `/iam/v2beta1/terms/<group>`: POST accepts documents, GET lists the acceptances. */
export const terms: kit.CollectionHandler = async (ctx, request, uid) => {
  if (uid === undefined) throw kit.unsupported(request);
  const groupUid = kit.requirePathUid(uid, "group");
  const access = await kit.callerOf(ctx, request, true);
  if (request.method === "POST") {
    access.require("CAP_TERMS_ACCEPT", groupUid);
    const body = bodyObject(request);
    const ids = body.documentIds;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_DOCUMENTS) {
      throw invalidArgument("documentIds", `must hold 1 to ${MAX_DOCUMENTS} document ids`);
    }
    ids.forEach((id, index) => {
      if (typeof id !== "string" || id === "" || id.length > MAX_DOCUMENT_ID) {
        throw invalidArgument(
          `documentIds[${index}]`,
          `must be a document id of 1 to ${MAX_DOCUMENT_ID} characters`,
        );
      }
    });
    const group = kit.existing(ctx.state.groups, groupUid);
    const accepted = new Set((group.termsAcceptances ?? []).map((a) => a.docId));
    const now = ctx.clock.isoNow();
    const added = [...new Set(ids as string[])]
      .filter((id) => !accepted.has(id))
      .map((docId) => ({ docId, acceptedBy: access.identityUid ?? "", createTime: now }));
    if (added.length > 0) {
      ctx.state.groups.replace({
        ...group,
        termsAcceptances: [...(group.termsAcceptances ?? []), ...added],
      });
      ctx.state.touch();
    }
    return ok({ group: groupUid, documentIds: [...new Set(ids as string[])] });
  }
  if (request.method === "GET") {
    access.require("CAP_TERMS_LIST", groupUid);
    kit.existing(ctx.state.groups, groupUid);
    const params = parseListParams(request.query);
    // A page token is the offset it continues from (the list is short and append-only).
    let start = params.skip;
    if (params.pageToken !== undefined) {
      const offset = /^terms:(\d{1,6})$/.exec(params.pageToken);
      if (!offset) throw invalidArgument("page_token", "is not a token of this list");
      start = Number(offset[1]);
    }
    // The group's own acceptances and those of its ancestors, oldest first.
    const all: ReturnType<typeof acceptanceOut>[] = [];
    const segments = groupUid.split("/");
    for (let depth = 1; depth <= segments.length; depth++) {
      const at = segments.slice(0, depth).join("/");
      for (const acceptance of ctx.state.groups.get(at)?.termsAcceptances ?? []) {
        all.push(acceptanceOut(at, acceptance));
      }
    }
    const first = Math.min(start, all.length);
    const end = first + params.pageSize;
    return ok({
      termsAcceptances: all.slice(first, end),
      nextPageToken: end < all.length ? `terms:${end}` : "",
      totalCount: String(all.length),
      skipped: params.pageToken === undefined ? first : 0,
    });
  }
  throw kit.unsupported(request);
};

/** The caller-set fields of `IdentityMetadata`, by JSON name, and their type. */
const METADATA_FIELDS: Readonly<Record<string, "string" | "boolean">> = {
  company: "string",
  updatesOptIn: "boolean",
  product: "string",
  jobTitle: "string",
  utmCampaign: "string",
  utmContent: "string",
  utmMedium: "string",
  utmSource: "string",
  utmTerm: "string",
  latestFormSubmitUrl: "string",
  latestInternalReferringUrl: "string",
  hubspotUtk: "string",
  selfServe: "boolean",
};
/** Never kept: the definitions call it ephemeral; it is only echoed. */
const EPHEMERAL = "hubspotUtk";
/** The longest metadata string kept (the definitions give no bound). */
const MAX_METADATA_TEXT = 1024;

/**
 * `PATCH /iam/v2beta1/identities:updateIdentityMetadata`: the caller's own metadata,
 * the fields the mask names (without one, those the body sets; `*` replaces them all).
 * Answers the identity's uid and name, the given and family names taken from it, and
 * the fields as now kept.
 */
export const updateIdentityMetadata: kit.CollectionHandler = async (ctx, request, uid) => {
  only("PATCH", request);
  if (uid !== undefined) throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  const identity = kit.existing(ctx.state.identities, access.identityUid ?? "");
  const body = bodyObject(request);
  const given = optionalObject(body, "identityMetadata") ?? {};
  const rawMask =
    optionalString(body, "updateMask") ??
    request.query.get("updateMask") ??
    request.query.get("update_mask") ??
    "";
  const fields = Object.keys(METADATA_FIELDS);
  let paths: string[];
  let replace = false;
  if (rawMask.trim() === "") {
    paths = fields.filter((field) => given[field] !== undefined && given[field] !== null);
  } else if (rawMask.trim() === "*") {
    paths = fields;
    replace = true;
  } else {
    paths = rawMask.split(",").map((raw) => {
      const path = jsonPath(raw.trim());
      if (!(path in METADATA_FIELDS)) {
        throw invalidArgument("update_mask", `"${raw.trim()}" is not a field of the metadata`);
      }
      return path;
    });
  }
  const stored = replace ? {} : { ...(ctx.state.identityMetadata.get(identity.uid) ?? {}) };
  let echoed: string | undefined;
  for (const path of paths) {
    const value = given[path];
    const at = `identityMetadata.${path}`;
    if (value === undefined || value === null) {
      delete stored[path];
      continue;
    }
    if (typeof value !== METADATA_FIELDS[path]) {
      throw invalidArgument(at, `must be a ${METADATA_FIELDS[path]}`);
    }
    if (typeof value === "string" && value.length > MAX_METADATA_TEXT) {
      throw invalidArgument(at, `must be at most ${MAX_METADATA_TEXT} characters`);
    }
    if (path === EPHEMERAL) echoed = value as string;
    else stored[path] = value as string | boolean;
  }
  ctx.state.identityMetadata.set(identity.uid, stored);
  const [givenName = "", ...rest] = identity.name.split(" ");
  const answer: JsonObject = {
    uid: identity.uid,
    name: identity.name,
    givenName,
    familyName: rest.join(" "),
    ...stored,
    ...(echoed === undefined ? {} : { [EPHEMERAL]: echoed }),
  };
  return ok(answer);
};
