/**
 * The v1 calls the platform's tools make: the listings the authentication flows use
 * (`/iam/v1/groups`, `/registry/v1/repos`), and the v1 registry's repository and tag
 * writes (`/registry/v1/repos`, `/registry/v1/tags`) the platform's command-line and
 * Terraform tooling send.
 */

import { badShape, unknownOutcome } from "../core/collection";
import type { RequestOptions } from "../core/common-types";
import { resourcePath } from "../core/path";
import { type ApiRequester, ApiResource } from "../core/resource";
import { isRecord, ShapeError, ShapeReader } from "../core/shape";
import { parentOf } from "../uids";
import { checkEnum } from "./decode";
import { MAX_README_CHARS } from "./registry";

/** A group as the v1 listing returns it (`id` instead of `uid`, no timestamps). */
export interface V1Group {
  id: string;
  name: string;
  description: string;
  resourceLimits: { clusters?: number; idps?: number; repositories?: number };
  verified: boolean;
}

/** A repo as the v1 listing returns it; its shape is not specified, fields pass through. */
export interface V1Repo {
  id?: string;
  name?: string;
  [field: string]: unknown;
}

/** The v1 list envelope. */
export interface V1List<T> {
  items: T[];
}

/** A v1 listing: one unpaginated `{ items: [...] }` answer. */
class V1Listing<T> extends ApiResource {
  readonly #path: string;

  constructor(client: ApiRequester, path: string) {
    super(client);
    this.#path = path;
  }

  async list(options?: RequestOptions): Promise<V1List<T>> {
    const path = this.#path;
    const body = await this.client.call({ method: "GET", path, options });
    try {
      const items = ShapeReader.of(body, "list").array("items");
      for (const [i, item] of items.entries()) ShapeReader.of(item, `list.items[${i}]`);
      return { items: items as T[] };
    } catch (error) {
      throw badShape(error, { method: "GET", path });
    }
  }
}

/** `GET /iam/v1/groups`: groups visible to the caller, v1 shape (`id`, no timestamps). */
export class V1Groups extends V1Listing<V1Group> {
  constructor(client: ApiRequester) {
    super(client, "/iam/v1/groups");
  }
}

/** The v1 registry's `CatalogTier` names (`UNKNOWN` for none). */
export const V1_CATALOG_TIERS = [
  "UNKNOWN",
  "APPLICATION",
  "BASE",
  "FIPS",
  "AI",
  "DEVTOOLS",
  "COMMERCIAL",
] as const;
export type V1CatalogTier = (typeof V1_CATALOG_TIERS)[number];

/** A repo as a v1 write answers it: the fields the types promise are checked. */
export interface V1RepoWritten extends V1Repo {
  id: string;
  name: string;
  description: string;
  catalogTier: V1CatalogTier;
  aliases: string[];
  readme: string;
}

/** The fields of a v1 repo a write sends; the rest of the v1 `Repo` is not kept. */
export interface V1RepoFields {
  name: string;
  description?: string;
  catalogTier?: V1CatalogTier;
  aliases?: string[];
  /** The README's Markdown, in the same request (v2beta1 writes it apart). */
  readme?: string;
}

/** A tag as the v1 registry answers it. */
export interface V1Tag {
  id: string;
  name: string;
  digest: string;
  /** When the tag last moved (RFC 3339). */
  lastUpdated?: string;
  deprecated: boolean;
  bundles: string[];
}

/** The fields of a v1 tag a write sends. */
export interface V1TagFields {
  name: string;
  digest: string;
  deprecated?: boolean;
}

/** The filters of the v1 tag listing (all optional, combined). */
export interface V1TagFilter {
  id?: string;
  name?: string;
  digest?: string;
  /** RFC 3339: tags moved at or after it. */
  updatedSince?: string;
  childrenOf?: string;
  descendantsOf?: string;
}

/** A repo answer of a v1 write, or a `BadResponseError` naming the field. */
export function decodeV1Repo(raw: unknown, at = "repo"): V1RepoWritten {
  const r = ShapeReader.of(raw, at);
  const out = {
    ...r.raw,
    id: r.string("id"),
    name: r.string("name"),
    description: r.optionalString("description", ""),
    catalogTier: checkEnum(
      r.optionalString("catalogTier", "UNKNOWN"),
      `${at}.catalogTier`,
      V1_CATALOG_TIERS,
    ),
    aliases: r.stringArray("aliases"),
    readme: r.optionalString("readme", ""),
  };
  if (out.readme.length > MAX_README_CHARS) {
    throw new ShapeError(`${at}.readme`, `longer than ${MAX_README_CHARS} characters`);
  }
  r.optionalTimestamp("createTime");
  return out;
}

