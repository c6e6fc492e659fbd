/**
 * Bad input at the HTTP level, across every route of the emulator: malformed and
 * non-object JSON, huge and deeply nested bodies, wrong content types, invalid UTF-8,
 * odd query parameters, path traversal and malformed percent-encoding in uids, unknown
 * methods, and broken requests below HTTP. Every answer must be an AIP-193 error (never
 * a crash, a hang or a 500), and the emulator must keep serving afterwards.
 */
import { request as httpRequest } from "node:http";
import * as net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";

interface RawReply {
  status: number;
  text: string;
  body: unknown;
}

let emu: TestEmulator;
let groupUid: string;
let identityUid: string;
let bindingUid: string;

/** Sends exactly the method, path, headers and bytes given (fetch would normalise paths). */
function send(
  method: string,
  path: string,
  options: { body?: string | Buffer; headers?: Record<string, string>; token?: string | null } = {},
): Promise<RawReply> {
  const { hostname, port } = new URL(emu.url);
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? emu.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, text, body });
      });
    });
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** An AIP-193 error: numeric code, message, and an ErrorInfo with reason and domain. */
function expectAip193Error(reply: RawReply, context: string): void {
  expect(reply.status, `${context}: status`).toBeGreaterThanOrEqual(400);
  // Never an internal error; 501 (UNIMPLEMENTED) is the honest answer to an unknown method.
  expect(reply.status === 500 || reply.status > 501, `${context}: ${reply.text}`).toBe(false);
  const body = reply.body as { code?: unknown; message?: unknown; details?: unknown };
  expect(typeof body?.code, `${context}: ${reply.text.slice(0, 200)}`).toBe("number");
  expect(typeof body.message).toBe("string");
  expect((body.message as string).length, `${context}: message stays short`).toBeLessThan(600);
  const details = body.details as Array<Record<string, unknown>>;
  const info = details.find((d) => String(d["@type"]).endsWith("google.rpc.ErrorInfo"));
  expect(info?.reason, context).toBeTruthy();
  expect(info?.domain, context).toBeTruthy();
}

beforeAll(async () => {
  emu = await startTestEmulator();
  const json = { "content-type": "application/json" };
  const group = await send("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
    headers: json,
    body: JSON.stringify({ name: "bad input target" }),
  });
  groupUid = (group.body as { uid: string }).uid;
  const identity = await send("POST", `/iam/v2beta1/identities/${groupUid}`, {
    headers: json,
    body: JSON.stringify({ name: "target", claimMatch: { issuer: emu.issuer, subject: "t" } }),
  });
  identityUid = (identity.body as { uid: string }).uid;
  const roles = await send("GET", "/iam/v2beta1/roles?name=viewer");
  const viewer = (roles.body as { roles: Array<{ uid: string }> }).roles[0].uid;
  const binding = await send("POST", `/iam/v2beta1/roleBindings/${groupUid}`, {
    headers: json,
    body: JSON.stringify({ identityUid, roleUid: viewer }),
  });
  bindingUid = (binding.body as { uid: string }).uid;
  await emu.clearRequests();
});

afterAll(async () => {
  // Nothing above may have broken the emulator or produced an internal error.
  const check = await send("GET", `/iam/v2beta1/groups/${groupUid}`);
  expect(check.status).toBe(200);
  const internal = (await emu.requests()).filter((e) => e.status >= 500 && e.status !== 501);
  expect(internal).toEqual([]);
  await emu.close();
});

