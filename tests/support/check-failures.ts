/**
 * Check failures as the provider answers the host: each on a top-level input (the
 * engine shows that input's value), or on none where that value must not be shown (a
 * secret, key material, a long value), a nested place leading its reason
 * (`{ property: "oidc", reason: "oidc.clientId: is required" }`). These read them back
 * by the place they name, so a test still speaks of `oidc.clientId`.
 */
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { expect } from "vitest";

/** The place a failure names and its reason after that place (fails on a nested property). */
export function placed(failure: CheckFailure): { place: string; reason: string } {
  const { property, reason } = failure;
  expect(property, `a failure on a nested property: ${JSON.stringify(failure)}`).toMatch(
    /^[^.[]*$/,
  );
  const lead =
    property === "" || reason.startsWith(`${property}.`) || reason.startsWith(`${property}[`);
  const colon = reason.indexOf(": ");
  return lead && colon > 0
    ? { place: reason.slice(0, colon), reason: reason.slice(colon + 2) }
    : { place: property, reason };
}

/** `failures` as `{ place, reason }` (the shape tests compare, with the place as property). */
export function byPlace(failures: readonly CheckFailure[] | undefined): CheckFailure[] {
  return (failures ?? []).map((failure) => {
    const { place, reason } = placed(failure);
    return { property: place, reason };
  });
}

/** The reason of each place named (the last, where one is named twice). */
export function reasonsByPlace(failures: readonly CheckFailure[] | undefined) {
  return Object.fromEntries(byPlace(failures).map((f) => [f.property, f.reason]));
}
