/**
 * Signing keys and JWTs: API tokens the emulator issues (as `{auth_url}`) and
 * OIDC id tokens of its own test issuer (`{origin}/oidc`), and the verification of
 * presented OIDC tokens at the exchange: against the test issuer's keys, the keys an
 * identity registered (`staticKeys.issuerKeys`), or those its issuer publishes. Every
 * check runs on the emulator clock, so `/emulator/clock` can expire tokens.
 */
import { hkdfSync } from "node:crypto";
import {
  type CryptoKey,
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
  SignJWT,
} from "jose";
import { invalidArgument, unauthenticated } from "./errors";

const ALGORITHM = "ES256";

/**
 * Algorithms a presented OIDC token may be signed with: one for each key a `staticKeys`
 * identity may register (`identity-kinds/parse.ts`), so that every key
 * accepted at create can verify a token (ES512 for P-521 keys).
 */
const OIDC_ALGORITHMS = ["ES256", "RS256", "PS256", "EdDSA", "ES384", "ES512"];

/** Claims the test issuer sets itself: a `claims` object may not name them (addendum 6.10). */
export const TEST_ISSUER_RESERVED_CLAIMS: readonly string[] = [
  "iss",
  "sub",
  "aud",
  "exp",
  "iat",
  "nbf",
];

/**
 * The optional `claims` object of `POST {issuer}/token`: extra claims merged into the id
 * token (`aws` for an `awsIdentity`, `repository_owner`, ...). Any JSON value is kept as
 * it is; a reserved name is INVALID_ARGUMENT on `claims.<name>`.
 */
export function requireExtraClaims(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalidArgument("claims", "must be an object");
  }
  // Bounded before anything walks it recursively (signing serializes it).
  if (nestsDeeper(value, MAX_EXTRA_CLAIMS_DEPTH)) {
    throw invalidArgument("claims", `must nest at most ${MAX_EXTRA_CLAIMS_DEPTH} levels deep`);
  }
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_EXTRA_CLAIMS_BYTES) {
    throw invalidArgument("claims", `must be at most ${MAX_EXTRA_CLAIMS_BYTES} bytes as JSON`);
  }
  for (const name of Object.keys(value)) {
    if (TEST_ISSUER_RESERVED_CLAIMS.includes(name)) {
      throw invalidArgument(
        `claims.${name}`,
        `is set by the test issuer (${TEST_ISSUER_RESERVED_CLAIMS.join(", ")} cannot be given)`,
      );
    }
  }
  return value as Record<string, unknown>;
}

/** The largest discovery document and key set read from an issuer. */
export const MAX_DISCOVERY_BYTES = 64 * 1024;
export const MAX_JWKS_BYTES = 256 * 1024;

/**
 * The body of `response` as text, read no further than `max` bytes: a longer one
 * (announced or streamed) is abandoned and throws, so an issuer cannot make the
 * exchange read without end.
 */
async function boundedText(response: Response, max: number): Promise<string> {
  const announced = Number(response.headers.get("content-length") ?? "0");
  if (announced > max) {
    await response.body?.cancel();
    throw new Error("too large");
  }
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error("too large");
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
}

/** How deep the test issuer's extra claims may nest, and their JSON's largest size. */
export const MAX_EXTRA_CLAIMS_DEPTH = 16;
export const MAX_EXTRA_CLAIMS_BYTES = 16 * 1024;

/** Whether `value` nests objects or arrays deeper than `max`, walked without recursion. */
function nestsDeeper(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== "object" || item === null) continue;
    if (depth >= max) return true;
    for (const member of Object.values(item)) stack.push([member, depth + 1]);
  }
  return false;
}

interface SigningKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  privateJwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALGORITHM };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: "sig" };
  return { privateKey, publicJwk, privateJwk };
}

async function loadKey(privateJwk: JWK): Promise<SigningKey> {
  const privateKey = (await importJWK(privateJwk, ALGORITHM)) as CryptoKey;
  const { d: _secret, ...publicFields } = privateJwk;
  return { privateKey, publicJwk: { ...publicFields, use: "sig" }, privateJwk };
}

export interface SavedKeys {
  api: Record<string, unknown>;
  oidc: Record<string, unknown>;
}

export interface OidcTokenOptions {
  audience?: string;
  ttlSeconds?: number;
  /** Override the issuer claim (to test an issuer mismatch). */
  issuer?: string;
  /** Extra claims (checked by {@link requireExtraClaims}: never a registered one). */
  claims?: Record<string, unknown>;
}

/** What a verified OIDC token says: its subject, its audiences and every claim. */
export interface VerifiedOidcToken {
  subject: string;
  audiences: string[];
  claims: JWTPayload;
}

