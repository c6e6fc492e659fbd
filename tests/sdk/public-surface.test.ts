/**
 * The public surface of `pulumi-irm/sdk`: every name the built package exports at run
 * time, and (in `public-types.check.ts`, checked by `tsc`) every type it exports. A name
 * that users import must not disappear when the SDK's modules are reorganised.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(__filename);
const SDK = path.resolve(__dirname, "../../dist/sdk/index.js");

/** The values of `pulumi-irm/sdk` (classes, functions, constants), in code-point order. */
const VALUES = [
  "AccountAssociations",
  "Advisories",
  "AlreadyExistsError",
  "BATCH_CREATE_MAX_BINDINGS",
  "BATCH_DELETE_MAX_NAMES",
  "BadResponseError",
  "CAPABILITIES",
  "CATALOG_TIERS",
  "CORRELATION_RULES",
  "ConnectionError",
  "EXTERNAL_GROUP_ID_MAX_LENGTH",
  "ExternalGroupRoleMappings",
  "FailedPreconditionError",
  "GRPC_CODE_NAMES",
  "GroupInvites",
  "Groups",
  "GrpcCode",
  "IDENTITY_KINDS",
  "Identities",
  "IdentityProviders",
  "InternalError",
  "InvalidArgumentError",
  "InvalidPathError",
  "IrmClient",
  "IrmError",
  "ListPage",
  "MAX_PAGE_SIZE",
  "MAX_README_CHARS",
  "NotFoundError",
  "OutcomeUnknownError",
  "PagePromise",
  "PermissionDeniedError",
  "RELATIONSHIP_TYPES",
  "ROLE_UID_PATTERN",
  "ROLE_UID_SHAPE",
  "RateLimitedError",
  "Repos",
  "ResourceNotEmptyError",
  "RoleBindings",
  "Roles",
  "SCIM_CREDENTIAL_STATES",
  "SERVICE_PRINCIPALS",
  "SERVICE_PRINCIPAL_NAMES",
  "ServerClock",
  "Subscriptions",
  "Tags",
  "TimeoutError",
  "UnauthenticatedError",
  "UnavailableError",
  "V1Groups",
  "V1Repos",
  "anonymous",
  "buildUpdateMask",
  "cachedTokenSource",
  "capabilitiesInEnumNames",
  "checkServiceUrl",
  "encodeTtl",
  "encodeUid",
  "exchangeToken",
  "exchangeTokenSource",
  "identityKind",
  "isBuiltInRoleUid",
  "isCapability",
  "isInvalidArgument",
  "isNotFound",
  "isPermissionDenied",
  "isRateLimited",
  "isResourceNotEmpty",
  "isUnauthenticated",
  "isUnavailable",
  "legacyCapability",
  "oidcTokenFromFile",
  "oidcTokenFromGitHubActions",
  "parentOf",
  "redact",
  "resolveSettings",
  "resolveTokenSource",
  "roleGroupUid",
  "runningInGitHubActions",
  "staticToken",
  "tokenExpiry",
  "tokenProblem",
  "tokenSubject",
];

describe("pulumi-irm/sdk public surface", () => {
  it("exports exactly the known values at run time", () => {
    const sdk: Record<string, unknown> = require(SDK);
    expect(Object.keys(sdk).sort()).toEqual(VALUES);
    // A name declared but never bound is `undefined` to whoever imports it.
    expect(VALUES.filter((name) => sdk[name] === undefined)).toEqual([]);
  });
});
