/** The input checks of `Group`. */

import type { GroupInputs } from "../types";
import {
  type Checked,
  Checker,
  GROUP_SHAPE,
  GROUP_UID_PATTERN,
  type RawInputs,
  withAdoptUid,
} from "./checker";

export function checkGroupInputs(news: RawInputs): Checked<GroupInputs> {
  const checker = new Checker();
  const parentUid = checker.uid("parentUid", news.parentUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const name = checker.name("name", news.name);
  const description = checker.description("description", news.description);
  const adoptUid = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  const inputs = withAdoptUid(
    { parentUid: parentUid ?? "", name: name ?? "", description },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}
