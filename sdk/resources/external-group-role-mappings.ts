/**
 * `/iam/v2beta1/externalGroupRoleMappings`: a group of an identity provider's users (by
 * the provider's own group id) granted a role at a scope when they sign in through it.
 * A mapping never changes (delete and create anew); `batchDelete` removes several of one
 * identity provider in one call.
 */
import { badShape, CreatableCollection, type FilterMismatch } from "../core/collection";
import type { PageParams, RequestOptions, Timestamp, UidpFilter } from "../core/common-types";
import { resourcePath } from "../core/path";
import { type ApiRequester, listQuery, type QueryValue } from "../core/resource";
import { ShapeError, ShapeReader } from "../core/shape";
import {
  CHILD_UID_PATTERN,
  GROUP_UID_PATTERN,
  GROUP_UID_SHAPE,
  parentOf,
  ROLE_UID_PATTERN,
  ROLE_UID_SHAPE,
} from "../uids";
import { boundedString, patternString } from "./decode";

/**
 * The most characters of an outside group id: the definitions give no bound; the
 * package's checks, the SDK's reading and the emulator share this one.
 */
export const EXTERNAL_GROUP_ID_MAX_LENGTH = 256;

/** The most names one `batchDelete` sends (the definitions give none; one page's worth). */
export const BATCH_DELETE_MAX_NAMES = 200;

export interface ExternalGroupRoleMapping {
  /** `<identity provider uid>/<16 hex>`. */
  uid: string;
  /** The identity provider the mapping belongs to (the parent of `uid`). */
  identityProviderUid: string;
  /** The provider's own id of the group (a value of its groups claim). */
  externalGroupId: string;
  /** A built-in role (40 hex) or a custom role (`<group uid>/<16 hex>`). */
  roleUid: string;
  /** The group where the role applies: the identity provider's organisation. */
  scope: string;
  createTime: Timestamp;
}

/**
 * The caller must hold `CAP_IAM_IDENTITY_PROVIDERS_CREATE` and
 * `CAP_IAM_ROLE_BINDINGS_CREATE` on the provider, and every capability of the role at
 * the scope.
 */
export interface ExternalGroupRoleMappingCreate {
  externalGroupId: string;
  roleUid: string;
  /** The organisation (root group) of the identity provider. */
  scope: string;
}

/** `ListExternalGroupRoleMappingsRequest`'s filters: the `uidp` filter and the provider (no `name`). */
export interface ExternalGroupRoleMappingListParams extends UidpFilter, PageParams {
  /** `identity_provider_uid`: only the mappings of this identity provider. */
  identityProviderUid?: string;
}

/** The answer of `batchDelete`: the provider and the mappings removed. */
export interface BatchDeleteExternalGroupRoleMappingsResult {
  parent: string;
  externalGroupRoleMappings: ExternalGroupRoleMapping[];
}

export function decodeExternalGroupRoleMapping(
  raw: unknown,
  at = "externalGroupRoleMapping",
): ExternalGroupRoleMapping {
  const r = ShapeReader.of(raw, at);
  const uid = patternString(r, "uid", CHILD_UID_PATTERN, "a mapping uid (<provider uid>/<16 hex>)");
  const identityProviderUid = r.string("identityProviderUid");
  if (identityProviderUid !== parentOf(uid)) {
    throw new ShapeError(`${at}.identityProviderUid`, `is not the parent of ${uid}`);
  }
  return {
    uid,
    identityProviderUid,
    externalGroupId: boundedString(r, "externalGroupId", EXTERNAL_GROUP_ID_MAX_LENGTH),
    roleUid: patternString(r, "roleUid", ROLE_UID_PATTERN, ROLE_UID_SHAPE),
    scope: patternString(r, "scope", GROUP_UID_PATTERN, GROUP_UID_SHAPE),
    createTime: r.timestamp("createTime"),
  };
}

/** `/iam/v2beta1/externalGroupRoleMappings`: list, get, create, delete and `batchDelete`. */
export class ExternalGroupRoleMappings extends CreatableCollection<
  ExternalGroupRoleMapping,
  ExternalGroupRoleMappingCreate,
  ExternalGroupRoleMappingListParams
> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/iam/v2beta1/externalGroupRoleMappings",
      listKey: "externalGroupRoleMappings",
      noun: "externalGroupRoleMapping",
      decode: decodeExternalGroupRoleMapping,
    });
  }

  /**
   * Deletes the named mappings of identity provider `parent` in one call, all or none: a
   * name of another provider refuses the whole call (INVALID_ARGUMENT); a name no longer
   * there is skipped. Answers the mappings removed, each checked to be one asked for.
   */
  async batchDelete(
    parent: string,
    names: readonly string[],
    options?: RequestOptions,
  ): Promise<BatchDeleteExternalGroupRoleMappingsResult> {
    resourcePath(this.spec.path, parent, "parent");
    if (!Array.isArray(names) || names.some((name) => typeof name !== "string")) {
      throw new TypeError("names must be an array of strings");
    }
    if (names.length === 0 || names.length > BATCH_DELETE_MAX_NAMES) {
      throw new TypeError(`names must hold 1 to ${BATCH_DELETE_MAX_NAMES} mapping uids`);
    }
    const path = `${this.spec.path}:batchDelete`;
    const body = await this.client.call({
      method: "POST",
      path,
      body: { parent, names: [...names] },
      options,
    });
    try {
      const r = ShapeReader.of(body, "batchDelete");
      const answeredParent = r.string("parent");
      if (answeredParent !== parent) {
        throw new ShapeError("batchDelete.parent", `${answeredParent} is not the parent sent`);
      }
      const raw = r.raw.externalGroupRoleMappings ?? [];
      if (!Array.isArray(raw) || raw.length > names.length) {
        throw new ShapeError(
          "batchDelete.externalGroupRoleMappings",
          "expected an array of at most the names sent",
        );
      }
      const mappings = raw.map((item: unknown, index: number) =>
        decodeExternalGroupRoleMapping(item, `batchDelete.externalGroupRoleMappings[${index}]`),
      );
      mappings.forEach((mapping, index) => {
        if (!names.includes(mapping.uid)) {
          throw new ShapeError(
            `batchDelete.externalGroupRoleMappings[${index}].uid`,
            `${mapping.uid} is not one of the names sent`,
          );
        }
      });
      return { parent, externalGroupRoleMappings: mappings };
    } catch (error) {
      throw badShape(error, { method: "POST", path });
    }
  }

  protected override listQueryOf(
    params: ExternalGroupRoleMappingListParams,
  ): Record<string, QueryValue> {
    // The request has no `name`: never sent, even from untyped code.
    return {
      ...listQuery(params),
      name: undefined,
      identity_provider_uid: params.identityProviderUid,
    };
  }

  protected override filterMismatch(
    item: ExternalGroupRoleMapping,
    params: ExternalGroupRoleMappingListParams,
  ): FilterMismatch | undefined {
    const provider = params.identityProviderUid;
    if (!provider || item.identityProviderUid === provider) return undefined;
    return {
      field: "identityProviderUid",
      problem: `is not ${provider}, the identity provider filtered on`,
    };
  }
}
