/**
 * Reads what an export needs in one listing per collection and page: the chosen group,
 * then every group, identity, role binding, identity provider, external group role
 * mapping, account association, repo, event subscription and group invite below it
 * (`uidp.descendants_of`, pages of 200) and every role the token can see. Per-object
 * GETs: the chosen group's own account association, which has the group's uid and so
 * is not below it, and each repo's README (`<repo uid>/readme`, which no listing
 * answers), at most `README_CONCURRENCY` at a time.
 */

import { quoted } from "../provider/checks";
import {
  type AccountAssociation,
  type Group,
  type IrmClient,
  IrmError,
  isNotFound,
  isPermissionDenied,
  isUnauthenticated,
  type ListParams,
  type PagePromise,
  type Repo,
} from "../sdk/index";
import { GROUP_UID_PATTERN, GROUP_UID_SHAPE } from "../sdk/uids";
import { CommandError } from "./command";
import { type Collection, KINDS, type Kind } from "./kinds";
import type { LiveOrganisation, LiveRepo } from "./live";

export type {
  LiveAccountAssociation,
  LiveGithubApp,
  LiveGroupInvite,
  LiveIdentityProvider,
  LiveOrganisation,
  LiveRepo,
} from "./live";

/** READMEs read at once: one GET per repo, never more than this many in flight. */
export const README_CONCURRENCY = 8;

/** The collections an export lists, in the order they are reported. */
export const LISTED_COLLECTIONS: readonly Collection[] = KINDS.map((kind) => kind.collection);

type Element<K extends Kind> = LiveOrganisation[K["live"]] extends Array<infer T> ? T : never;

/**
 * The listing of each kind below the chosen group: every role the token can see,
 * built-in ones and custom ones anywhere. Pages of MAX_PAGE_SIZE (200), the largest
 * the service answers: `all` asks for them when no size is given.
 */
const LISTINGS: {
  [K in Kind as K["type"]]: (
    client: IrmClient,
    below: { descendantsOf: string },
  ) => PagePromise<Element<K>, ListParams>;
} = {
  Group: (client, below) => client.iam.groups.list(below),
  Role: (client) => client.iam.roles.list(),
  Identity: (client, below) => client.iam.identities.list(below),
  IdentityProvider: (client, below) => client.iam.identityProviders.list(below),
  ExternalGroupRoleMapping: (client, below) => client.iam.externalGroupRoleMappings.list(below),
  AccountAssociation: (client, below) => client.iam.accountAssociations.list(below),
  RoleBinding: (client, below) => client.iam.roleBindings.list(below),
  // Listed without READMEs (the listing has none): `withReadmes` adds them.
  Repo: (client, below) =>
    client.registry.repos.list(below) as unknown as PagePromise<LiveRepo, ListParams>,
  Subscription: (client, below) => client.events.subscriptions.list(below),
  GroupInvite: (client, below) => client.iam.groupInvites.list(below),
};

/** One progress report: a page of a collection arrived. */
export interface ReadProgress {
  collection: Collection;
  /** Items read so far in this collection. */
  read: number;
  /** Items the listing reports in all (`totalCount`). */
  total: number;
}

/** A failure the user can act on: bad input or an API refusal, stated in words. */
export class ExportError extends CommandError {
  override readonly name = "ExportError";
}

