/**
 * Bad input to the SDK's verbs: uids that would break out of their collection's path
 * are refused before any request; anything else odd (encoded dots, query or fragment
 * characters, unicode, wrong list parameters) reaches the service only inside the
 * collection's own path and comes back as a typed error, never a crash.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { InvalidPathError, IrmClient, IrmError } from "../../../sdk/index";

let emu: TestEmulator;
let client: IrmClient;

beforeAll(async () => {
  emu = await startTestEmulator();
  client = new IrmClient({ baseUrl: emu.url, token: emu.token, retry: { retries: 0 } });
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
});

/** Every SDK verb that takes a uid, with the path prefix its requests must stay under. */
function verbs(): Array<[string, string, (uid: string) => Promise<unknown>]> {
  const { groups, identities, roles, roleBindings } = client.iam;
  return [
    ["CAP_IAM_GROUPS_LIST", "/iam/v2beta1/groups/", (uid) => groups.get(uid)],
    ["CAP_IAM_GROUPS_CREATE", "/iam/v2beta1/groups/", (uid) => groups.create(uid, { name: "x" })],
    ["CAP_IAM_GROUPS_UPDATE", "/iam/v2beta1/groups/", (uid) => groups.update(uid, { name: "x" })],
    ["CAP_IAM_GROUPS_DELETE", "/iam/v2beta1/groups/", (uid) => groups.delete(uid)],
    ["CAP_IAM_IDENTITY_LIST", "/iam/v2beta1/identities/", (uid) => identities.get(uid)],
    ["CAP_IAM_IDENTITY_DELETE", "/iam/v2beta1/identities/", (uid) => identities.delete(uid)],
    ["CAP_IAM_ROLES_LIST", "/iam/v2beta1/roles/", (uid) => roles.get(uid)],
    [
      "CAP_IAM_ROLE_BINDINGS_DELETE",
      "/iam/v2beta1/roleBindings/",
      (uid) => roleBindings.delete(uid),
    ],
    ["CAP_REPO_LIST", "/registry/v2beta1/repos/", (uid) => client.registry.repos.get(uid)],
    ["CAP_TAG_LIST", "/registry/v2beta1/tags/", (uid) => client.registry.tags.get(uid)],
    [
      "CAP_ADVISORIES_LIST",
      "/vulnerabilities/v2beta1/advisories/",
      (uid) => client.vulnerabilities.advisories.get(uid),
    ],
  ];
}

describe("uids that would leave their collection are refused before any request", () => {
  const refused = ["", "..", "../groups", "a/../../b", "a/./b", "a//b", "/absolute", "trailing/"];
  it.each(refused)("%j", async (uid) => {
    await emu.clearRequests();
    for (const [verb, , call] of verbs()) {
      const error = await call(uid).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, `${verb}(${JSON.stringify(uid)})`).toBeInstanceOf(InvalidPathError);
    }
    expect(await emu.requests()).toEqual([]);
  });

  it("a uid of the wrong type is refused too", async () => {
    await emu.clearRequests();
    for (const value of [42, null, undefined, { uid: "x" }]) {
      await expect(client.iam.groups.get(value as unknown as string)).rejects.toBeInstanceOf(
        InvalidPathError,
      );
    }
    expect(await emu.requests()).toEqual([]);
  });
});

describe("odd but addressable uids stay inside their collection", () => {
  const odd = ["%2e%2e", "a?skip=1", "a#frag", "équipe", "\u202eabc", "a b", "x".repeat(2000)];
  it.each(odd)("%j: a typed error from the service, under the collection's path", async (uid) => {
    for (const [verb, prefix, call] of verbs()) {
      await emu.clearRequests();
      const error = await call(uid).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, verb).toBeInstanceOf(IrmError);
      const log = await emu.requests();
      expect(log.length, verb).toBe(1);
      expect(log[0].path.startsWith(prefix), `${verb}: ${log[0].path.slice(0, 80)}`).toBe(true);
      expect(log[0].status, verb).toBeLessThan(500);
    }
  });
});

describe("list parameters of the wrong kind", () => {
  it("come back as INVALID_ARGUMENT naming the parameter, or are refused locally", async () => {
    // The parameter as the SDK takes it, a bad value, and its name on the wire.
    const cases: Array<[string, unknown, string]> = [
      ["pageSize", -1, "page_size"],
      ["pageSize", "ten", "page_size"],
      ["skip", -3, "skip"],
      ["orderBy", "password desc", "order_by"],
      ["pageToken", "forged", "page_token"],
      ["descendantsOf", "../..", "uidp.descendants_of"],
    ];
    for (const [name, value, wireName] of cases) {
      const error = await client.iam.groups.list({ [name]: value } as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(Error);
      const text =
        error instanceof IrmError
          ? `${error.message} ${error.fieldViolations.map((v) => v.field).join(" ")}`
          : String(error);
      if (error instanceof IrmError) expect(error.codeName, name).toBe("INVALID_ARGUMENT");
      expect(text.includes(wireName) || text.includes(name), `${name}: ${text}`).toBe(true);
    }
  });
});
