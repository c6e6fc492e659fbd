/**
 * Registry tags: `/registry/v2beta1/tags`. Reads admit anonymous callers on tags of public
 * repos; CreateTag (`POST tags/<repo uid>`, which creates or moves a tag of that name) and
 * DeleteTag need a token and `CAP_TAG_CREATE` / `CAP_TAG_DELETE` on the repo or the tag.
 */
import { invalidArgument } from "../errors";
import { capabilityFor } from "../kinds";
import type { ImagePlatformRecord, TagRecord } from "../model";
import { bodyObject, type JsonObject, ok, optionalBoolean, optionalString } from "../requests";
import type { State } from "../state";
import * as kit from "./kit";

/** An OCI tag: a word character first, then up to 127 of `[A-Za-z0-9_.-]`. */
export const TAG_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
/** An OCI digest of a manifest: `sha256:` and 64 lowercase hex, or `sha512:` and 128. */
export const DIGEST_PATTERN = /^(sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})$/;

export function tagOut(tag: TagRecord): JsonObject {
  return {
    uid: tag.uid,
    name: tag.name,
    digest: tag.digest,
    deprecated: tag.deprecated,
    createTime: tag.createTime,
    updateTime: tag.updateTime,
  };
}

/**
 * `updated_since`, a Timestamp: as RFC 3339 text, or as its `seconds` and `nanos`
 * (the gateway reads either); undefined when absent.
 */
export function updatedSinceOf(query: URLSearchParams): number | undefined {
  const text = query.get("updated_since") ?? query.get("updatedSince");
  if (text !== null && text !== "") {
    const ms = Date.parse(text);
    if (!/^\d{4}-\d{2}-\d{2}T/i.test(text) || Number.isNaN(ms)) {
      throw invalidArgument("updated_since", "must be an RFC 3339 timestamp");
    }
    return ms;
  }
  const seconds = query.get("updated_since.seconds") ?? query.get("updatedSince.seconds");
  const nanos = query.get("updated_since.nanos") ?? query.get("updatedSince.nanos");
  if (seconds === null && nanos === null) return undefined;
  const whole = Number(seconds ?? "0");
  const fraction = Number(nanos ?? "0");
  if (
    !Number.isSafeInteger(whole) ||
    !Number.isInteger(fraction) ||
    fraction < 0 ||
    fraction > 999_999_999
  ) {
    throw invalidArgument("updated_since", "must be a timestamp (seconds and nanos)");
  }
  return whole * 1000 + Math.floor(fraction / 1_000_000);
}

const readTags = kit.registryCollection<TagRecord>({
  key: "tags",
  records: (state) => state.tags,
  out: tagOut,
  isPublic: (state, tag) => state.repos.get(kit.parentOf(tag.uid) ?? "")?.public ?? false,
  // `ListTagsRequest`'s own filters: an exact `digest`, and `updated_since`.
  filters: (query) => {
    const digest = query.get("digest") || undefined;
    const since = updatedSinceOf(query);
    const key = JSON.stringify([digest ?? "", since ?? ""]);
    if (digest === undefined && since === undefined) return { key };
    return {
      key,
      match: (tag) =>
        (digest === undefined || tag.digest === digest) &&
        (since === undefined || Date.parse(tag.updateTime) >= since),
    };
  },
});

export function tagDraft(body: JsonObject): { name: string; digest: string; deprecated: boolean } {
  const name = optionalString(body, "name");
  if (name === undefined || !TAG_NAME_PATTERN.test(name)) {
    throw invalidArgument("name", `must match ${TAG_NAME_PATTERN.source}`);
  }
  const digest = optionalString(body, "digest");
  if (digest === undefined || !DIGEST_PATTERN.test(digest)) {
    throw invalidArgument(
      "digest",
      "must be a manifest digest (sha256:<64 hex> or sha512:<128 hex>)",
    );
  }
  return { name, digest, deprecated: optionalBoolean(body, "deprecated") ?? false };
}

/**
 * CreateTag: in the addendum's order, the repo uid, `CAP_TAG_CREATE` on it, the body, the
 * repo's existence. A tag of that name already in the repo is moved (its digest and
 * `deprecated` set, its uid kept), as the service's "creates (or updates)" says.
 */
export function createTag(ctx: kit.EmulatorContext, body: JsonObject, repoUid: string): TagRecord {
  const draft = tagDraft(body);
  kit.existing(ctx.state.repos, repoUid);
  const now = ctx.clock.isoNow();
  const present = ctx.state.tags
    .named(draft.name)
    .map((uid) => ctx.state.tags.get(uid))
    .find((tag) => tag !== undefined && kit.parentOf(tag.uid) === repoUid);
  // The image a digest names is the repo's, whichever tag points at it: its recorded
  // platforms (`images.ts`) follow the digest.
  const known = imagesOf(ctx.state, repoUid, draft.digest);
  const images = known && known.length > 0 ? { images: known } : {};
  if (present) {
    if (present.digest === draft.digest && present.deprecated === draft.deprecated) {
      return present;
    }
    const { images: _before, ...rest } = present;
    const moved: TagRecord = { ...rest, ...draft, ...images, updateTime: now };
    ctx.state.tags.replace(moved);
    ctx.state.touch();
    return moved;
  }
  const tag: TagRecord = {
    uid: kit.newChildUid(repoUid, (candidate) => ctx.state.tags.has(candidate)),
    ...draft,
    ...images,
    createTime: now,
    updateTime: now,
  };
  ctx.state.tags.insert(tag);
  ctx.state.touch();
  return tag;
}

export const tags: kit.CollectionHandler = async (ctx, request, uid) => {
  if (request.method === "GET") return readTags(ctx, request, uid);
  if (request.method !== "POST" && request.method !== "DELETE") throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  if (request.method === "POST") {
    if (uid === undefined) throw invalidArgument("parent", "the repo uid belongs in the path");
    const repoUid = kit.requirePathUid(uid, "parent");
    access.require(capabilityFor("tags", "create"), repoUid);
    return ok(tagOut(createTag(ctx, bodyObject(request), repoUid)));
  }
  if (uid === undefined) throw kit.unsupported(request);
  kit.requirePathUid(uid);
  access.require(capabilityFor("tags", "delete"), uid);
  kit.existing(ctx.state.tags, uid);
  ctx.state.tags.delete(uid);
  ctx.state.touch();
  return ok({});
};

/** The platforms recorded for `digest` on the tags of repo `repoUid`; undefined: no such image. */
export function imagesOf(
  state: State,
  repoUid: string,
  digest: string,
): ImagePlatformRecord[] | undefined {
  let found: ImagePlatformRecord[] | undefined;
  const { uids, start, end } = state.tags.childrenOf(repoUid);
  for (const uid of uids.slice(start, end)) {
    const tag = state.tags.get(uid);
    if (tag?.digest !== digest) continue;
    if (tag.images && tag.images.length > 0) return tag.images;
    found = [];
  }
  return found;
}
