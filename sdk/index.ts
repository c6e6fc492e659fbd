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
  tokenProblem,
  tokenSubject,
} from "./auth/token-source";
export {
  CAPABILITIES,
  type Capability,
  type CapabilityName,
  capabilitiesInEnumNames,
  isCapability,
  type LegacyCapability,
  legacyCapability,
} from "./capabilities";
export {
  checkServiceUrl,
  IrmClient,
  type IrmClientOptions,
  type ResolvedSettings,
  type RetryOptions,
  resolveSettings,
  resolveTokenSource,
  type UrlSettingNames,
} from "./client";
export type {
  ListParams,
  MaskPathOf,
  Page,
  PageParams,
  RequestOptions,
  Timestamp,
  UidpFilter,
  UpdateOptions,
} from "./core/common-types";
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
export {
  type AccountAssociation,
  type AccountAssociationCreate,
  type AccountAssociationListParams,
  type AccountAssociationMaskPath,
  AccountAssociations,
  type AccountAssociationUpdate,
  type AmazonAccount,
  type AzureTenant,
  type ChainguardBindings,
  type GitHubInstallation,
  type GitHubInstallationInput,
  type GitHubInstallations,
  type GitHubInstallationsInput,
  type GoogleProject,
} from "./resources/account-associations";
export {
  BATCH_DELETE_MAX_NAMES,
  type BatchDeleteExternalGroupRoleMappingsResult,
  EXTERNAL_GROUP_ID_MAX_LENGTH,
  type ExternalGroupRoleMapping,
  type ExternalGroupRoleMappingCreate,
  type ExternalGroupRoleMappingListParams,
  ExternalGroupRoleMappings,
} from "./resources/external-group-role-mappings";
export {
  type CreatedGroupInvite,
  encodeTtl,
  type GroupInvite,
  type GroupInviteCreate,
  type GroupInviteListParams,
  type GroupInviteRole,
  GroupInvites,
} from "./resources/group-invites";
export {
  type Group,
  type GroupCreate,
  type GroupMaskPath,
  Groups,
  type GroupUpdate,
} from "./resources/groups";
export {
  type AwsIdentity,
  type ClaimMatch,
  IDENTITY_KINDS,
  Identities,
  type Identity,
  type IdentityCreate,
  type IdentityKind,
  type IdentityListParams,
  type IdentityMaskPath,
  type IdentityUpdate,
  identityKind,
  RELATIONSHIP_TYPES,
  type RelationshipType,
  SERVICE_PRINCIPAL_NAMES,
  SERVICE_PRINCIPALS,
  type ServicePrincipal,
  type ServicePrincipalName,
  type StaticKeys,
  type StaticKeysCreate,
} from "./resources/identities";
export {
  CORRELATION_RULES,
  type CorrelationRule,
  type IdentityProvider,
  type IdentityProviderCreate,
  type IdentityProviderListParams,
  type IdentityProviderMaskPath,
  type IdentityProviderOidc,
  type IdentityProviderOidcInput,
  type IdentityProviderScim,
  IdentityProviders,
  type IdentityProviderUpdate,
  type IssuedScimToken,
  type RevokedScimToken,
  SCIM_CREDENTIAL_STATES,
  type ScimCredentialState,
  type ScimSwitch,
  type ScimTokenExpiry,
  type ScimTokenRegeneration,
} from "./resources/identity-providers";
export {
  Advisories,
  type Advisory,
  type AdvisoryEvent,
  type AdvisoryEventType,
  type AdvisoryListParams,
  type AdvisorySeverity,
  CATALOG_TIERS,
  type CatalogTier,
  type EventTypeFilter,
  MAX_README_CHARS,
  type Repo,
  type RepoCreate,
  type RepoMaskPath,
  type RepoReadme,
  Repos,
  type RepoUpdate,
  type ReviewState,
  type Tag,
  type TagCreate,
  type TagListParams,
  Tags,
} from "./resources/registry";
export {
  BATCH_CREATE_MAX_BINDINGS,
  type RoleBinding,
  type RoleBindingCreate,
  type RoleBindingIdentity,
  type RoleBindingListParams,
  type RoleBindingMaskPath,
  type RoleBindingRef,
  RoleBindings,
  type RoleBindingUpdate,
} from "./resources/role-bindings";
export {
  type Role,
  type RoleCreate,
  type RoleMaskPath,
  Roles,
  type RoleUpdate,
} from "./resources/roles";
export {
  type Subscription,
  type SubscriptionCreate,
  Subscriptions,
} from "./resources/subscriptions";
export {
  type V1Group,
  V1Groups,
  type V1List,
  type V1Repo,
  V1Repos,
} from "./resources/v1";
export {
  isBuiltInRoleUid,
  parentOf,
  /** The group of a custom role, undefined for a built-in role: {@link parentOf} under its former name. */
  parentOf as roleGroupUid,
  ROLE_UID_PATTERN,
  ROLE_UID_SHAPE,
} from "./uids";