/** What the API said, without anything but its own (already redacted) message. */
function apiSaid(error: unknown): string {
  if (isUnauthenticated(error)) {
    return `${error.codeName}: ${error.message}; set IRM_TOKEN (or IRM_IDENTITY with IRM_IDENTITY_TOKEN_FILE), or pass --token-file`;
  }
  if (error instanceof IrmError) return `${error.codeName}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Reads `groupUid`'s subtree, or that of the token's root organisation when none is given. */
export async function readOrganisation(
  client: IrmClient,
  options: { groupUid?: string; onProgress?: (progress: ReadProgress) => void } = {},
): Promise<LiveOrganisation> {
  const requests: Record<string, number> = {};
  const count = (collection: string) => {
    requests[collection] = (requests[collection] ?? 0) + 1;
  };
  const top = await findTop(client, options.groupUid, count);
  // After findTop: a token the service refuses has been reported in words by then.
  const callerUid = await client.tokenSubject();
  /** Every item of one collection, through the SDK's one walk across pages (`all`). */
  const everything = async <T>(
    collection: ReadProgress["collection"],
    list: () => PagePromise<T, ListParams>,
  ): Promise<T[]> => {
    try {
      return await list().all({
        onPage: (page, read) => {
          count(collection);
          options.onProgress?.({ collection, read, total: page.totalCount });
        },
      });
    } catch (error) {
      throw new ExportError(
        `listing ${collection} below group ${top.uid} failed: ${apiSaid(error)}`,
      );
    }
  };
  const below = { descendantsOf: top.uid };
  const [lists, own] = await Promise.all([
    Promise.all(
      KINDS.map((kind) =>
        everything<unknown>(kind.collection, () => LISTINGS[kind.type](client, below)),
      ),
    ),
    ownAssociation(client, top.uid, count),
  ]);
  const read = Object.fromEntries(KINDS.map((kind, i) => [kind.live, lists[i]])) as Pick<
    LiveOrganisation,
    Kind["live"]
  >;
  const repos = await withReadmes(client, read.repos as Repo[], count);
  return {
    top,
    topIsRoot: !top.uid.includes("/"),
    ...read,
    repos,
    accountAssociations: own ? [own, ...read.accountAssociations] : read.accountAssociations,
    requests,
    ...(callerUid === undefined ? {} : { callerUid }),
  };
}

/**
 * Each repo with its README: one GET of `<uid>/readme` per repo (the listing answers
 * none), at most `README_CONCURRENCY` in flight, counted as `readme`. Every repo read
 * is below the chosen group, so every one is declared.
 */
async function withReadmes(
  client: IrmClient,
  repos: Repo[],
  count: (collection: string) => void,
): Promise<LiveRepo[]> {
  const out: LiveRepo[] = new Array(repos.length);
  let next = 0;
  const worker = async () => {
    while (next < repos.length) {
      const at = next++;
      const repo = repos[at];
      try {
        count("readme");
        out[at] = { ...repo, readme: (await client.registry.repos.getReadme(repo.uid)).content };
      } catch (error) {
        next = repos.length; // the other workers stop after their current GET
        throw new ExportError(
          `reading the README of repo ${quoted(repo.name)} (${repo.uid}) failed: ${apiSaid(error)}`,
        );
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(README_CONCURRENCY, repos.length) }, () => worker()),
  );
  return out;
}

/**
 * The chosen group's own account association: its uid is the group's, which the
 * `descendants_of` listing leaves out. NOT_FOUND means it has none.
 */
async function ownAssociation(
  client: IrmClient,
  groupUid: string,
  count: (collection: string) => void,
): Promise<AccountAssociation | undefined> {
  try {
    count("accountAssociation");
    return await client.iam.accountAssociations.get(groupUid);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw new ExportError(
      `reading the account association of group ${groupUid} failed: ${apiSaid(error)}`,
    );
  }
}

/** The chosen group: read by uid, or the topmost group the token sees. */
async function findTop(
  client: IrmClient,
  groupUid: string | undefined,
  count: (collection: string) => void,
): Promise<Group> {
  if (groupUid !== undefined) {
    if (!GROUP_UID_PATTERN.test(groupUid)) {
      throw new ExportError(`--group: must be ${GROUP_UID_SHAPE}, got ${quoted(groupUid)}`, 2);
    }
    try {
      count("group");
      return await client.iam.groups.get(groupUid);
    } catch (error) {
      if (isNotFound(error)) {
        throw new ExportError(`--group: group ${groupUid} does not exist (${apiSaid(error)})`, 2);
      }
      if (isPermissionDenied(error)) {
        throw new ExportError(
          `--group: this token has no access to group ${groupUid} (${apiSaid(error)})`,
        );
      }
      throw new ExportError(`reading group ${groupUid} failed: ${apiSaid(error)}`);
    }
  }
  // Uids sort a parent before its descendants, so the first visible group in uid order
  // is a topmost one; the last tells whether everything visible lies below it.
  try {
    count("group");
    const first = (await client.iam.groups.list({ pageSize: 1 })).items[0];
    if (first === undefined) {
      throw new ExportError("this token sees no group at all: pass --group or check the token");
    }
    count("group");
    const last = (await client.iam.groups.list({ pageSize: 1, orderBy: "uid desc" })).items[0];
    if (last !== undefined && last.uid !== first.uid && !last.uid.startsWith(`${first.uid}/`)) {
      throw new ExportError(
        `this token sees more than one organisation (${first.uid}, ${last.uid.split("/")[0]}, ...): choose one with --group <uid>`,
        2,
      );
    }
    return first;
  } catch (error) {
    if (error instanceof ExportError) throw error;
    throw new ExportError(
      `finding the organisation visible to this token failed: ${apiSaid(error)}`,
    );
  }
}
