/**
 * Custom Assembly overlays: `/registry/v2beta1/overlays`, a named list of packages a
 * group keeps, and `/registry/v2beta1/overlayBindings`, an overlay bound to one repo
 * under exact tags. Neither has an update (the definitions: delete and recreate). Reads
 * need `CAP_REGISTRY_OVERLAYS_LIST`, writes `CAP_REGISTRY_OVERLAYS_EDIT`.
 *
 * - An overlay's uid is a child of its group's; its name is unique among the group's
 *   overlays. Only `config.contents.packages` is accepted, with at least one package:
 *   any other populated field of `config` is INVALID_ARGUMENT naming it.
 * - A binding's uid is a child of its repo's. `overlay` names the overlay by uid, or by
 *   name within the repo's organisation; `tags` are one or more exact tag names. One
 *   binding per overlay and repo (ALREADY_EXISTS). A binding answers its overlay inline.
 * - An overlay still bound is not deleted (FAILED_PRECONDITION `RESOURCE_IN_USE`); a
 *   repo's delete takes its bindings with it.
 */
import { alreadyExists, failedPrecondition, invalidArgument, notFound } from "../errors";
import type { OverlayBindingRecord, OverlayRecord } from "../model";
import { type JsonObject, optionalObject, optionalString, optionalStringArray } from "../requests";
import type { State } from "../state";
import * as kit from "./kit";
import { TAG_NAME_PATTERN } from "./tags";
import { writableCollection } from "./writable";

/** The most packages an overlay, and tags a binding, may list. */
export const MAX_OVERLAY_PACKAGES = 200;
export const MAX_BINDING_TAGS = 100;
/** An APK package name as an overlay lists it (a name, optionally `=version` or `~version`). */
const PACKAGE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]*([=~<>]{1,2}[A-Za-z0-9._+~-]+)?$/;

export function overlayOut(overlay: OverlayRecord): JsonObject {
  return {
    uid: overlay.uid,
    name: overlay.name,
    config: { contents: { packages: overlay.packages } },
  };
}

/** The organisation (root group) a uid belongs to. */
function organisationOf(uid: string): string {
  return uid.split("/")[0] ?? uid;
}

/** True when `value` is set: not absent, null, "", false, 0, [] or {}. */
function populated(value: unknown): boolean {
  if (value === undefined || value === null || value === "" || value === false || value === 0) {
    return false;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === "object") return Object.values(value).some(populated);
  return true;
}

/** `config` of an overlay: `contents.packages` only, at least one, each a package name. */
function packagesOf(body: JsonObject): string[] {
  const config = optionalObject(body, "config");
  if (!config) throw invalidArgument("config", "is required");
  for (const [key, value] of Object.entries(config)) {
    if (key !== "contents" && populated(value)) {
      throw invalidArgument(`config.${key}`, "is not accepted: only config.contents.packages");
    }
  }
  const contents = optionalObject(config, "contents", "config.contents") ?? {};
  for (const [key, value] of Object.entries(contents)) {
    if (key !== "packages" && populated(value)) {
      throw invalidArgument(
        `config.contents.${key}`,
        "is not accepted: only config.contents.packages",
      );
    }
  }
  const packages =
    optionalStringArray(contents, "packages", "config.contents.packages") ?? ([] as string[]);
  if (packages.length === 0) {
    throw invalidArgument("config.contents.packages", "must list at least one package");
  }
  if (packages.length > MAX_OVERLAY_PACKAGES) {
    throw invalidArgument(
      "config.contents.packages",
      `must list at most ${MAX_OVERLAY_PACKAGES} packages`,
    );
  }
  for (const [index, name] of packages.entries()) {
    if (!PACKAGE_PATTERN.test(name)) {
      throw invalidArgument(`config.contents.packages[${index}]`, "must be a package name");
    }
  }
  return packages;
}

/** Refuses the delete of overlay `uid` while bindings name it. */
function refuseOverlayDelete(state: State, uid: string): void {
  let bound = 0;
  for (const binding of state.overlayBindings.values()) {
    if (binding.overlayUid === uid) bound++;
  }
  if (bound > 0) {
    const [counted] = kit.countsOfPresent([[bound, "overlay binding", "overlay bindings"]]);
    throw failedPrecondition({
      type: "RESOURCE_IN_USE",
      subject: uid,
      description: `overlay ${uid} is bound by ${counted}`,
    });
  }
}

