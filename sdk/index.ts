/**
 * `pulumi-irm/sdk`: typed client of the Identity and Registry Management API
 * v2beta1, usable without Pulumi. See docs/sdk.md.
 */

export {
  type ExchangeTokenSourceOptions,
  exchangeToken,
  exchangeTokenSource,
  type GitHubActionsOidcOptions,
  type OidcTokenProvider,
  oidcTokenFromFile,
  oidcTokenFromGitHubActions,
  runningInGitHubActions,
} from "./auth/exchange";
export {
  anonymous,
  type CachedTokenSourceOptions,
  cachedTokenSource,
  staticToken,
  type TokenRequest,
  type TokenSource,
  type TokenSourceContext,
  tokenExpiry,
  tokenSubject,
} from "./auth/token-source";
export {
  CAPABILITIES,
  type Capability,
  capabilitiesInEnumNames,
  isCapability,
  type LegacyCapability,
  legacyCapability,
} from "./capabilities";
export {
  IrmClient,
  type IrmClientOptions,
  type ResolvedSettings,
  type RetryOptions,
  resolveSettings,
  resolveTokenSource,
} from "./client";
export {
  AlreadyExistsError,
  BadResponseError,
  ConnectionError,
  FailedPreconditionError,
  type FieldViolation,
  GRPC_CODE_NAMES,
  GrpcCode,
  InternalError,
  InvalidArgumentError,
  IrmError,
  isInvalidArgument,
  isNotFound,
  isPermissionDenied,
  isRateLimited,
  isResourceNotEmpty,
  isUnauthenticated,
  isUnavailable,
  NotFoundError,
  OutcomeUnknownError,
  PermissionDeniedError,
  type PreconditionViolation,
  RateLimitedError,
  type RequestSummary,
  ResourceNotEmptyError,
  TimeoutError,
  UnauthenticatedError,
  UnavailableError,
} from "./core/errors";
export type {
  RetryEvent,
  SdkEvent,
  SdkLogger,
  TokenRefreshEvent,
  TokenRefreshFailedEvent,
} from "./core/events";
export { type AllOptions, ListPage, MAX_PAGE_SIZE, PagePromise } from "./core/pagination";
export { buildUpdateMask, encodeUid, InvalidPathError } from "./core/path";
export { redact } from "./core/redact";
export type { RetrySettings } from "./core/retry";
export { ServerClock, type ServerTimeBounds } from "./core/server-clock";
export { AccountAssociations } from "./resources/account-associations";
export { encodeTtl, GroupInvites } from "./resources/group-invites";
export { Groups, RoleBindings, Roles } from "./resources/iam";
export {
  IDENTITY_KINDS,
  Identities,
  type IdentityKind,
  identityKind,
  RELATIONSHIP_TYPES,
  SERVICE_PRINCIPAL_NAMES,
  SERVICE_PRINCIPALS,
} from "./resources/identities";
export {
  CORRELATION_RULES,
  IdentityProviders,
  SCIM_CREDENTIAL_STATES,
} from "./resources/identity-providers";
export { Advisories, CATALOG_TIERS, Repos, Tags } from "./resources/registry";
export { V1Groups, V1Repos } from "./resources/v1";
export {
  isBuiltInRoleUid,
  ROLE_UID_PATTERN,
  ROLE_UID_SHAPE,
  roleGroupUid,
} from "./role-uids";
export * from "./types";
