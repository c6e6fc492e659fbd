/**
 * The emulator verifies a token it has verified before without checking its signature
 * again, but only while the clock is within the token's validity: the answers, and the
 * errors outside that window, are those of a full verification.
 */
import { describe, expect, it } from "vitest";
import { TokenService } from "../../emulator/tokens";

const ORIGIN = "http://127.0.0.1:8787";
const T0 = new Date("2026-01-01T00:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe("API token verification", () => {
  it("answers the same identity each time while the token is valid", async () => {
    const tokens = await TokenService.create(ORIGIN);
    const token = await tokens.mintApiToken("a".repeat(40), 60, T0);
    expect(await tokens.verifyApiToken(token, T0)).toBe("a".repeat(40));
    expect(await tokens.verifyApiToken(token, at(59))).toBe("a".repeat(40));
  });

  it("refuses a token verified before once it has expired, as a first verification does", async () => {
    const tokens = await TokenService.create(ORIGIN);
    const token = await tokens.mintApiToken("a".repeat(40), 60, T0);
    const fresh = await TokenService.create(ORIGIN, tokens.savedKeys());
    await tokens.verifyApiToken(token, T0);
    const late = await tokens.verifyApiToken(token, at(60)).catch((e: Error) => e.message);
    const first = await fresh.verifyApiToken(token, at(60)).catch((e: Error) => e.message);
    expect(late).toMatch(/expired/);
    expect(late).toBe(first);
  });

  it("refuses a token verified before at a time before its start", async () => {
    const tokens = await TokenService.create(ORIGIN);
    const token = await tokens.mintApiToken("a".repeat(40), 60, at(100));
    await tokens.verifyApiToken(token, at(100));
    await expect(tokens.verifyApiToken(token, at(99))).rejects.toThrow(/nbf|not active|before/i);
  });

  it("refuses a token signed by another emulator, even with the same claims", async () => {
    const tokens = await TokenService.create(ORIGIN);
    const other = await TokenService.create(ORIGIN);
    await tokens.verifyApiToken(await tokens.mintApiToken("a".repeat(40), 60, T0), T0);
    const foreign = await other.mintApiToken("a".repeat(40), 60, T0);
    await expect(tokens.verifyApiToken(foreign, T0)).rejects.toThrow(/signature/);
  });
});
