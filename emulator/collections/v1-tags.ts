/**
 * `/registry/v1/tags`, the v1 registry's tag calls the platform's tools make, answered
 * from the v2beta1 records: ListTags (`id`, `name`, `digest`, `updated_since`,
 * `uidp.children_of`, `uidp.descendants_of`; tags of public repos without a token),
 * CreateTag (`POST .../<repo_id>`, the v1 `Tag` as body; a tag of that name in the repo
 * is moved, as the v2beta1 CreateTag does), UpdateTag (`PUT .../<id>`, the whole `Tag`)
 * and DeleteTag. The v1 `Tag` is `{ id, name, digest, lastUpdated, deprecated, bundles }`;
 * the emulator keeps no bundles (always `[]`, a non-empty list is refused).
 */
import { alreadyExists, invalidArgument } from "../errors";
import { capabilityFor } from "../kinds";
import type { TagRecord } from "../model";
import { bodyObject, type JsonObject, ok } from "../requests";
import * as kit from "./kit";
import { createTag, imagesOf, tagDraft, updatedSinceOf } from "./tags";

export function v1TagOut(tag: TagRecord): JsonObject {
  return {
    id: tag.uid,
    name: tag.name,
    digest: tag.digest,
    lastUpdated: tag.updateTime,
    deprecated: tag.deprecated,
    bundles: [],
  };
}

/** The v2beta1 draft of a v1 `Tag` body: `bundles` are not kept, so none may be sent. */
function v1Draft(body: JsonObject): JsonObject {
  const bundles = body.bundles;
  if (bundles !== undefined && bundles !== null) {
    if (!Array.isArray(bundles)) throw invalidArgument("bundles", "must be a list of strings");
    if (bundles.length > 0) {
      throw invalidArgument("bundles", "is not offered here: the emulator keeps no tag bundles");
    }
  }
  const draft = tagDraft(body);
  return { name: draft.name, digest: draft.digest, deprecated: draft.deprecated };
}

function tagReadable(
  ctx: kit.EmulatorContext,
  access: Awaited<ReturnType<typeof kit.callerOf>>,
  tag: TagRecord,
) {
  const repo = ctx.state.repos.get(kit.parentOf(tag.uid) ?? "");
  return (repo?.public ?? false) || access.can(capabilityFor("tags", "list"), tag.uid);
}

export const v1Tags: kit.CollectionHandler = async (ctx, request, rest) => {
  switch (request.method) {
    case "GET": {
      if (rest !== undefined) throw kit.unsupported(request);
      const access = await kit.callerOf(ctx, request, false);
      const query = request.query;
      const digest = query.get("digest") || undefined;
      const since = updatedSinceOf(query);
      const matches = kit.v1RegistryFilter(query);
      const items: JsonObject[] = [];
      const range = ctx.state.tags.all();
      for (let index = range.start; index < range.end; index++) {
        const tag = ctx.state.tags.get(range.uids[index]);
        if (!tag || !tagReadable(ctx, access, tag) || !matches(tag)) continue;
        if (digest && tag.digest !== digest) continue;
        if (since !== undefined && Date.parse(tag.updateTime) < since) continue;
        items.push(v1TagOut(tag));
      }
      return ok({ items });
    }
    case "POST": {
      const access = await kit.callerOf(ctx, request, true);
      if (rest === undefined) throw invalidArgument("repo_id", "the repo uid belongs in the path");
      const repoUid = kit.requirePathUid(rest, "repo_id");
      access.require(capabilityFor("tags", "create"), repoUid);
      return ok(v1TagOut(createTag(ctx, v1Draft(bodyObject(request)), repoUid)));
    }
    case "PUT": {
      const uid = await kit.v1WriteTarget(ctx, request, rest, capabilityFor("tags", "update"));
      const draft = v1Draft(bodyObject(request)) as Pick<
        TagRecord,
        "name" | "digest" | "deprecated"
      >;
      const current = kit.existing(ctx.state.tags, uid);
      if (draft.name !== current.name) {
        for (const other of ctx.state.tags.named(draft.name)) {
          if ((kit.parentOf(other) ?? "") === (kit.parentOf(uid) ?? "")) {
            throw alreadyExists(`a tag named "${draft.name}" in ${kit.parentOf(uid) ?? ""}`);
          }
        }
      }
      const same =
        draft.name === current.name &&
        draft.digest === current.digest &&
        draft.deprecated === current.deprecated;
      if (same) return ok(v1TagOut(current));
      // A tag moved to another digest names another image: its platforms follow the
      // digest, as a v2beta1 tag write takes them (`createTag`).
      const { images: before, ...kept } = current;
      const known =
        draft.digest === current.digest
          ? before
          : imagesOf(ctx.state, kit.parentOf(uid) ?? "", draft.digest);
      const images = known && known.length > 0 ? { images: known } : {};
      const next: TagRecord = { ...kept, ...draft, ...images, updateTime: ctx.clock.isoNow() };
      ctx.state.tags.replace(next);
      ctx.state.touch();
      return ok(v1TagOut(next));
    }
    case "DELETE": {
      const uid = await kit.v1WriteTarget(ctx, request, rest, capabilityFor("tags", "delete"));
      kit.existing(ctx.state.tags, uid);
      ctx.state.tags.delete(uid);
      ctx.state.touch();
      return ok({});
    }
    default:
      throw kit.unsupported(request);
  }
};
