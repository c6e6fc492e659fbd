/**
 * Check failures as they leave the package for the provider host (`runtime.ts`): the
 * engine prints each with the value of the input its property names, looked up as a
 * top-level key, so a member's failure is on its top-level input with its path leading
 * the reason, or on no input when that value must not be printed.
 */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";

const GROUP = `${"a".repeat(40)}/0123456789abcdef`;
const identity = { parentUid: GROUP, name: "ci-bot" };

describe("check failures on top-level inputs", () => {
  it("a member's failure is on its input, the path leading the reason", async () => {
    const { failures } = await runtime.identity.check(
      {},
      { ...identity, claimMatch: { issuer: "http://issuer.example", subject: "x" } },
    );
    expect(failures).toEqual([
      {
        property: "claimMatch",
        reason: expect.stringMatching(/^claimMatch\.issuer: must be an https URL/),
      },
    ]);
    const role = await runtime.role.check(
      {},
      { parentUid: GROUP, name: "custom", capabilities: ["CAP_REPO_LIST", "CAP_NOPE"] },
    );
    expect(role.failures).toEqual([
      {
        property: "capabilities",
        reason: expect.stringMatching(/^capabilities\[1\]: unknown capability "CAP_NOPE"/),
      },
    ]);
  });

  it("a top-level input's failure is unchanged", async () => {
    const { failures } = await runtime.identity.check(
      {},
      { ...identity, name: "x", claimMatch: { issuer: "https://issuer.example", subject: "x" } },
    );
    expect(failures).toEqual([
      { property: "name", reason: expect.stringMatching(/^must be 3 to 63 characters/) },
    ]);
  });

  it("names no input whose value holds key material, a secret or a long value", async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = privateKey.export({ format: "jwk" }) as { d: string };
    const keyed = await runtime.identity.check(
      {},
      {
        ...identity,
        staticKeys: {
          issuer: "https://k.example",
          subject: "s",
          issuerKeys: JSON.stringify({ keys: [jwk] }),
        },
      },
    );
    expect(keyed.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^staticKeys\.issuerKeys: /) },
    ]);
    expect(JSON.stringify(keyed.failures)).not.toContain(jwk.d);

    const long = await runtime.identity.check(
      {},
      { ...identity, claimMatch: { issuer: "http://issuer.example", subject: "s".repeat(300) } },
    );
    expect(long.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^claimMatch\.issuer: must be an https URL/) },
    ]);

    const secret = "inside-oidc-secret-7a2c";
    const idp = await runtime.idp.check(
      {},
      {
        parentUid: GROUP,
        name: "corp sso",
        defaultRole: "b".repeat(40),
        oidc: { issuer: "https://login.example.com", clientId: "c", clientSecret: secret },
        clientSecret: "outside",
      },
    );
    expect(idp.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^oidc\.clientSecret: is not an input here/) },
    ]);
  });
});
