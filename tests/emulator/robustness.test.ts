/** Bad input of every kind answers an AIP-193 error, never a crash, a hang or a 500. */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, enc, reasonOf } from "../support/emulator-http";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let owner: Caller;

beforeAll(async () => {
  emu = await startTestEmulator();
  owner = caller(emu.url, emu.token);
});
afterAll(() => emu.close());

/** Sends a path exactly as written (fetch would normalise `..`). */
function rawGet(path: string, token: string): Promise<{ status: number; body: Json }> {
  const { hostname, port } = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, path, method: "GET", headers: { authorization: `Bearer ${token}` } },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Json }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

function expectAip193(body: Json, code: number): void {
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe("string");
  expect(reasonOf(body)).toBeTruthy();
}

describe("request bodies", () => {
  const create = (options: Parameters<Caller>[2]) =>
    owner<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, options);

  it("malformed JSON is INVALID_ARGUMENT on body", async () => {
    const reply = await create({
      rawBody: '{"name": "x",',
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("Invalid argument: body: is not valid JSON");
    expectAip193(reply.body, 3);
  });

  it("a body that is JSON but not an object is INVALID_ARGUMENT", async () => {
    for (const rawBody of ["[1,2]", "42", '"name"', "null"]) {
      const reply = await create({ rawBody, headers: { "content-type": "application/json" } });
      expect(reply.status, rawBody).toBe(400);
      expect(reply.body.message).toBe("Invalid argument: body: must be a JSON object");
    }
  });

  it("a non-JSON content type is INVALID_ARGUMENT", async () => {
    const reply = await create({
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(reply.status).toBe(400);
    expect(String(reply.body.message)).toMatch(
      /^Invalid argument: body: Content-Type must be application\/json/,
    );
  });

  it("a body over 1 MiB is INVALID_ARGUMENT and the emulator keeps serving", async () => {
    const reply = await create({ body: { name: "big", description: "x".repeat(2 * 1024 * 1024) } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("Invalid argument: body: must not exceed 1048576 bytes");
    expect((await owner("GET", "/iam/v2beta1/groups")).status).toBe(200);
  });

  it("unknown fields are ignored", async () => {
    const reply = await create({ body: { name: "extra-fields", color: "blue", nested: { a: 1 } } });
    expect(reply.status).toBe(200);
    expect(reply.body).not.toHaveProperty("color");
  });

  it("wrong field types on update name the field", async () => {
    const group = (await create({ body: { name: "typed" } })).body;
    const reply = await owner<Json>("PATCH", `/iam/v2beta1/groups/${group.uid}`, {
      body: { description: ["no"] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("Invalid argument: description: must be a string");
  });
});

describe("paths and parameters", () => {
  it("a uid with %2F for its slashes reaches the same group", async () => {
    const group = (
      await owner<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
        body: { name: "encoded" },
      })
    ).body;
    const reply = await owner<Json>("GET", `/iam/v2beta1/groups/${enc(group.uid as string)}`);
    expect(reply.status).toBe(200);
    expect(reply.body.uid).toBe(group.uid);
  });

  it.each([
    `/iam/v2beta1/groups/../../v1/groups`,
    `/iam/v2beta1/groups/%2E%2E%2F%2E%2E%2Fetc`,
    `/iam/v2beta1/groups/ROOT%2F..%2Fx`,
    `/iam/v2beta1/groups/%zz`,
    `/iam/v2beta1/groups/abc//def`,
  ])("%s is INVALID_ARGUMENT, not a crash", async (path) => {
    const reply = await rawGet(path, emu.token);
    expect(reply.status).toBe(400);
    expectAip193(reply.body, 3);
  });

  it("an unknown path is NOT_FOUND and an unsupported method UNIMPLEMENTED, both AIP-193", async () => {
    const unknown = await owner<Json>("GET", "/iam/v2beta1/widgets");
    expect(unknown.status).toBe(404);
    expectAip193(unknown.body, 5);
    const root = await owner<Json>("GET", "/");
    expect(root.status).toBe(404);
    const put = await owner<Json>("PUT", `/iam/v2beta1/groups/${emu.rootGroupUid}`, { body: {} });
    expect(put.status).toBe(501);
    expectAip193(put.body, 12);
  });

  it("odd query parameters: unknown ones are ignored, repeated ones take the first value", async () => {
    const reply = await owner<{ groups: Json[] }>(
      "GET",
      "/iam/v2beta1/groups?colour=red&page_size=1&page_size=2&&=&x",
    );
    expect(reply.status).toBe(200);
    expect(reply.body.groups).toHaveLength(1);
    const huge = await owner<Json>("GET", "/iam/v2beta1/groups?skip=99999999999999999999");
    expect(huge.status).toBe(400);
    expectAip193(huge.body, 3);
  });

  it("none of the above left the emulator broken", async () => {
    expect((await owner("GET", `/iam/v2beta1/groups/${emu.rootGroupUid}`)).status).toBe(200);
    const log = await emu.requests();
    expect(log.some((entry) => entry.status >= 500 && entry.status !== 501)).toBe(false);
  });
});
