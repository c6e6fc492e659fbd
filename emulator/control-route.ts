/**
 * The test controls' HTTP handler, mounted beside the API's (server.ts sends it every
 * path under `/emulator/`): the caller is checked first (control-guard.ts), then the
 * body is read and the control run (controls.ts). No token, never logged, and every
 * answer waits until its change is durable, as the API's do.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readRequestBody } from "./body";
import { checkControlCaller } from "./control-guard";
import { type ControlDeps, handleControl } from "./controls";
import { durably, errorResponse, reply, toApiError } from "./replies";
import type { ApiRequest, ApiResponse } from "./requests";

export interface ControlRouteDeps extends ControlDeps {
  /** Resolves once every change made so far is durable (`--data`). */
  commit: () => Promise<void>;
  /** Test controls answer callers beyond loopback too (`--open-controls`). */
  openControls?: boolean;
}

/** `/emulator` and every path below it: the controls' paths, never the API's. */
export function isControlPath(rawPath: string): boolean {
  return rawPath === "/emulator" || rawPath.startsWith("/emulator/");
}

export function createControlHandler(deps: ControlRouteDeps) {
  const { ctx, log, faults, rateLimiter } = deps;
  return async (
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    query: string,
  ): Promise<void> => {
    let result: ApiResponse;
    try {
      checkControlCaller(request, deps.openControls === true);
      const parsed: ApiRequest = {
        method: request.method ?? "GET",
        path,
        query: new URLSearchParams(query),
        ...(await readRequestBody(request, response)),
      };
      result = await handleControl({ ctx, log, faults, rateLimiter }, parsed);
    } catch (error) {
      result = errorResponse(toApiError(error));
    }
    result = await durably(deps.commit, result);
    reply(ctx.clock, response, result);
  };
}
