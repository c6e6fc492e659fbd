/** The input checks of `RoleBinding`. */

import type { RoleBindingInputs } from "../shapes/index";
import { type Checked, Checker, type RawInputs, withAdoptUid } from "./checker";

export function checkRoleBindingInputs(news: RawInputs): Checked<RoleBindingInputs> {
  const checker = new Checker();
  const groupUid = checker.groupUid("groupUid", news.groupUid);
  const identityUid = checker.childUid("identityUid", news.identityUid);
  const roleUid = checker.roleUid("roleUid", news.roleUid);
  const adoptUid = checker.adoptUid(news.adoptUid, "groupUid", groupUid);
  const inputs = withAdoptUid(
    { groupUid: groupUid ?? "", identityUid: identityUid ?? "", roleUid: roleUid ?? "" },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}
