/** Registry tags: `/registry/v2beta1/tags`, read only; tags of public repos need no token. */
import { invalidArgument } from "../errors";
import type { TagRecord } from "../model";
import type { JsonObject } from "../requests";
import { parentPath, registryCollection } from "./kit";

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
function updatedSinceOf(query: URLSearchParams): number | undefined {
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

export const tags = registryCollection<TagRecord>({
  key: "tags",
  records: (state) => state.tags,
  out: tagOut,
  isPublic: (state, tag) => state.repos.get(parentPath(tag.uid))?.public ?? false,
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
