/**
 * The token exchange on the wire, against a scripted stand-in: a POST to
 * `{auth_url}/sts/exchange` with an `application/x-www-form-urlencoded` body (`aud`,
 * `identity`) and the OIDC token as bearer, as the service's gateway reads it; an
 * answer may carry `refreshToken` and `expiry` beside `token`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BadResponseError, IrmClient } from "../../sdk";
import { failure } from "../support/sdk-helpers";
import { json, StandIn } from "../support/sdk-stand-in";

const IDENTITY = `${"a".repeat(40)}/0123456789abcdef`;

let standIn: StandIn;
const clients: IrmClient[] = [];
beforeAll(async () => {
  standIn = await new StandIn().start();
});
afterEach(async () => {
  standIn.reset();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(() => standIn.close());

function exchangingClient(): IrmClient {
  const client = new IrmClient({
    baseUrl: `${standIn.baseUrl}/api`,
    authUrl: `${standIn.baseUrl}/auth`,
    identity: IDENTITY,
    oidcToken: async () => "oidc-token-of-the-workload",
    env: {},
    retry: { retries: 0 },
  });
  clients.push(client);
  return client;
}

describe("token exchange", () => {
  it("POSTs aud and identity as a form, with the OIDC token as bearer", async () => {
    standIn.answer(
      json({ token: "api-token-1", refreshToken: "refresh-1", expiry: "2026-11-26T01:00:00Z" }),
      json({ groups: [], totalCount: "0" }),
    );
    await exchangingClient().iam.groups.list();
    const [exchange, list] = standIn.seen;
    expect(exchange).toMatchObject({
      method: "POST",
      path: "/auth/sts/exchange",
      rawQuery: "",
      contentType: "application/x-www-form-urlencoded",
      authorization: "Bearer oidc-token-of-the-workload",
      body: { aud: `${standIn.baseUrl}/api`, identity: IDENTITY },
    });
    expect(list).toMatchObject({ method: "GET", authorization: "Bearer api-token-1" });
  });

  it("accepts the unpopulated members of the official answer", async () => {
    standIn.answer(
      json({ token: "api-token-2", refreshToken: "", expiry: null }),
      json({ groups: [], totalCount: "0" }),
    );
    await exchangingClient().iam.groups.list();
    expect(standIn.seen[1].authorization).toBe("Bearer api-token-2");
  });

  it.each([
    [{ token: "t", refreshToken: 7 }, '"refreshToken" is a number'],
    [{ token: "t", expiry: "tomorrow" }, '"expiry" is not a timestamp'],
    [{ refreshToken: "r" }, '"token" is missing'],
  ])("refuses %j", async (answer, message) => {
    standIn.answer(json(answer));
    const error = await failure(
      exchangingClient()
        .iam.groups.list()
        .then((p) => p),
    );
    expect(error).toBeInstanceOf(BadResponseError);
    expect((error as Error).message).toContain(message);
    expect(standIn.seen).toHaveLength(1);
  });
});
