/** The input checks of `Group`. */

import type { GroupInputs } from "../shapes/index";
import { type Checked, Checker, type RawInputs, withAdoptUid } from "./checker";

export function checkGroupInputs(news: RawInputs, olds?: RawInputs): Checked<GroupInputs> {
  const checker = new Checker();
  const { parentUid, name, description } = checker.namedInGroup(news, olds);
  const adoptUid = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  const inputs = withAdoptUid(
    { parentUid: parentUid ?? "", name: name ?? "", description },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}
