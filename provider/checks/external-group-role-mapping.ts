/**
 * The input checks of `ExternalGroupRoleMapping`: its identity provider, the outside
 * group id, the role, and the scope, which the service keeps to the provider's
 * organisation (its root group), checked here so a wrong scope fails in preview.
 */
import { EXTERNAL_GROUP_ID_MAX_LENGTH } from "../../sdk/index";
import type { ExternalGroupRoleMappingInputs } from "../shapes/index";
import {
  type Checked,
  Checker,
  GROUP_UID_PATTERN,
  isUnknown,
  type RawInputs,
  withAdoptUid,
} from "./checker";

export function checkExternalGroupRoleMappingInputs(
  news: RawInputs,
): Checked<ExternalGroupRoleMappingInputs> {
  const checker = new Checker();
  const identityProviderUid = checker.childUid("identityProviderUid", news.identityProviderUid);
  const externalGroupId = checker.requiredString("externalGroupId", news.externalGroupId);
  if (externalGroupId !== undefined && !isUnknown(externalGroupId)) {
    if (externalGroupId.trim() === "") checker.fail("externalGroupId", "must not be blank");
    checker.maxLength("externalGroupId", externalGroupId, EXTERNAL_GROUP_ID_MAX_LENGTH);
  }
  const roleUid = checker.roleUid("roleUid", news.roleUid);
  const scope = checker.groupUid("scope", news.scope);
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
