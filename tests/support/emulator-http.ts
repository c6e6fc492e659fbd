/** A tiny HTTP caller for black-box emulator tests: raw status, headers and JSON. */

export interface Reply<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. */
  token?: string | null;
  body?: unknown;
  /** Raw body text (sent as is). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export type Caller = <T = Record<string, unknown>>(
  method: string,
  path: string,
  options?: CallOptions,
) => Promise<Reply<T>>;

export function caller(baseUrl: string, defaultToken: string | null): Caller {
  return async <T>(method: string, path: string, options: CallOptions = {}) => {
    const token = options.token === undefined ? defaultToken : options.token;
    const headers: Record<string, string> = { ...options.headers };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };
}

/** The `reason` of the ErrorInfo detail of an AIP-193 body. */
export function reasonOf(body: unknown): string | undefined {
  const details = (body as { details?: Array<Record<string, unknown>> }).details ?? [];
  const info = details.find((detail) => String(detail["@type"]).endsWith("google.rpc.ErrorInfo"));
  return info?.reason as string | undefined;
}

export const enc = encodeURIComponent;