/** A v1 tag answer, or a `BadResponseError` naming the field. */
export function decodeV1Tag(raw: unknown, at = "tag"): V1Tag {
  const r = ShapeReader.of(raw, at);
  const lastUpdated = r.optionalTimestamp("lastUpdated");
  return {
    id: r.string("id"),
    name: r.string("name"),
    digest: r.optionalString("digest", ""),
    ...(lastUpdated !== undefined ? { lastUpdated } : {}),
    deprecated: r.optionalBoolean("deprecated", false),
    bundles: r.stringArray("bundles"),
  };
}

const CREATE_ADVICE =
  "the create may or may not have taken effect. Not retried: look the resource up before trying again.";

/**
 * The answer of a v1 write decoded, and `wrongId` asked whether it is the object written;
 * a bad answer to a create is an `OutcomeUnknownError`, to another write a
 * `BadResponseError`, each naming the field.
 */
function writeAnswer<T extends { id: string }>(
  body: unknown,
  request: { method: string; path: string },
  noun: "repo" | "tag",
  decode: (raw: unknown, at: string) => T,
  wrongId: (made: T) => string | undefined,
): T {
  try {
    const made = decode(body, noun);
    const problem = wrongId(made);
    if (problem) throw new ShapeError(`${noun}.id`, `${made.id} ${problem}`);
    return made;
  } catch (error) {
    throw request.method === "POST"
      ? unknownOutcome(error, request, CREATE_ADVICE)
      : badShape(error, request);
  }
}

/** The answer of a v1 create at `path`: the object made, which must be a child of `parentId`. */
function createdAnswer<T extends { id: string }>(
  answer: unknown,
  path: string,
  parentId: string,
  noun: "repo" | "tag",
  decode: (raw: unknown, at: string) => T,
): T {
  return writeAnswer(answer, { method: "POST", path }, noun, decode, (made) =>
    parentOf(made.id) === parentId ? undefined : `is not a ${noun} of ${parentId}`,
  );
}

/** A v1 update: PUT the whole object at `path`, answered by the object, which must be `id`. */
async function putWhole<T extends { id: string }>(
  client: ApiRequester,
  path: string,
  id: string,
  body: Record<string, unknown>,
  noun: "repo" | "tag",
  decode: (raw: unknown, at: string) => T,
  options: RequestOptions | undefined,
): Promise<T> {
  const answer = await client.call({ method: "PUT", path, body, options });
  return writeAnswer(answer, { method: "PUT", path }, noun, decode, (made) =>
    made.id === id ? undefined : `is not the ${noun} updated (${id})`,
  );
}

/** A v1 delete of the object `id` under `base`. */
async function deleteOne(
  client: ApiRequester,
  base: string,
  id: string,
  options: RequestOptions | undefined,
): Promise<void> {
  await client.call({ method: "DELETE", path: resourcePath(base, id, "id"), options });
}

/** Checks what a write sends, naming the field and the rule, before any request. */
function repoBody(fields: V1RepoFields, id?: string): Record<string, unknown> {
  if (!isRecord(fields)) throw new TypeError("repo must be an object");
  if (typeof fields.name !== "string" || fields.name === "") {
    throw new TypeError("repo.name must be a non-empty string");
  }
  if (fields.description !== undefined && typeof fields.description !== "string") {
    throw new TypeError("repo.description must be a string");
  }
  if (
    fields.catalogTier !== undefined &&
    !(V1_CATALOG_TIERS as readonly string[]).includes(fields.catalogTier)
  ) {
    throw new TypeError(`repo.catalogTier must be one of ${V1_CATALOG_TIERS.join(", ")}`);
  }
  if (
    fields.aliases !== undefined &&
    (!Array.isArray(fields.aliases) || fields.aliases.some((a) => typeof a !== "string"))
  ) {
    throw new TypeError("repo.aliases must be an array of strings");
  }
  if (fields.readme !== undefined) {
    if (typeof fields.readme !== "string") throw new TypeError("repo.readme must be a string");
    if (fields.readme.length > MAX_README_CHARS) {
      throw new TypeError(`repo.readme must be at most ${MAX_README_CHARS} characters`);
    }
  }
  return {
    ...(id !== undefined ? { id } : {}),
    name: fields.name,
    description: fields.description,
    catalogTier: fields.catalogTier,
    aliases: fields.aliases,
    readme: fields.readme,
  };
}