export const overlays = writableCollection<OverlayRecord, { name: string; packages: string[] }>({
  name: "overlays",
  out: (_ctx, overlay) => overlayOut(overlay),
  list: { sortName: (_ctx, overlay) => overlay.name },
  create: {
    parentHint: "the group uid belongs in the path",
    body: (_ctx, body) => ({ name: kit.requireName(body.name), packages: packagesOf(body) }),
    unique: ({ ctx, parentUid, draft }) => {
      for (const uid of ctx.state.overlays.named(draft.name)) {
        if ((kit.parentOf(uid) ?? "") === parentUid) {
          throw alreadyExists(`an overlay named "${draft.name}" in ${parentUid}`);
        }
      }
    },
    build: (ctx, draft, parentUid, now) => ({
      uid: kit.newChildUid(parentUid, (candidate) => ctx.state.overlays.has(candidate)),
      ...draft,
      createTime: now,
      updateTime: now,
    }),
  },
  delete: { refuse: (ctx, overlay) => refuseOverlayDelete(ctx.state, overlay.uid) },
});

interface BindingDraft {
  overlayRef: string;
  tags: string[];
}

/** The overlay `ref` names for a binding of `repoUid`: a uid, or a name in the repo's organisation. */
function overlayOfBinding(state: State, ref: string, repoUid: string): OverlayRecord {
  const organisation = organisationOf(repoUid);
  const byUid = state.overlays.get(ref);
  if (byUid) {
    if (organisationOf(byUid.uid) !== organisation) {
      throw invalidArgument("overlay", "must be an overlay of the repo's organisation");
    }
    return byUid;
  }
  for (const uid of state.overlays.named(ref)) {
    if (organisationOf(uid) === organisation) {
      const overlay = state.overlays.get(uid);
      if (overlay) return overlay;
    }
  }
  throw notFound(ref);
}

export const overlayBindings = writableCollection<OverlayBindingRecord, BindingDraft>({
  name: "overlayBindings",
  out: (ctx, binding) => {
    const overlay = ctx.state.overlays.get(binding.overlayUid);
    return {
      uid: binding.uid,
      repo: kit.parentOf(binding.uid) ?? "",
      ...(overlay ? { overlay: overlayOut(overlay) } : {}),
      tags: binding.tags,
    };
  },
  list: {
    filters: ["overlay"],
    sortName: () => "",
    match: (_ctx, params) => {
      const overlay = params.filters.overlay;
      if (!overlay) return undefined;
      return (binding) => binding.overlayUid === overlay;
    },
  },
  create: {
    parentHint: "the repo uid belongs in the path",
    parentCollection: "repos",
    body: (_ctx, body) => {
      const overlayRef = optionalString(body, "overlay") ?? "";
      if (overlayRef === "") throw invalidArgument("overlay", "is required");
      const tags = optionalStringArray(body, "tags") ?? [];
      if (tags.length === 0) throw invalidArgument("tags", "must list at least one tag");
      if (tags.length > MAX_BINDING_TAGS) {
        throw invalidArgument("tags", `must list at most ${MAX_BINDING_TAGS} tags`);
      }
      const seen = new Set<string>();
      for (const [index, tag] of tags.entries()) {
        if (!TAG_NAME_PATTERN.test(tag)) {
          throw invalidArgument(`tags[${index}]`, `must match ${TAG_NAME_PATTERN.source}`);
        }
        if (seen.has(tag)) throw invalidArgument(`tags[${index}]`, "is listed twice");
        seen.add(tag);
      }
      return { overlayRef, tags };
    },
    references: ({ ctx, parentUid, draft }) => {
      // Resolved once here; `build` reads the uid back (a name becomes the overlay's uid).
      draft.overlayRef = overlayOfBinding(ctx.state, draft.overlayRef, parentUid).uid;
    },
    unique: ({ ctx, parentUid, draft }) => {
      const store = ctx.state.overlayBindings;
      const { uids, start, end } = store.childrenOf(parentUid);
      for (const uid of uids.slice(start, end)) {
        if (store.get(uid)?.overlayUid === draft.overlayRef) {
          throw alreadyExists(`a binding of ${draft.overlayRef} to ${parentUid}`);
        }
      }
    },
    build: (ctx, draft, parentUid, now) => ({
      uid: kit.newChildUid(parentUid, (candidate) => ctx.state.overlayBindings.has(candidate)),
      overlayUid: draft.overlayRef,
      tags: draft.tags,
      createTime: now,
      updateTime: now,
    }),
  },
  delete: {},
});
