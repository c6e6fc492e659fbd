/** The input checks of `RoleBinding`. */

import type { RoleBindingInputs } from "../shapes/index";
import {
  CHILD_SHAPE,
  CHILD_UID_PATTERN,
  type Checked,
  Checker,
  GROUP_SHAPE,
  GROUP_UID_PATTERN,
  type RawInputs,
  ROLE_SHAPE,
  ROLE_UID_PATTERN,
  withAdoptUid,
} from "./checker";

export function checkRoleBindingInputs(news: RawInputs): Checked<RoleBindingInputs> {
  const checker = new Checker();
  const groupUid = checker.uid("groupUid", news.groupUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const identityUid = checker.uid("identityUid", news.identityUid, CHILD_UID_PATTERN, CHILD_SHAPE);
  const roleUid = checker.uid("roleUid", news.roleUid, ROLE_UID_PATTERN, ROLE_SHAPE);
  const adoptUid = checker.adoptUid(news.adoptUid, "groupUid", groupUid);
  const inputs = withAdoptUid(
    { groupUid: groupUid ?? "", identityUid: identityUid ?? "", roleUid: roleUid ?? "" },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}
