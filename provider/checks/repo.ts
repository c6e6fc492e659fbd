/** The input checks of `Repo`. */

import { CATALOG_TIERS } from "../../sdk/index";
import type { RepoInputs } from "../shapes/index";
import { type Checked, Checker, isUnknown, quoted, type RawInputs, withAdoptUid } from "./checker";

export type { RepoInputs };

/** The longest README the provider sends (the SDK's bound on what it reads back). */
export const MAX_README_LENGTH = 1_048_576;

export function checkRepoInputs(news: RawInputs): Checked<RepoInputs> {
  const checker = new Checker();
  const { parentUid, name, description } = checker.namedInGroup(news);
  const tier = checker.optionalString("catalogTier", news.catalogTier);
  if (tier !== "" && !isUnknown(tier) && !(CATALOG_TIERS as readonly string[]).includes(tier)) {
    checker.fail("catalogTier", `must be one of ${CATALOG_TIERS.join(", ")}, got ${quoted(tier)}`);
  }
  const aliases = checker.stringArray("aliases", news.aliases);
  aliases.forEach((alias, index) => {
    checker.name(`aliases[${index}]`, alias);
  });
  const readme = checker.optionalString("readme", news.readme, MAX_README_LENGTH);
  const adoptUid = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  const inputs = withAdoptUid(
    {
      parentUid: parentUid ?? "",
      name: name ?? "",
      description,
      catalogTier: tier === "" ? "CATALOG_TIER_UNSPECIFIED" : tier,
      aliases,
      readme,
    },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}
