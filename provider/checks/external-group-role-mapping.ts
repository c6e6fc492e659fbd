/**
 * The input checks of `ExternalGroupRoleMapping`: its identity provider, the outside
 * group id, the role, and the scope, which the service keeps to the provider's
 * organisation (its root group), checked here so a wrong scope fails in preview.
 */
import { EXTERNAL_GROUP_ID_MAX_LENGTH } from "../../sdk/index";
import type { ExternalGroupRoleMappingInputs } from "../shapes/index";
import {
  CHILD_SHAPE,
  CHILD_UID_PATTERN,
  type Checked,
  Checker,
  GROUP_SHAPE,
  GROUP_UID_PATTERN,
  isUnknown,
  type RawInputs,
  ROLE_SHAPE,
  ROLE_UID_PATTERN,
  withAdoptUid,
} from "./checker";

export function checkExternalGroupRoleMappingInputs(
  news: RawInputs,
): Checked<ExternalGroupRoleMappingInputs> {
  const checker = new Checker();
  const identityProviderUid = checker.uid(
    "identityProviderUid",
    news.identityProviderUid,
    CHILD_UID_PATTERN,
    CHILD_SHAPE,
  );
  const externalGroupId = checker.requiredString("externalGroupId", news.externalGroupId);
  if (externalGroupId !== undefined && !isUnknown(externalGroupId)) {
    if (externalGroupId.trim() === "") checker.fail("externalGroupId", "must not be blank");
    checker.maxLength("externalGroupId", externalGroupId, EXTERNAL_GROUP_ID_MAX_LENGTH);
  }
  const roleUid = checker.uid("roleUid", news.roleUid, ROLE_UID_PATTERN, ROLE_SHAPE);
  const scope = checker.uid("scope", news.scope, GROUP_UID_PATTERN, GROUP_SHAPE);
  if (
    scope !== undefined &&
    identityProviderUid !== undefined &&
    !isUnknown(scope) &&
    !isUnknown(identityProviderUid) &&
    GROUP_UID_PATTERN.test(scope) &&
    scope !== identityProviderUid.split("/")[0]
  ) {
    checker.fail(
      "scope",
      `must be the identity provider's organisation (its root group ${identityProviderUid.split("/")[0]}), got ${scope}`,
    );
  }
  const adoptUid = checker.adoptUid(news.adoptUid, "identityProviderUid", identityProviderUid);
  const inputs = withAdoptUid(
    {
      identityProviderUid: identityProviderUid ?? "",
      externalGroupId: externalGroupId ?? "",
      roleUid: roleUid ?? "",
      scope: scope ?? "",
    },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}
