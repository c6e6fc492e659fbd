/**
 * The SCIM switches of an identity provider (`revokeScimToken`, `setScimEnabled`): the
 * request each sends and the checks on its answer, against a stand-in.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BadResponseError } from "../../sdk";
import { failure } from "../support/sdk-helpers";
import { json, StandIn } from "../support/sdk-stand-in";

const UID = `${"a".repeat(40)}/0123456789abcdef`;
const OTHER = `${"a".repeat(40)}/fedcba9876543210`;

let standIn: StandIn;
beforeAll(async () => {
  standIn = await new StandIn().start();
});
afterEach(() => standIn.reset());
afterAll(() => standIn.close());

describe("SCIM switches", () => {
  it("revokeScimToken posts an empty body and reads the revocation", async () => {
    standIn.answer(
      json({ identityProviderUid: UID, etag: "e2", revokeTime: "2026-11-29T10:00:00Z" }),
    );
    const revoked = await standIn.client().iam.identityProviders.revokeScimToken(UID);
    expect(revoked).toMatchObject({ identityProviderUid: UID, etag: "e2", enabled: false });
    expect(standIn.seen[0]).toMatchObject({
      method: "POST",
      path: `/iam/v2beta1/identityProviders/${UID}:revokeScimToken`,
    });
  });

  it("setScimEnabled posts the switch and the etag", async () => {
    standIn.answer(json({ identityProviderUid: UID, enabled: true, etag: "e3" }));
    const on = await standIn.client().iam.identityProviders.setScimEnabled(UID, true, "e2");
    expect(on).toEqual({ identityProviderUid: UID, enabled: true, etag: "e3" });
    expect(standIn.seen[0]?.body).toEqual({ enabled: true, etag: "e2" });
  });

  it.each([
    ["revokeScimToken", { etag: "e", revokeTime: "2026-11-29T10:00:00Z" }],
    ["setScimEnabled", { enabled: true, etag: "e" }],
  ] as const)(
    "%s refuses an answer about another provider, naming the field",
    async (action, rest) => {
      standIn.answer(json({ identityProviderUid: OTHER, ...rest }));
      const providers = standIn.client().iam.identityProviders;
      const call =
        action === "revokeScimToken"
          ? providers.revokeScimToken(UID)
          : providers.setScimEnabled(UID, true, "e");
      const error = await failure(call);
      expect(error).toBeInstanceOf(BadResponseError);
      expect(String(error)).toContain(`${action}.identityProviderUid: is not ${UID}`);
    },
  );
});
