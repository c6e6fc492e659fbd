/**
 * Answers as they go out: an error as an AIP-193 body, a JSON or (a fault's) HTML
 * body, the `Date` header from the emulator's clock, and the wait until a change is
 * durable. The API's HTTP handler and the test controls' both answer through these.
 */
import type { ServerResponse } from "node:http";
import type { Clock } from "./clock";
import { ApiError } from "./errors";
import type { ApiResponse } from "./requests";

export function errorResponse(error: ApiError): ApiResponse {
  return { status: error.httpStatus, body: error.toBody(), headers: error.headers };
}

const HTML_GATEWAY_PAGE = (status: number): string =>
  `<!DOCTYPE html>\n<html><head><title>${status} Bad Gateway</title></head>` +
  `<body><center><h1>${status} Bad Gateway</h1></center><hr><center>proxy</center></body></html>\n`;

export interface SendVariant {
  truncate?: boolean;
  html?: boolean;
}

export function send(
  response: ServerResponse,
  result: ApiResponse,
  variant: SendVariant = {},
): void {
  if (variant.html) {
    const page = Buffer.from(HTML_GATEWAY_PAGE(result.status));
    response.writeHead(result.status, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": page.length,
    });
    response.end(page);
    return;
  }
  let payload = Buffer.from(JSON.stringify(result.body));
  // A cut-off body that still claims to be complete JSON, like a broken proxy's.
  if (variant.truncate) payload = payload.subarray(0, Math.floor(payload.length / 2));
  response.writeHead(result.status, {
    ...result.headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": payload.length,
  });
  response.end(payload);
}

/** `send` with a `Date` header from the emulator's clock, the one its timestamps use. */
export function reply(
  clock: Clock,
  response: ServerResponse,
  result: ApiResponse,
  variant?: SendVariant,
): void {
  response.setHeader("Date", clock.now().toUTCString());
  send(response, result, variant);
}

/** `result` once the changes so far are on disk; an error answer if they cannot be. */
export async function durably(
  commit: () => Promise<void>,
  result: ApiResponse,
): Promise<ApiResponse> {
  try {
    await commit();
    return result;
  } catch {
    // The store has logged why (without request data).
    return errorResponse(
      new ApiError("INTERNAL", "Internal: the change could not be saved to the data file"),
    );
  }
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  process.stderr.write(`emulator: internal error: ${describe(error)}\n`);
  return new ApiError("INTERNAL", "Internal: the emulator failed to handle the request");
}

export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
