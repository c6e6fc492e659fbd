/**
 * Advisories: `/vulnerabilities/v2beta1/advisories`, read only. Advisories are public
 * knowledge: any authenticated caller may read them.
 */
import { invalidArgument, unauthenticated } from "../errors";
import { parseListParams, runList } from "../listing";
import type { AdvisoryRecord } from "../model";
import { type JsonObject, ok } from "../requests";
import { existing, FLAT_UID, listEnvelope, readOnlyCollection, sortValueOf } from "./kit";

export function advisoryOut(advisory: AdvisoryRecord): JsonObject {
  return {
    uid: advisory.uid,
    advisoryId: advisory.advisoryId,
    aliases: [...advisory.aliases],
    packageName: advisory.packageName,
    severity: advisory.severity,
    createTime: advisory.createTime,
    updateTime: advisory.updateTime,
  };
}

export const advisories = readOnlyCollection(
  (ctx, request, access) => {
    if (!access.authenticated) throw unauthenticated("a bearer token is required");
    const params = parseListParams(request.query, [
      { key: "packageName", names: ["package_name", "packageName"] },
      "severity",
    ]);
    const { packageName, severity } = params.filters;
    const result = runList<AdvisoryRecord>({
      collectionKey: "advisories",
      collection: ctx.state.advisories,
      params,
      sortValue: sortValueOf<AdvisoryRecord>((advisory) => advisory.advisoryId),
      predicate:
        packageName || severity
          ? (advisory) =>
              (!packageName || advisory.packageName === packageName) &&
              (!severity || advisory.severity === severity)
          : undefined,
      scopeParentOf: () => "",
      nowMs: ctx.clock.nowMs(),
      pageTokenKey: ctx.tokens.pageTokenKey,
    });
    return listEnvelope("advisories", result, advisoryOut);
  },
  (ctx, access, uid) => {
    if (!access.authenticated) throw unauthenticated("a bearer token is required");
    if (!FLAT_UID.test(uid))
      throw invalidArgument("uid", "must be an advisory uid (40 hex characters)");
    return ok(advisoryOut(existing(ctx.state.advisories, uid)));
  },
);
