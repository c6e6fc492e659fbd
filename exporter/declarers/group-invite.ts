/** Group invites: counted and said, never declared. */
import type { Declarer } from "./build";

/** Why group invites are never declared. */
export const INVITES_SKIPPED =
  "skipped: an invite's code is answered only when the invite is created and cannot be read back, so an adopted invite would be useless; create new invites (irm.GroupInvite) where they are still needed";

/** Group invites are counted and said, never declared. */
export const groupInviteDeclarer: Declarer<{ uid: string }, never> = {
  select: () => [],
  name: () => new Map(),
  refersTo: () => [],
  declare: (build) => {
    const invites = build.live.groupInvites.length;
    if (invites > 0) {
      build.omissions.push({
        what: `${invites} group invite${invites === 1 ? "" : "s"}`,
        why: INVITES_SKIPPED,
      });
    }
    return [];
  },
};
