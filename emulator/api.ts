/**
 * The API's router: IAM v2beta1, Registry, Vulnerabilities and Events v2beta1, ping, the v1 paths,
 * the token exchange and the OIDC test issuer. Each collection lives in its own module
 * under `collections/`; handlers take a parsed request and answer a response object
 * (or throw an ApiError); the server does the HTTP.
 */

import type { Access } from "./access";
import { accountAssociations } from "./collections/account-associations";
import { advisories } from "./collections/advisories";
import { artifacts } from "./collections/artifacts";
import {
  batchDeleteMappings,
  externalGroupRoleMappings,
} from "./collections/external-group-role-mappings";
import { groupInvites } from "./collections/group-invites";
import { groups } from "./collections/groups";
import { identities } from "./collections/identities";
import { identityProviders } from "./collections/identity-providers";
import { handleImageRoute } from "./collections/images";
import {
  type CollectionHandler,
  callerOf,
  type EmulatorContext,
  unsupported,
} from "./collections/kit";
import {
  checkAccountAssociation,
  checkEligibility,
  lookupGroup,
  lookupIdentity,
  requestGroupAccess,
  terms,
  updateIdentityMetadata,
} from "./collections/lookups";
import { overlayBindings, overlays } from "./collections/overlays";
import { repos } from "./collections/repos";
import {
  refreshCoverage,
  removeRequestGroupItems,
  requestedLibraries,
  requestedLibraryVersions,
  requestGroups,
  restoreRequestGroupItems,
  submitRequestGroup,
} from "./collections/request-groups";
import { batchCreateRoleBindings, roleBindings } from "./collections/role-bindings";
import { roles } from "./collections/roles";
import {
  generateScimToken,
  regenerateScimToken,
  revokeScimToken,
  setScimEnabled,
} from "./collections/scim";
import { documents, resolvedVulns, vulnerabilityMetadata } from "./collections/security-advisories";
import { handleTokenRoute } from "./collections/sts";
import { subscriptions, v1Subscriptions } from "./collections/subscriptions";
import { tags } from "./collections/tags";
import {
  v1AccountAssociations,
  v1GroupInvites,
  v1Groups,
  v1Identities,
  v1IdentityProviders,
  v1RoleBindings,
  v1Roles,
} from "./collections/v1";
import { v1Repos } from "./collections/v1-repos";
import { v1Tags } from "./collections/v1-tags";
import { type CollectionName, KINDS, type V1CollectionName } from "./kinds";
import { type ApiRequest, type ApiResponse, ok } from "./requests";

export type { EmulatorContext } from "./collections/kit";
export { EXCHANGED_TOKEN_TTL_SECONDS } from "./collections/sts";

/** Each collection's v2beta1 handler: the compiler refuses a kind of `kinds.ts` left out. */
const HANDLERS: Readonly<Record<CollectionName, CollectionHandler>> = {
  groups,
  identities,
  roleBindings,
  repos,
  tags,
  roles,
  identityProviders,
  groupInvites,
  accountAssociations,
  externalGroupRoleMappings,
  overlays,
  overlayBindings,
  subscriptions,
  advisories,
  documents,
  vulnerabilityMetadata,
  // One route, `/libraries/v2beta1/artifacts[/<uid>/versions|/count]`, for both stores.
  artifacts,
  artifactVersions: artifacts,
  // One route, `/libraries/v2beta1/requestGroups[/<uid>[/items]]`, for both stores.
  requestGroups,
  requestGroupItems: requestGroups,
};

/** The v1 list of each collection `kinds.ts` gives a v1 path. */
const V1_HANDLERS: Readonly<Record<V1CollectionName, CollectionHandler>> = {
  groups: v1Groups,
  identities: v1Identities,
  roleBindings: v1RoleBindings,
  repos: v1Repos,
  tags: v1Tags,
  roles: v1Roles,
  identityProviders: v1IdentityProviders,
  groupInvites: v1GroupInvites,
  accountAssociations: v1AccountAssociations,
  subscriptions: v1Subscriptions,
};

/** `<domain>/<version>/<collection>` → its handler; `terms` is no kind of its own (kept on groups). */
const ROUTES = new Map<string, CollectionHandler>([
  ["iam/v2beta1/terms", terms],
  // `ListResolvedVulnsReports`: `/advisory/v2beta1/images/resolvedVulns`, no kind of its own
  // (the reports are seeded on the tags).
  ["advisory/v2beta1/images", resolvedVulns],
  // The requested libraries are computed from the request groups: no kind of their own.
  ["libraries/v2beta1/requestedLibraries", requestedLibraries],
  ...KINDS.flatMap((entry) => {
    const routes: Array<[string, CollectionHandler]> = [
      [
        `${entry.domain}/v2beta1/${"segment" in entry ? entry.segment : entry.name}`,
        HANDLERS[entry.name],
      ],
    ];
    if ("v1" in entry) {
      routes.push([`${entry.domain}/v1/${entry.v1}`, V1_HANDLERS[entry.name]]);
    }
    return routes;
  }),
]);

