/** Groups: `/iam/v2beta1/groups`, the tree everything else hangs under. */
import type { Access } from "../access";
import { failedPrecondition, invalidArgument, notFound, unauthenticated } from "../errors";
import { type CollectionName, KIND_ENTRIES } from "../kinds";
import type { GroupRecord } from "../model";
import { type JsonObject, optionalString } from "../requests";
import { builtInRoleUid, childSegment, flatUid, type State } from "../state";
import * as kit from "./kit";
import { writableCollection } from "./writable";

export function groupOut(group: GroupRecord): JsonObject {
  return {
    uid: group.uid,
    name: group.name,
    description: group.description,
    // map<string, int32>: numbers in JSON.
    resourceLimits: { ...group.resourceLimits },
    verified: group.verified,
    createTime: group.createTime,
    updateTime: group.updateTime,
  };
}

/**
 * What still hangs on group `uid`, as counted phrases (`2 identities`); a group is
 * deleted only when this is empty, so nothing is ever left without its group.
 */
export function groupContents(state: State, uid: string): string[] {
  return kit.countsOfPresent(
    KIND_ENTRIES.flatMap((entry): Array<[number, string, string]> => {
      if (!entry.contents) return [];
      const { one, many, ownUid, counts } = entry.contents;
      const store = state.collection(entry.name);
      if (counts) {
        return [[childrenOf(state, entry.name, uid).filter(counts).length, one, many]];
      }
      // An account association hangs on the group's own uid, not on a child uid.
      return [[ownUid ? (store.has(uid) ? 1 : 0) : store.countChildren(uid), one, many]];
    }),
  );
}

/** The records of collection `name` directly under `uid`. */
function childrenOf(state: State, name: CollectionName, uid: string): Array<{ uid: string }> {
  const store = state.collection(name);
  const { uids, start, end } = store.childrenOf(uid);
  return uids
    .slice(start, end)
    .map((child) => store.get(child))
    .filter((record): record is { uid: string } => record !== undefined);
}

/** The parent as given, quoted and cut short so a pasted blob does not flood an error. */
function quotedParent(given: string): string {
  if (given.length <= 80) return JSON.stringify(given);
  return `${JSON.stringify(given.slice(0, 80))}... (${given.length} characters)`;
}

/** One group named by `what`, or the error saying several are. */
function onlyOne(matches: string[], given: string, what: string): string | undefined {
  if (matches.length > 1) {
    throw invalidArgument(
      "parent",
      `${quotedParent(given)} is the ${what} of ${matches.length} groups; give the group's uid`,
    );
  }
  return matches[0];
}

/**
 * A new group's parent as the definitions at HEAD allow it (corrections 16): a group's
 * uid, else the suffix of exactly one group's uid, else the name of exactly one group the
 * caller can see. Several matches are INVALID_ARGUMENT, none NOT_FOUND, each naming
 * `parent`.
 */
function resolveParent(ctx: kit.EmulatorContext, access: Access, raw: string): string {
  let given: string;
  try {
    given = decodeURIComponent(raw);
  } catch {
    throw invalidArgument("parent", "is not a valid path segment");
  }
  if (kit.GROUP_UID_PATTERN.test(given)) return given;
  const visible = (uid: string) => access.can("CAP_IAM_GROUPS_LIST", uid);
  const store = ctx.state.groups;
  const bySuffix: string[] = [];
  for (const group of store.values()) {
    if (group.uid.endsWith(`/${given}`) && visible(group.uid)) bySuffix.push(group.uid);
  }
  const suffix = onlyOne(bySuffix, given, "uid suffix");
  if (suffix !== undefined) return suffix;
  const named = onlyOne(store.named(given).filter(visible), given, "name");
  if (named !== undefined) return named;
  throw notFound(
    `parent: no group the caller can see has the uid, uid suffix or name ${quotedParent(given)}`,
  );
}

/**
 * A root organisation: `CreateGroup` with an empty parent. The definitions make the
 * create unscoped "to allow users to create new root groups", so any authenticated
 * caller may; the caller becomes its owner (a binding to the built-in `owner` role on
 * it), as the platform's internal create without an owner (`CreateWithGroup`) says by
 * contrast.
 */
function createRoot(ctx: kit.EmulatorContext, access: Access, body: JsonObject): GroupRecord {
  const owner = access.identityUid;
  if (owner === undefined || !ctx.state.identities.has(owner)) {
    throw unauthenticated("creating an organisation needs a caller who can become its owner");
  }
  const name = kit.requireSizedName(body.name);
  const description = optionalString(body, "description") ?? "";
  const now = ctx.clock.isoNow();
  let uid = flatUid();
  while (ctx.state.groups.has(uid)) uid = flatUid();
  const group: GroupRecord = {
    uid,
    name,
    description,
    resourceLimits: {},
    verified: false,
    createTime: now,
    updateTime: now,
  };
  ctx.state.groups.insert(group);
  ctx.state.addBinding({
    uid: `${uid}/${childSegment()}`,
    identityUid: owner,
    roleUid: builtInRoleUid("owner"),
    createTime: now,
    updateTime: now,
  });
  ctx.state.touch();
  return group;
}

export const groups = writableCollection<GroupRecord, { name: string; description: string }>({
  name: "groups",
  out: (_ctx, group) => groupOut(group),
  list: { sortName: (_ctx, group) => group.name },
  create: {
    parentHint: "the parent group uid belongs in the path",
    parent: resolveParent,
    root: createRoot,
    body: (_ctx, body) => ({
      name: kit.requireSizedName(body.name),
      description: optionalString(body, "description") ?? "",
    }),
    build: (ctx, draft, parentUid, now) => ({
      uid: kit.newChildUid(parentUid, (candidate) => ctx.state.groups.has(candidate)),
      name: draft.name,
      description: draft.description,
      resourceLimits: {},
      verified: false,
      createTime: now,
      updateTime: now,
    }),
  },
  update: {
    // `verified` is accepted in a mask and left unchanged: only the platform's staff set
    // it, and the platform's own tools send it back as they read it.
    writable: ["name", "description", "verified"],
    fields: ["name", "description"],
    apply: (_ctx, current, body, paths) => {
      const next: GroupRecord = { ...current };
      for (const path of paths) {
        if (path === "name") next.name = kit.requireSizedName(body.name, "name", current.name);
        if (path === "description") next.description = optionalString(body, "description") ?? "";
      }
      return next;
    },
  },
  delete: {
    refuse: (ctx: kit.EmulatorContext, group) => {
      const remaining = groupContents(ctx.state, group.uid);
      if (remaining.length > 0) {
        throw failedPrecondition({
          type: "RESOURCE_NOT_EMPTY",
          subject: group.uid,
          description: `group ${group.uid} is not empty: it still has ${remaining.join(", ")}`,
        });
      }
    },
    // What no longer counts (tombstones) goes with the group, so nothing is left without it.
    remove: (ctx: kit.EmulatorContext, group) => {
      for (const entry of KIND_ENTRIES) {
        if (!entry.contents?.counts) continue;
        const store = ctx.state.collection(entry.name);
        for (const record of childrenOf(ctx.state, entry.name, group.uid)) store.delete(record.uid);
      }
      ctx.state.groups.delete(group.uid);
    },
  },
});