function tagBody(fields: V1TagFields, id?: string): Record<string, unknown> {
  if (!isRecord(fields)) throw new TypeError("tag must be an object");
  if (typeof fields.name !== "string" || fields.name === "") {
    throw new TypeError("tag.name must be a non-empty string");
  }
  if (typeof fields.digest !== "string" || fields.digest === "") {
    throw new TypeError("tag.digest must be a non-empty string");
  }
  if (fields.deprecated !== undefined && typeof fields.deprecated !== "boolean") {
    throw new TypeError("tag.deprecated must be a boolean");
  }
  return {
    ...(id !== undefined ? { id } : {}),
    name: fields.name,
    digest: fields.digest,
    deprecated: fields.deprecated,
  };
}

/**
 * `/registry/v1/repos`: the repo listing (v1 shape, fields pass through), and the v1
 * writes the platform's tools make: `create` (a name the group has updates that repo,
 * unless `preventExisting`), `update` (the whole repo: a field left out is cleared) and
 * `delete`. The README travels in the same request.
 */
export class V1Repos extends V1Listing<V1Repo> {
  static readonly PATH = "/registry/v1/repos";

  constructor(client: ApiRequester) {
    super(client, V1Repos.PATH);
  }

  /** CreateRepo under group `parentId`. */
  async create(
    parentId: string,
    repo: V1RepoFields,
    options?: RequestOptions & { preventExisting?: boolean },
  ): Promise<V1RepoWritten> {
    const path = resourcePath(V1Repos.PATH, parentId, "parentId");
    const body = repoBody(repo);
    const answer = await this.client.call({
      method: "POST",
      path,
      query: options?.preventExisting ? { prevent_existing: "true" } : undefined,
      body,
      options,
    });
    return createdAnswer(answer, path, parentId, "repo", decodeV1Repo);
  }

  /** UpdateRepo: the whole repo `id` (fields left out are cleared). */
  async update(id: string, repo: V1RepoFields, options?: RequestOptions): Promise<V1RepoWritten> {
    const path = resourcePath(V1Repos.PATH, id, "id");
    return putWhole(this.client, path, id, repoBody(repo, id), "repo", decodeV1Repo, options);
  }

  /** DeleteRepo (with its tags). */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await deleteOne(this.client, V1Repos.PATH, id, options);
  }
}

/**
 * `/registry/v1/tags`: the v1 tag calls the platform's tools make: `list` (one
 * unpaginated answer), `create` (a name the repo has moves that tag), `update` (the
 * whole tag) and `delete`.
 */
export class V1Tags extends ApiResource {
  static readonly PATH = "/registry/v1/tags";

  async list(filter: V1TagFilter = {}, options?: RequestOptions): Promise<V1List<V1Tag>> {
    const path = V1Tags.PATH;
    const body = await this.client.call({
      method: "GET",
      path,
      query: {
        id: filter.id,
        name: filter.name,
        digest: filter.digest,
        updated_since: filter.updatedSince,
        "uidp.children_of": filter.childrenOf,
        "uidp.descendants_of": filter.descendantsOf,
      },
      options,
    });
    try {
      const items = ShapeReader.of(body, "list").array("items");
      return { items: items.map((item, i) => decodeV1Tag(item, `list.items[${i}]`)) };
    } catch (error) {
      throw badShape(error, { method: "GET", path });
    }
  }

  /** CreateTag in repo `repoId`. */
  async create(repoId: string, tag: V1TagFields, options?: RequestOptions): Promise<V1Tag> {
    const path = resourcePath(V1Tags.PATH, repoId, "repoId");
    const answer = await this.client.call({ method: "POST", path, body: tagBody(tag), options });
    return createdAnswer(answer, path, repoId, "tag", decodeV1Tag);
  }

  /** UpdateTag: the whole tag `id`. */
  async update(id: string, tag: V1TagFields, options?: RequestOptions): Promise<V1Tag> {
    const path = resourcePath(V1Tags.PATH, id, "id");
    return putWhole(this.client, path, id, tagBody(tag, id), "tag", decodeV1Tag, options);
  }

  /** DeleteTag. */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await deleteOne(this.client, V1Tags.PATH, id, options);
  }
}