/** How many verified API tokens `verifyApiToken` remembers (the oldest go first). */
const VERIFIED_TOKENS_KEPT = 1_000;

export class TokenService {
  private readonly apiKeySet: JWTVerifyGetKey;
  private readonly oidcKeySet: JWTVerifyGetKey;
  private readonly remoteKeySets = new Map<string, JWTVerifyGetKey>();
  /** API tokens verified before, by their text: see `verifyApiToken`. */
  private readonly verifiedApiTokens = new Map<
    string,
    { subject: string; notBefore: number; expires: number }
  >();
  /**
   * Key of the page tokens' HMAC (`listing.ts`). Derived from the API signing key, so
   * it is random per emulator and, with `--data`, persists with that key: page tokens
   * stay valid across a restart exactly as API tokens do, and no other emulator can
   * issue or alter them.
   */
  readonly pageTokenKey: Uint8Array;

  private constructor(
    private readonly apiKey: SigningKey,
    private readonly oidcKey: SigningKey,
    /** `{base_url}` = `{auth_url}`: the issuer and audience of API tokens. */
    readonly origin: string,
  ) {
    this.apiKeySet = createLocalJWKSet(this.apiJwks());
    this.oidcKeySet = createLocalJWKSet(this.oidcJwks());
    this.pageTokenKey = new Uint8Array(
      hkdfSync(
        "sha256",
        Buffer.from(String(apiKey.privateJwk.d), "base64url"),
        Buffer.alloc(0),
        "irm-emulator page tokens",
        32,
      ),
    );
  }

  static async create(origin: string, saved?: SavedKeys): Promise<TokenService> {
    const apiKey = saved ? await loadKey(saved.api as JWK) : await newKey("api-1");
    const oidcKey = saved ? await loadKey(saved.oidc as JWK) : await newKey("oidc-1");
    return new TokenService(apiKey, oidcKey, origin);
  }

  get issuer(): string {
    return `${this.origin}/oidc`;
  }

  savedKeys(): SavedKeys {
    return { api: { ...this.apiKey.privateJwk }, oidc: { ...this.oidcKey.privateJwk } };
  }

  apiJwks(): JSONWebKeySet {
    return { keys: [this.apiKey.publicJwk] };
  }

  oidcJwks(): JSONWebKeySet {
    return { keys: [this.oidcKey.publicJwk] };
  }