/** Every write route, with a target that exists. */
const writeTargets = (): Array<[string, string, string]> => [
  ["create group", "POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`],
  ["update group", "PATCH", `/iam/v2beta1/groups/${groupUid}`],
  ["create identity", "POST", `/iam/v2beta1/identities/${groupUid}`],
  ["update identity", "PATCH", `/iam/v2beta1/identities/${identityUid}`],
  ["create role", "POST", `/iam/v2beta1/roles/${groupUid}`],
  ["create binding", "POST", `/iam/v2beta1/roleBindings/${groupUid}`],
  ["update binding", "PATCH", `/iam/v2beta1/roleBindings/${bindingUid}`],
];

const BAD_BODIES: Array<[string, string | Buffer, string]> = [
  ["truncated JSON", '{"name": "x"', "application/json"],
  ["trailing garbage", '{"name": "x"} {}', "application/json"],
  ["single quotes", "{'name': 'x'}", "application/json"],
  ["an array", '["name"]', "application/json"],
  ["a string", '"name"', "application/json"],
  ["a number", "42", "application/json"],
  ["null", "null", "application/json"],
  ["deeply nested", `${"[".repeat(200_000)}${"]".repeat(200_000)}`, "application/json"],
  [
    "2 MiB",
    JSON.stringify({ name: "x", description: "d".repeat(2 * 1024 * 1024) }),
    "application/json",
  ],
  // A valid JSON shape whose description holds bytes that are not UTF-8.
  [
    "invalid UTF-8",
    Buffer.concat([
      Buffer.from('{"name":"x","description":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]),
    "application/json",
  ],
  ["form encoded", "name=x", "application/x-www-form-urlencoded"],
  ["plain text", '{"name": "x"}', "text/plain"],
  ["XML", "<group><name>x</name></group>", "application/xml"],
  ["multipart", "--b\r\n\r\nx\r\n--b--", "multipart/form-data; boundary=b"],
];

const WRONG_FIELD_TYPES: Array<[string, string, string, unknown]> = [
  ["group name a number", "POST", "groups", { name: 42 }],
  ["group name an object", "POST", "groups", { name: { en: "x" } }],
  ["group description an array", "POST", "groups", { name: "xyz", description: ["d"] }],
  ["group name a NUL", "POST", "groups", { name: "x\u0000" }],
  ["identity claimMatch a string", "POST", "identities", { name: "xyz", claimMatch: "iss" }],
  [
    "identity claimMatch.subject a number",
    "POST",
    "identities",
    { name: "x", claimMatch: { issuer: "https://i.example", subject: 1 } },
  ],
  ["binding identityUid an array", "POST", "roleBindings", { identityUid: [], roleUid: "x" }],
  ["binding roleUid an object", "POST", "roleBindings", { identityUid: "x", roleUid: {} }],
  [
    "role capabilities a string",
    "POST",
    "roles",
    { name: "r", capabilities: "CAP_IAM_GROUPS_LIST" },
  ],
  ["role capabilities unknown", "POST", "roles", { name: "r", capabilities: ["root.everything"] }],
];

describe("request bodies on every write route", () => {
  for (const [what, body, contentType] of BAD_BODIES) {
    it(`${what}: INVALID_ARGUMENT on every write route`, async () => {
      for (const [route, method, path] of writeTargets()) {
        const reply = await send(method, path, { body, headers: { "content-type": contentType } });
        expectAip193Error(reply, `${route} with ${what}`);
        expect(reply.status, `${route} with ${what}`).toBe(400);
      }
    });
  }

  it.each(WRONG_FIELD_TYPES)(
    "%s: INVALID_ARGUMENT naming the field",
    async (_what, method, collection, body) => {
      const target = collection === "groups" ? emu.rootGroupUid : groupUid;
      const reply = await send(method, `/iam/v2beta1/${collection}/${target}`, {
        body: JSON.stringify(body),
        headers: { "content-type": "application/json" },
      });
      expectAip193Error(reply, _what);
      expect(reply.status).toBe(400);
      expect((reply.body as { message: string }).message).toMatch(/^Invalid argument: [\w.]+: /);
    },
  );

  it("a PATCH with an unknown, empty or NUL update mask is refused naming update_mask", async () => {
    for (const mask of ["unknown", "name,,description", "%00", "uid", "createTime", "*.*"]) {
      const reply = await send("PATCH", `/iam/v2beta1/groups/${groupUid}?updateMask=${mask}`, {
        body: JSON.stringify({ name: "renamed" }),
        headers: { "content-type": "application/json" },
      });
      expectAip193Error(reply, `updateMask=${mask}`);
      expect((reply.body as { message: string }).message, mask).toMatch(/update_?mask/i);
    }
  });
});

/** Every list route. */
const LIST_ROUTES = [
  "/iam/v2beta1/groups",
  "/iam/v2beta1/identities",
  "/iam/v2beta1/roles",
  "/iam/v2beta1/roleBindings",
  "/registry/v2beta1/repos",
  "/registry/v2beta1/tags",
  "/vulnerabilities/v2beta1/advisories",
];

const BAD_QUERIES: Array<[string, string]> = [
  ["negative page_size", "page_size=-1"],
  ["non-numeric page_size", "page_size=ten"],
  ["fractional page_size", "page_size=1.5"],
  ["overflowing page_size", "page_size=99999999999999999999999"],
  ["exponent page_size", "page_size=1e3"],
  ["negative skip", "skip=-5"],
  ["non-numeric skip", "skip=abc"],
  ["unknown order_by field", "order_by=password"],
  ["order_by with SQL", "order_by=name%3B%20DROP%20TABLE%20groups"],
  ["order_by with two directions", "order_by=name%20desc%20asc"],
  ["garbage page_token", "page_token=not-a-token"],
  ["huge page_token", `page_token=${"A".repeat(50_000)}`],
  ["traversal in a scope filter", "uidp.descendants_of=..%2F..%2Fetc"],
  ["NUL in a scope filter", "uidp.children_of=%00"],
];

describe("odd query parameters on every list", () => {
  it.each(BAD_QUERIES)("%s: INVALID_ARGUMENT on every list route", async (what, query) => {
    for (const route of LIST_ROUTES) {
      const reply = await send("GET", `${route}?${query}`);
      expectAip193Error(reply, `${route}?${what}`);
      // 431 when the URL itself is too large for the HTTP parser.
      expect([400, 431], `${route} ${what}: ${reply.text.slice(0, 200)}`).toContain(reply.status);
    }
  });

  it("harmless oddities are accepted: unknown parameters, repeats, unicode and NUL in a name filter", async () => {
    for (const query of [
      "colour=blue",
      "page_size=5&page_size=500",
      "name=%E2%80%AE",
      "name=%00",
      "name=",
      "name=%ZZ",
    ]) {
      for (const route of LIST_ROUTES) {
        const reply = await send("GET", `${route}?${query}`);
        expect(reply.status, `${route}?${query}: ${reply.text.slice(0, 200)}`).toBe(200);
      }
    }
  });
});

const BAD_UIDS: Array<[string, string]> = [
  ["dot-dot segments", "../../../etc/passwd"],
  ["encoded dot-dot", "%2e%2e%2f%2e%2e%2fetc"],
  ["encoded slashes around dot-dot", "ROOT%2F..%2F..%2Fx"],
  ["backslashes", "..\\..\\windows"],
  ["a NUL", "ROOT%00"],
  ["malformed percent-encoding", "ROOT%ZZ"],
  ["an empty segment", "ROOT//0123456789abcdef"],
  ["a trailing slash", "ROOT/"],
  ["a dot segment", "ROOT/./0123456789abcdef"],
  ["unicode", "%E2%80%AEROOT"],
  ["10,000 characters", "f".repeat(10_000)],
];

describe("path traversal and malformed uids on every route that takes one", () => {
  const routes = (uid: string): Array<[string, string]> => [
    ["GET", `/iam/v2beta1/groups/${uid}`],
    ["PATCH", `/iam/v2beta1/groups/${uid}`],
    ["DELETE", `/iam/v2beta1/groups/${uid}`],
    ["POST", `/iam/v2beta1/groups/${uid}`],
    ["GET", `/iam/v2beta1/identities/${uid}`],
    ["DELETE", `/iam/v2beta1/identities/${uid}`],
    ["GET", `/iam/v2beta1/roles/${uid}`],
    ["PATCH", `/iam/v2beta1/roleBindings/${uid}`],
    ["DELETE", `/iam/v2beta1/roleBindings/${uid}`],
    ["GET", `/registry/v2beta1/repos/${uid}`],
    ["GET", `/registry/v2beta1/tags/${uid}`],
    ["GET", `/vulnerabilities/v2beta1/advisories/${uid}`],
  ];

  it.each(BAD_UIDS)("%s: an AIP-193 error, and nothing changes", async (_what, template) => {
    const uid = template.replace("ROOT", emu.rootGroupUid);
    await emu.clearRequests();
    const before = await send("GET", `/iam/v2beta1/groups?uidp.descendants_of=${emu.rootGroupUid}`);
    for (const [method, path] of routes(uid)) {
      const reply = await send(method, path, {
        body: method === "GET" || method === "DELETE" ? undefined : JSON.stringify({ name: "x" }),
        headers: { "content-type": "application/json" },
      });
      expectAip193Error(reply, `${method} ${path.slice(0, 120)}`);
      expect(reply.status, `${method} ${path.slice(0, 120)}`).not.toBe(200);
    }
    const after = await send("GET", `/iam/v2beta1/groups?uidp.descendants_of=${emu.rootGroupUid}`);
    expect(after.body).toEqual(before.body);
  });
});

describe("methods, headers and broken requests", () => {
  it("unknown methods and paths answer AIP-193 errors", async () => {
    const cases: Array<[string, string]> = [
      ["PUT", `/iam/v2beta1/groups/${groupUid}`],
      ["OPTIONS", "/iam/v2beta1/groups"],
      ["TRACE", "/iam/v2beta1/groups"],
      ["DELETE", "/iam/v2beta1/groups"],
      ["POST", "/registry/v2beta1/repos"],
      ["PATCH", "/iam/v1/groups"],
      ["GET", "/iam/v3/groups"],
      ["GET", "/iam/v2beta1/nothing"],
      ["GET", "/"],
      ["GET", "/emulator/../iam/v2beta1/groups"],
      ["POST", "/sts/exchange"],
    ];
    for (const [method, path] of cases) {
      expectAip193Error(await send(method, path), `${method} ${path}`);
    }
  });

  it("a body on a GET or DELETE is ignored or refused, never a crash", async () => {
    const reply = await send("GET", `/iam/v2beta1/groups/${groupUid}`, {
      body: "{{{{",
      headers: { "content-type": "application/json" },
    });
    expect([200, 400]).toContain(reply.status);
    if (reply.status !== 200) expectAip193Error(reply, "GET with a broken body");
  });

  it("a request that is not HTTP, or whose headers overflow, is closed or refused without harm", async () => {
    const { hostname, port } = new URL(emu.url);
    for (const garbage of [
      "HELLO\r\n\r\n",
      "GET /iam/v2beta1/groups HTTP/9.9\r\n\r\n",
      `GET /iam/v2beta1/groups HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`,
      "POST /iam/v2beta1/groups HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ]) {
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), hostname, () => socket.end(garbage));
        let text = "";
        socket.setEncoding("utf8");
        socket.on("data", (chunk: string) => {
          text += chunk;
        });
        socket.on("close", () => resolve(text));
        socket.on("error", () => resolve(text));
      });
      // Refused before any handler runs (or simply closed): never a 5xx, and an AIP-193 body.
      if (answer === "") continue;
      expect(answer).toMatch(/^HTTP\/1\.1 (400|431) /);
      const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { code: number };
      expect(body.code).toBe(3);
    }
    const check = await send("GET", `/iam/v2beta1/groups/${groupUid}`);
    expect(check.status).toBe(200);
  });
});
