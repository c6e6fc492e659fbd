/**
 * The API's router: IAM v2beta1, Registry and Vulnerabilities v2beta1, ping, the v1 paths,
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
import { tags } from "./collections/tags";
import { v1Groups, v1Identities, v1Repos } from "./collections/v1";
import { type ApiRequest, type ApiResponse, ok } from "./requests";

export type { EmulatorContext } from "./collections/kit";
export { EXCHANGED_TOKEN_TTL_SECONDS } from "./collections/sts";

/** `<domain>/<version>/<collection>` → its handler. */
const ROUTES: Record<string, CollectionHandler> = {
  "iam/v2beta1/groups": groups,
  "iam/v2beta1/identities": identities,
  "iam/v2beta1/roles": roles,
  "iam/v2beta1/roleBindings": roleBindings,
  "iam/v2beta1/identityProviders": identityProviders,
  "iam/v2beta1/groupInvites": groupInvites,
  "iam/v2beta1/accountAssociations": accountAssociations,
  "registry/v2beta1/repos": repos,
  "registry/v2beta1/tags": tags,
  "vulnerabilities/v2beta1/advisories": advisories,
  "iam/v1/groups": v1Groups,
  "iam/v1/identities": v1Identities,
  "registry/v1/repos": v1Repos,
};

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
    const match = /^\/(iam|registry|vulnerabilities)\/(v1|v2beta1)\/([A-Za-z]+)(?:\/(.*))?$/.exec(
      request.path,
    );
    if (!match) return undefined;
    const [, domain, version, collection, rest] = match;
    const route = ROUTES[`${domain}/${version}/${collection}`];
    if (!route) return undefined;
    return route(this.ctx, request, rest === undefined || rest === "" ? undefined : rest);
  }

  /** Who is calling (see `callerOf`). */
  caller(request: ApiRequest, required: boolean): Promise<Access> {
    return callerOf(this.ctx, request, required);
  }
}