  async mintApiToken(identityUid: string, ttlSeconds: number, now: Date): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, kid: this.apiKey.publicJwk.kid, typ: "JWT" })
      .setIssuer(this.origin)
      .setAudience(this.origin)
      .setSubject(identityUid)
      .setIssuedAt(issuedAt)
      .setNotBefore(issuedAt)
      .setExpirationTime(issuedAt + ttlSeconds)
      .sign(this.apiKey.privateKey);
  }

  /**
   * Verifies an API token and answers the identity uid it acts as. A token whose
   * signature and claims were verified before is not verified again while the clock is
   * within its validity (the signature check is most of a request's cost, and a
   * pipeline sends the same token hundreds of times); outside it, the full check runs
   * and gives its own error.
   */
  async verifyApiToken(token: string, now: Date): Promise<string> {
    const seconds = Math.floor(now.getTime() / 1000);
    const known = this.verifiedApiTokens.get(token);
    if (known && known.notBefore <= seconds && seconds < known.expires) return known.subject;
    try {
      const { payload } = await jwtVerify(token, this.apiKeySet, {
        algorithms: [ALGORITHM],
        issuer: this.origin,
        audience: [this.origin, `${this.origin}/`],
        requiredClaims: ["exp", "sub"],
        currentDate: now,
      });
      const subject = payload.sub as string;
      if (this.verifiedApiTokens.size >= VERIFIED_TOKENS_KEPT) {
        // The oldest entry goes first (a Map keeps insertion order).
        const oldest = this.verifiedApiTokens.keys().next().value as string;
        this.verifiedApiTokens.delete(oldest);
      }
      this.verifiedApiTokens.set(token, {
        subject,
        notBefore: payload.nbf ?? Number.NEGATIVE_INFINITY,
        expires: payload.exp as number,
      });
      return subject;
    } catch (error) {
      throw unauthenticated(describeJwtFailure(error));
    }
  }

  async mintOidcToken(subject: string, options: OidcTokenOptions, now: Date): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({ ...options.claims })
      .setProtectedHeader({ alg: ALGORITHM, kid: this.oidcKey.publicJwk.kid, typ: "JWT" })
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? this.origin)
      .setSubject(subject)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + (options.ttlSeconds ?? 600))
      .sign(this.oidcKey.privateKey);
  }

  /**
   * The `iss` a presented OIDC token claims, read without verifying anything: only to
   * compare with the issuer an identity accepts, never to fetch from.
   */
  claimedIssuer(token: string): string | undefined {
    try {
      const iss = decodeJwt(token).iss;
      return typeof iss === "string" ? iss : undefined;
    } catch {
      throw unauthenticated("the OIDC token is not a JWT");
    }
  }

  /**
   * Verifies an OIDC id token as a token of `issuer`, the issuer an identity accepts
   * (never one the token names): against `issuerKeys` when the identity registered its
   * keys (`staticKeys`; no discovery document is fetched), the emulator's test issuer
   * keys locally, or the keys `issuer` publishes through its discovery document. Checks
   * the signature, `iss`, `exp`, `sub`, `nbf` and the algorithm allow-list; the caller
   * matches the rest.
   */
  async verifyOidcToken(
    token: string,
    issuer: string,
    now: Date,
    issuerKeys?: string,
  ): Promise<VerifiedOidcToken> {
    const keySet =
      issuerKeys !== undefined
        ? staticKeySet(issuerKeys)
        : issuer === this.issuer
          ? this.oidcKeySet
          : await this.remoteKeySet(issuer);
    try {
      const { payload } = await jwtVerify(token, keySet, {
        algorithms: OIDC_ALGORITHMS,
        issuer,
        requiredClaims: ["exp", "sub"],
        currentDate: now,
      });
      const aud = payload.aud;
      const audiences = typeof aud === "string" ? [aud] : Array.isArray(aud) ? aud : [];
      return { subject: payload.sub as string, audiences, claims: payload };
    } catch (error) {
      throw unauthenticated(`OIDC token rejected: ${describeJwtFailure(error)}`);
    }
  }

  private async remoteKeySet(issuer: string): Promise<JWTVerifyGetKey> {
    const cached = this.remoteKeySets.get(issuer);
    if (cached) return cached;
    let jwksUri: URL;
    try {
      const response = await fetch(
        `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
        {
          signal: AbortSignal.timeout(5000),
        },
      );
      if (!response.ok) throw new Error("not found");
      const discovery = JSON.parse(await boundedText(response, MAX_DISCOVERY_BYTES)) as {
        issuer?: unknown;
        jwks_uri?: unknown;
      };
      if (typeof discovery.jwks_uri !== "string") throw new Error("no jwks_uri");
      // OpenID Connect Discovery: the document must name the issuer it was fetched for.
      if (
        typeof discovery.issuer !== "string" ||
        discovery.issuer.replace(/\/$/, "") !== issuer.replace(/\/$/, "")
      ) {
        throw new Error("another issuer");
      }
      // An answer, not trusted: a jwks_uri that is no http(s) URL is the issuer's fault,
      // answered as such, never an internal failure of the exchange.
      jwksUri = new URL(discovery.jwks_uri);
      if (jwksUri.protocol !== "https:" && jwksUri.protocol !== "http:") {
        throw new Error("not http(s)");
      }
    } catch {
      throw unauthenticated("the OIDC token's issuer cannot be reached to check its signature");
    }
    const keySet = createRemoteJWKSet(jwksUri, {
      timeoutDuration: 5000,
      // The key set is read with a bound too, as the discovery document is.
      [customFetch]: async (url: string, options: RequestInit) => {
        const response = await fetch(url, options);
        const text = await boundedText(response, MAX_JWKS_BYTES);
        return new Response(text, { status: response.status, headers: response.headers });
      },
    });
    this.remoteKeySets.set(issuer, keySet);
    return keySet;
  }
}

/**
 * The key set of a `staticKeys` identity. `issuerKeys` was validated when it was
 * stored (a JWKS of public keys); anything unusable verifies nothing.
 */
function staticKeySet(issuerKeys: string): JWTVerifyGetKey {
  try {
    return createLocalJWKSet(JSON.parse(issuerKeys) as JSONWebKeySet);
  } catch {
    throw unauthenticated("OIDC token rejected: the identity's registered keys are unusable");
  }
}

/** A reason that names what is wrong without echoing the token. */
function describeJwtFailure(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return "the token has expired";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED": {
      const claim = (error as { claim?: unknown }).claim;
      return `the token's ${String(claim)} claim is not accepted`;
    }
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return "the token's signing algorithm is not accepted";
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "the token's signature is invalid";
    case "ERR_JWKS_NO_MATCHING_KEY":
      return "the token was not signed by a known key";
    default:
      return "the token is malformed or not signed by this service";
  }
}
