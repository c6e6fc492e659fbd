/** Registry tags: `/registry/v2beta1/tags`, read only; tags of public repos need no token. */
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

export const tags = registryCollection<TagRecord>({
  key: "tags",
  records: (state) => state.tags,
  out: tagOut,
  isPublic: (state, tag) => state.repos.get(parentPath(tag.uid))?.public ?? false,
});
