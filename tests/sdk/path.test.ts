import { describe, expect, it } from "vitest";
import { IrmClient } from "../../sdk";
import { buildUpdateMask, encodeUid, InvalidPathError, resourcePath } from "../../sdk/core/path";

const ROOT = "a".repeat(40);

describe("paths", () => {
  it("keeps the slashes of a child uid as path separators, never %2F", () => {
    const uid = `${ROOT}/0123456789abcdef/fedcba9876543210`;
    expect(resourcePath("/iam/v2beta1/groups", uid)).toBe(`/iam/v2beta1/groups/${uid}`);
  });

  it("percent-encodes each segment on its own", () => {
    expect(encodeUid("a b/c?d#e/%")).toBe("a%20b/c%3Fd%23e/%25");
  });

  it.each(["", "/", `${ROOT}/`, `/${ROOT}`, `${ROOT}//x`, `${ROOT}/./x`, `${ROOT}/..`, ".."])(
    "rejects %j before any request",
    (uid) => {
      expect(() => resourcePath("/iam/v2beta1/groups", uid)).toThrow(InvalidPathError);
    },
  );

  it("names the argument in the error", () => {
    expect(() => resourcePath("/x", "", "parentUid")).toThrow(/parentUid/);
  });
});

describe("update masks", () => {
  it("joins field paths with commas and drops duplicates", () => {
    expect(buildUpdateMask(["name", "description", "name"])).toBe("name,description");
    expect(buildUpdateMask(["claimMatch.subject"])).toBe("claimMatch.subject");
    expect(buildUpdateMask(["*"])).toBe("*");
  });

  it.each([[[]], [["name,description"]], [["na me"]], [[""]], [["a..b"]]])(
    "rejects %j",
    (paths) => {
      expect(() => buildUpdateMask(paths)).toThrow(InvalidPathError);
    },
  );
});

describe("mask typing", () => {
  it("accepts a mask computed at run time as string[]", async () => {
    const client = new IrmClient({ baseUrl: "http://127.0.0.1:1", env: {}, retry: { retries: 0 } });
    const computed: string[] = ["description"];
    // Compiles (the contract's `updateMask?: string[]`); fails only at the network.
    await expect(
      client.iam.groups.update("a".repeat(40), { description: "d" }, { updateMask: computed }),
    ).rejects.toMatchObject({ name: "ConnectionError" });
    await client.close();
  });
});
