/** The input checks of `Subscription`. */

import type { SubscriptionInputs } from "../shapes/index";
import { type Checked, Checker, isUnknown, quoted, type RawInputs, withAdoptUid } from "./checker";

export type { SubscriptionInputs };

/** The longest sink the provider sends (the emulator's bound). */
export const MAX_SINK_LENGTH = 2048;

export function checkSubscriptionInputs(news: RawInputs): Checked<SubscriptionInputs> {
  const checker = new Checker();
  const parentUid = checker.groupUid("parentUid", news.parentUid);
  const sink = checker.requiredString("sink", news.sink);
  if (sink !== undefined && !isUnknown(sink)) {
    checker.maxLength("sink", sink, MAX_SINK_LENGTH);
    let url: URL | undefined;
    try {
      url = new URL(sink);
    } catch {
      url = undefined;
    }
    if (url === undefined || url.protocol !== "https:" || url.hostname === "") {
      checker.fail(
        "sink",
        `must be an https URL (the service delivers only there), got ${quoted(sink)}`,
      );
    }
  }
  const adoptUid = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  return {
    inputs: withAdoptUid({ parentUid: parentUid ?? "", sink: sink ?? "" }, adoptUid),
    failures: checker.failures,
  };
}
