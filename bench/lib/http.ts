/** Bare undici calls: the floor that SDK and provider timings are compared with. */
import { type Dispatcher, request } from "undici";

export interface BareResponse {
  status: number;
  body: unknown;
}

/** One request with a bearer token and a JSON body; the answer parsed as JSON. */
export async function bareCall(
  dispatcher: Dispatcher,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  token: string,
  body?: unknown,
): Promise<BareResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await request(url, {
    method,
    dispatcher,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text === "" ? undefined : JSON.parse(text) };
}

/** Like {@link bareCall}, but fails on anything but 200 (a benchmark must not time errors). */
export async function bareOk<T>(
  dispatcher: Dispatcher,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  token: string,
  body?: unknown,
): Promise<T> {
  const answer = await bareCall(dispatcher, method, url, token, body);
  if (answer.status !== 200) {
    throw new Error(`${method} ${new URL(url).pathname}: HTTP ${answer.status}`);
  }
  return answer.body as T;
}
