/** Groups: `/iam/v2beta1/groups`, the tree everything else hangs under. */
import { failedPrecondition } from "../errors";
import { KIND_ENTRIES } from "../kinds";
import type { GroupRecord } from "../model";
import { type JsonObject, optionalString } from "../requests";
import type { State } from "../state";
import { countsOfPresent, type EmulatorContext, newChildUid, requireSizedName } from "./kit";
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
  return countsOfPresent(
    KIND_ENTRIES.flatMap((entry): Array<[number, string, string]> => {
      if (!entry.contents) return [];
      const { one, many, ownUid } = entry.contents;
      const store = state.collection(entry.name);
      // An account association hangs on the group's own uid, not on a child uid.
      return [[ownUid ? (store.has(uid) ? 1 : 0) : store.countChildren(uid), one, many]];
    }),
  );
}

export const groups = writableCollection<GroupRecord, { name: string; description: string }>({
  name: "groups",
  out: (_ctx, group) => groupOut(group),
  list: { sortName: (_ctx, group) => group.name },
  create: {
    parentHint: "the parent group uid belongs in the path",
    body: (_ctx, body) => ({
      name: requireSizedName(body.name),
      description: optionalString(body, "description") ?? "",
    }),
    build: (ctx, draft, parentUid, now) => ({
      uid: newChildUid(parentUid, (candidate) => ctx.state.groups.has(candidate)),
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
        if (path === "name") next.name = requireSizedName(body.name, "name", current.name);
        if (path === "description") next.description = optionalString(body, "description") ?? "";
      }
      return next;
    },
  },
  delete: {
    refuse: (ctx: EmulatorContext, group) => {
      const remaining = groupContents(ctx.state, group.uid);
      if (remaining.length > 0) {
        throw failedPrecondition({
          type: "RESOURCE_NOT_EMPTY",
          subject: group.uid,
          description: `group ${group.uid} is not empty: it still has ${remaining.join(", ")}`,
        });
      }
    },
  },
});