/**
 * The colon actions (custom methods), `<domain>/<version>/<collection>:<action>`, each
 * reached as `<collection>:<action>` or `<collection>/<uid>:<action>` as its rule says
 * (the handler gets the uid, or undefined, and refuses the form it does not take).
 * Any other action answers UNIMPLEMENTED.
 */
const ACTIONS = new Map<string, CollectionHandler>([
  ["iam/v2beta1/externalGroupRoleMappings:batchDelete", batchDeleteMappings],
  ["iam/v2beta1/roleBindings:batchCreate", batchCreateRoleBindings],
  ["iam/v2beta1/identities:lookupIdentity", lookupIdentity],
  ["iam/v2beta1/identities:updateIdentityMetadata", updateIdentityMetadata],
  ["iam/v2beta1/accountAssociations:checkAccountAssociation", checkAccountAssociation],
  ["iam/v2beta1/groups:lookupGroup", lookupGroup],
  ["iam/v2beta1/groups:checkEligibility", checkEligibility],
  ["iam/v2beta1/groups:requestGroupAccess", requestGroupAccess],
  ["iam/v2beta1/identityProviders:generateScimToken", generateScimToken],
  ["iam/v2beta1/identityProviders:regenerateScimToken", regenerateScimToken],
  ["iam/v2beta1/identityProviders:revokeScimToken", revokeScimToken],
  ["iam/v2beta1/identityProviders:setScimEnabled", setScimEnabled],
  ["libraries/v2beta1/requestGroups:submit", submitRequestGroup],
  ["libraries/v2beta1/requestGroups:removeItems", removeRequestGroupItems],
  ["libraries/v2beta1/requestGroups:restoreItems", restoreRequestGroupItems],
  ["libraries/v2beta1/requestGroups:refreshCoverage", refreshCoverage],
  ["libraries/v2beta1/requestedLibraries:versions", requestedLibraryVersions],
]);

/** Every `<domain>/<version>/<collection>` the router answers. */
export function routedCollections(): string[] {
  return [...ROUTES.keys()];
}

export class Api {
  constructor(private readonly ctx: EmulatorContext) {}

  /** Answers a request, or undefined when no route of the API matches its path. */
  async handle(request: ApiRequest): Promise<ApiResponse | undefined> {
    // Health check: no token needed (the platform's PingService says so).
    if (request.path === "/ping/v2beta1/ping") {
      if (request.method !== "GET") throw unsupported(request);
      return ok({ response: "pong" });
    }
    const tokenAnswer = await handleTokenRoute(this.ctx, request);
    if (tokenAnswer) return tokenAnswer;
    // A colon in the last segment is an action (`roleBindings:batchCreate`,
    // `identityProviders/<uid>:generateScimToken`): its own route, or UNIMPLEMENTED.
    const lastSegment = request.path.slice(request.path.lastIndexOf("/") + 1);
    const colon = lastSegment.includes(":") ? request.path.lastIndexOf(":") : -1;
    const path = colon < 0 ? request.path : request.path.slice(0, colon);
    // The images of a repo (`ImagesService`): sub-resources of the repo's path.
    const imageAnswer = await handleImageRoute(this.ctx, request);
    if (imageAnswer) return imageAnswer;
    const match =
      /^\/(iam|registry|vulnerabilities|events|advisory|libraries)\/(v1|v2beta1)\/([A-Za-z_]+)(?:\/(.*))?$/.exec(
        path,
      );
    if (!match) {
      if (colon >= 0 && request.path.startsWith("/iam/v2beta1/")) throw unsupported(request);
      return undefined;
    }
    const [, domain, version, collection, rest] = match;
    const uid = rest === undefined || rest === "" ? undefined : rest;
    if (colon >= 0) {
      const action = ACTIONS.get(`${domain}/${version}/${collection}${request.path.slice(colon)}`);
      if (!action) {
        if (request.path.startsWith("/iam/v2beta1/")) throw unsupported(request);
        return undefined;
      }
      return action(this.ctx, request, uid);
    }
    const route = ROUTES.get(`${domain}/${version}/${collection}`);
    if (!route) return undefined;
    return route(this.ctx, request, uid);
  }

  /** Who is calling (see `callerOf`). */
  caller(request: ApiRequest, required: boolean): Promise<Access> {
    return callerOf(this.ctx, request, required);
  }
}
