/** The SDK's event subscriptions: one request per verb, answers checked for shape. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { BadResponseError, InvalidArgumentError, IrmClient, NotFoundError } from "../../sdk";
import { rejection, useFakeApi } from "../support/fake-api";
import { clientFor, closeClients, requestLines } from "../support/sdk-helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(() => emu.clearRequests());

describe("events.subscriptions", () => {
  it("create, get, list, delete: one request each", async () => {
    const { client } = clientFor(emu);
    const group = await client.iam.groups.create(emu.rootGroupUid, { name: "sdk-hooks" });
    await emu.clearRequests();
    const made = await client.events.subscriptions.create(group.uid, {
      sink: "https://hooks.example.com/sdk",
    });
    expect(made).toEqual({
      uid: expect.stringMatching(/\//),
      sink: "https://hooks.example.com/sdk",
    });
    expect(await client.events.subscriptions.get(made.uid)).toEqual(made);
    const page = await client.events.subscriptions.list({ childrenOf: group.uid });
    expect(page.items).toEqual([made]);
    await client.events.subscriptions.delete(made.uid);
    expect(await requestLines(emu)).toEqual([
      `POST /events/v2beta1/subscriptions/${group.uid} -> 200`,
      `GET /events/v2beta1/subscriptions/${made.uid} -> 200`,
      `GET /events/v2beta1/subscriptions?uidp.children_of=${encodeURIComponent(group.uid)} -> 200`,
      `DELETE /events/v2beta1/subscriptions/${made.uid} -> 200`,
    ]);
    expect(await rejection(client.events.subscriptions.get(made.uid))).toBeInstanceOf(
      NotFoundError,
    );
    expect(
      await rejection(client.events.subscriptions.create(group.uid, { sink: "http://plain" })),
    ).toBeInstanceOf(InvalidArgumentError);
  });

  describe("answers checked for shape", () => {
    let answer: unknown = {};
    const api = useFakeApi((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
    const uid = `${"a".repeat(40)}/${"b".repeat(16)}`;

    it("a subscription without a sink, or with a huge one, is a BadResponseError", async () => {
      const client = new IrmClient({
        baseUrl: api.url,
        token: "t",
        env: {},
        retry: { retries: 0 },
      });
      for (const bad of [{ uid }, { uid, sink: 3 }, { uid, sink: `https://${"x".repeat(9000)}` }]) {
        answer = bad;
        const error = await rejection(client.events.subscriptions.get(uid));
        expect(error).toBeInstanceOf(BadResponseError);
        expect(error.message).toContain("subscription.sink");
      }
      await client.close();
    });
  });
});
