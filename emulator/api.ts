/**
 * The API's router: IAM v2beta1, Registry, Vulnerabilities and Events v2beta1, ping, the v1 paths,
 * the token exchange and the OIDC test issuer. Each collection lives in its own module
 * under `collections/`; handlers take a parsed request and answer a response object
 * (or throw an ApiError); the server does the HTTP.
 */

import type { Access } from "./access";
import { accountAssociations } from "./collections/account-associations";
import { advisories } from "./collections/advisories";
import { groupInvites } from "./collections/group-invites";
import { groups } from "./collections/groups";
import { identities } from "./collections/identities";
import { identityProviders } from "./collections/identity-providers";
import {
  type CollectionHandler,
  callerOf,
  type EmulatorContext,
  unsupported,
} from "./collections/kit";
import { repos } from "./collections/repos";
import { roleBindings } from "./collections/role-bindings";
import { roles } from "./collections/roles";
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
  subscriptions,
  advisories,
};

/** The v1 list of each collection `kinds.ts` gives a v1 path. */
const V1_HANDLERS: Readonly<Record<V1CollectionName, CollectionHandler>> = {
  groups: v1Groups,
  identities: v1Identities,
  roleBindings: v1RoleBindings,
  repos: v1Repos,
  roles: v1Roles,
  identityProviders: v1IdentityProviders,
  groupInvites: v1GroupInvites,
  accountAssociations: v1AccountAssociations,
  subscriptions: v1Subscriptions,
};

/** `<domain>/<version>/<collection>` → its handler. */
const ROUTES = new Map<string, CollectionHandler>(
  KINDS.flatMap((entry) => {
    const routes: Array<[string, CollectionHandler]> = [
      [`${entry.domain}/v2beta1/${entry.name}`, HANDLERS[entry.name]],
    ];
    if ("v1" in entry) {
      routes.push([`${entry.domain}/v1/${entry.v1}`, V1_HANDLERS[entry.name]]);
    }
    return routes;
  }),
);

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
    // Colon actions (`identityProviders/<uid>:generateScimToken`, `roleBindings:batchCreate`,
    // ...) are left out of this API: UNIMPLEMENTED, whatever the method (addendum, 1).
    if (request.path.startsWith("/iam/v2beta1/")) {
      const last = request.path.slice(request.path.lastIndexOf("/") + 1);
      if (last.includes(":")) throw unsupported(request);
    }
    const match =
      /^\/(iam|registry|vulnerabilities|events)\/(v1|v2beta1)\/([A-Za-z_]+)(?:\/(.*))?$/.exec(
        request.path,
      );
    if (!match) return undefined;
    const [, domain, version, collection, rest] = match;
    const route = ROUTES.get(`${domain}/${version}/${collection}`);
    if (!route) return undefined;
    return route(this.ctx, request, rest === undefined || rest === "" ? undefined : rest);
  }

  /** Who is calling (see `callerOf`). */
  caller(request: ApiRequest, required: boolean): Promise<Access> {
    return callerOf(this.ctx, request, required);
  }
}
