/**
 * The token side of the API: the API token keys (`/.well-known/jwks.json`), the token
 * exchange (`/sts/exchange`) and the OIDC test issuer (`/oidc/...`).
 */
import { ApiError, invalidArgument, notFound, unauthenticated } from "../errors";
import {
  acceptIssuer,
  exchangeable,
  mismatchOf,
  withoutTrailingSlashes,
} from "../identity-kinds/exchange-match";
import {
  type ApiRequest,
  type ApiResponse,
  bodyObject,
  type JsonObject,
  ok,
  optionalNumber,
  optionalString,
} from "../requests";
import { requireExtraClaims } from "../tokens";
import * as kit from "./kit";

/** Lifetime of an exchanged API token (specification, "Limits"). */
export const EXCHANGED_TOKEN_TTL_SECONDS = 3600;

/** The test issuer's tokens live at most a year, as the control's API tokens are bounded too. */
const MAX_OIDC_TOKEN_TTL_SECONDS = 365 * 24 * 3600;

/** Answers a token request, or undefined when the path is none of the token routes. */
export async function handleTokenRoute(
  ctx: kit.EmulatorContext,
  request: ApiRequest,
): Promise<ApiResponse | undefined> {
  const { path, method } = request;
  if (path === "/.well-known/jwks.json" && method === "GET") return ok(ctx.tokens.apiJwks());
  if (path.startsWith("/oidc/")) return oidc(ctx, request);
  if (path === "/sts/exchange") {
    if (method !== "GET" && method !== "POST") throw kit.unsupported(request);
    return exchange(ctx, request);
  }
  return undefined;
}

/**
 * The fields of `ExchangeRequest`, as the platform's gateway reads them: from a form
 * body (POST `application/x-www-form-urlencoded`) and from the query, form values
 * first. A JSON body is not read (the gateway has no body mapping for it).
 */
function exchangeFields(request: ApiRequest): URLSearchParams {
  if (request.method === "POST" && request.body !== undefined) {
    throw invalidArgument(
      "body",
      "the exchange takes an application/x-www-form-urlencoded body (or the query)",
    );
  }
  const fields = new URLSearchParams(request.form);
  for (const [key, value] of request.query) fields.append(key, value);
  return fields;
}

async function exchange(ctx: kit.EmulatorContext, request: ApiRequest): Promise<ApiResponse> {
  const presentedToken = kit.bearerTokenOf(request.authorization);
  if (!presentedToken)
    throw unauthenticated("an OIDC token is required as 'Authorization: Bearer <token>'");
  const fields = exchangeFields(request);
  // `aud` is repeated: at least one, each the API audience (the token is minted for it).
  // `scopes`, `scope`, `cap` and `identity_provider` are accepted and not applied: the
  // token grants what the identity's bindings grant.
  const audiences = fields.getAll("aud").filter((value) => value !== "");
  if (audiences.length === 0) throw invalidArgument("aud", "is required");
  for (const audience of audiences) {
    if (withoutTrailingSlashes(audience) !== ctx.origin) {
      throw invalidArgument("aud", `must be the API audience ${ctx.origin}`);
    }
  }
  const identityUid = fields.get("identity");
  if (!identityUid) throw invalidArgument("identity", "is required");
  kit.requirePathUid(identityUid, "identity");
  // Addendum 6.10: the identity first, so that nothing the presented token names is
  // fetched, and its signature is checked only against keys of the identity's issuer.
  const identity = ctx.state.identities.get(identityUid);
  if (!identity) throw notFound(identityUid);
  const mismatch = (check: string): ApiError =>
    new ApiError(
      "PERMISSION_DENIED",
      `Permission denied: the OIDC token does not match identity ${identityUid} (${check})`,
    );
  // Only platform services assume a service principal; never through this endpoint.
  if (!exchangeable(identity)) throw mismatch("service principal");
  // Step 2: the token's `iss`, read untrusted, must be an issuer this identity accepts
  // before anything is fetched or verified for it.
  const accepted = acceptIssuer(
    identity,
    ctx.tokens.claimedIssuer(presentedToken),
    ctx.tokens.issuer,
  );
  if (!accepted) throw mismatch("issuer");
  const now = ctx.clock.now();
  const presented = await ctx.tokens.verifyOidcToken(
    presentedToken,
    accepted.issuer,
    now,
    accepted.issuerKeys,
  );
  // Step 3: the claims against the identity's kind; the check named, never a value.
  const failed = mismatchOf(identity, presented.claims as JsonObject, {
    origin: ctx.origin,
    nowMs: now.getTime(),
  });
  if (failed !== undefined) throw mismatch(failed);
  kit.markSeen(ctx, identity);
  const issued = ctx.clock.now();
  const token = await ctx.tokens.mintApiToken(identityUid, EXCHANGED_TOKEN_TTL_SECONDS, issued);
  // `RawToken`: the token and its expiry (no refresh token is issued).
  const expiry = new Date(
    (Math.floor(issued.getTime() / 1000) + EXCHANGED_TOKEN_TTL_SECONDS) * 1000,
  );
  return ok({ token, expiry: expiry.toISOString() });
}

async function oidc(
  ctx: kit.EmulatorContext,
  request: ApiRequest,
): Promise<ApiResponse | undefined> {
  const { tokens } = ctx;
  switch (`${request.method} ${request.path}`) {
    case "GET /oidc/.well-known/openid-configuration":
      return ok({
        issuer: tokens.issuer,
        jwks_uri: `${tokens.issuer}/jwks.json`,
        token_endpoint: `${tokens.issuer}/token`,
        response_types_supported: ["id_token"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["ES256"],
      });
    case "GET /oidc/jwks.json":
      return ok(tokens.oidcJwks());
    case "POST /oidc/token": {
      const body = bodyObject(request);
      const subject = optionalString(body, "subject");
      if (!subject) throw invalidArgument("subject", "is required");
      const ttlSeconds = optionalNumber(body, "ttlSeconds");
      if (
        ttlSeconds !== undefined &&
        (ttlSeconds <= 0 || ttlSeconds > MAX_OIDC_TOKEN_TTL_SECONDS)
      ) {
        throw invalidArgument(
          "ttlSeconds",
          `must be above 0 and at most ${MAX_OIDC_TOKEN_TTL_SECONDS}`,
        );
      }
      const claims = requireExtraClaims(body.claims);
      const token = await tokens.mintOidcToken(
        subject,
        {
          audience: optionalString(body, "audience"),
          ttlSeconds,
          issuer: optionalString(body, "issuer"),
          claims,
        },
        ctx.clock.now(),
      );
      return ok({ token });
    }
    default:
      return undefined;
  }
}
