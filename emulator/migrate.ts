/**
 * `--data` files written by earlier versions of the emulator, brought to today's shapes
 * on load (the first snapshot after the start then stores them migrated):
 *
 * - capabilities spelled `<collection>.<verb>` become the enum names (`groups.create`
 *   -> `CAP_IAM_GROUPS_CREATE`, a `get` -> the collection's LIST value); a name that is
 *   neither refuses the file, naming the role;
 * - a custom role with a flat uid and `parentUid` becomes a child of its group,
 *   `<group uid>/<16 hex>` (the segment derived from the old uid, so a restart gives the
 *   same uid), and every binding, identity provider and invite naming it follows;
 * - a repo's `catalogTier` outside the enum (`FREE`, `PREMIUM`) becomes
 *   `CATALOG_TIER_UNSPECIFIED`;
 * - an advisory of the old shape (`packageName`, `severity`) takes the official one:
 *   the package becomes its artifact and component; the severity, which had no score,
 *   is dropped.
 */
import { createHash } from "node:crypto";
import { legacyCapability } from "../sdk/capabilities";
import { DEFAULT_COMPONENT_LOCATION } from "./collections/advisories";
import { CATALOG_TIERS } from "./collections/repos";
import { isCapability, sortCapabilities } from "./model";
import type { SavedState } from "./state";

type Loose = Record<string, unknown>;

/** The capabilities of a stored role in today's names; throws on a name of neither form. */
function migrateCapabilities(file: string, role: Loose): string[] {
  const stored = Array.isArray(role.capabilities) ? (role.capabilities as unknown[]) : [];
  const names = stored.map((name) => {
    if (typeof name === "string" && isCapability(name)) return name;
    // A former `<collection>.get` stands for the LIST value a Get needs.
    const legacy = typeof name === "string" ? legacyCapability(name) : undefined;
    const migrated = legacy?.kind === "renamed" ? legacy.replacement : legacy?.list;
    if (migrated === undefined) {
      throw new Error(
        `${file}: role ${String(role.uid)} holds the unknown capability ${JSON.stringify(name)}; ` +
          "remove it from the file or start from a fresh one",
      );
    }
    return migrated;
  });
  return sortCapabilities(names);
}

/** The new uid of a custom role stored flat with `parentUid`. */
function childRoleUid(groupUid: string, flatUid: string): string {
  const segment = createHash("sha256").update(`irm role ${flatUid}`).digest("hex").slice(0, 16);
  return `${groupUid}/${segment}`;
}

/** `saved` in today's shapes (a new object; `saved` itself is left alone). */
export function migrateSavedState(file: string, saved: SavedState): SavedState {
  const renamed = new Map<string, string>();
  const roles = (saved.roles as unknown as Loose[]).map((role) => {
    const { parentUid, ...rest } = role;
    const next: Loose = { ...rest, capabilities: migrateCapabilities(file, role) };
    const uid = String(role.uid);
    if (typeof parentUid === "string" && parentUid !== "" && !uid.includes("/")) {
      next.uid = childRoleUid(parentUid, uid);
      renamed.set(uid, next.uid as string);
    }
    return next;
  });
  const follow = (uid: string) => renamed.get(uid) ?? uid;
  return {
    ...saved,
    roles: roles as unknown as SavedState["roles"],
    roleBindings: saved.roleBindings.map((binding) => ({
      ...binding,
      roleUid: follow(binding.roleUid),
    })),
    identityProviders: saved.identityProviders?.map((provider) => ({
      ...provider,
      defaultRole: follow(provider.defaultRole),
    })),
    groupInvites: saved.groupInvites?.map((invite) => ({
      ...invite,
      roleUid: follow(invite.roleUid),
    })),
    repos: saved.repos.map((repo) =>
      (CATALOG_TIERS as readonly string[]).includes(repo.catalogTier)
        ? repo
        : { ...repo, catalogTier: "CATALOG_TIER_UNSPECIFIED" },
    ),
    advisories: saved.advisories.map((advisory) => migrateAdvisory(advisory as unknown as Loose)),
  };
}

function migrateAdvisory(advisory: Loose): SavedState["advisories"][number] {
  if (!("packageName" in advisory) && !("severity" in advisory)) {
    // A location left empty by an earlier version: the definitions require one.
    const located = advisory.componentLocation
      ? {}
      : { componentLocation: DEFAULT_COMPONENT_LOCATION };
    return { ...advisory, ...located } as unknown as SavedState["advisories"][number];
  }
  const { packageName, severity: _severity, ...rest } = advisory;
  const name = typeof packageName === "string" ? packageName : "";
  return {
    ...(rest as object),
    author: "",
    artifactName: name,
    artifactType: "apk",
    artifactArchitecture: "",
    componentName: name,
    componentLocation: DEFAULT_COMPONENT_LOCATION,
    componentType: "apk",
    events: [],
    severities: [],
  } as unknown as SavedState["advisories"][number];
}
