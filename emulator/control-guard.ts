/**
 * Who may call the test controls (`/emulator/*`), which mint owner tokens and change
 * the clock, and the test issuer's `POST /oidc/token`, whose tokens the built-in
 * `platform-user` identity accepts. They answer only:
 * - a `Host` (over HTTP/2, `:authority`) that is an IP address or `localhost`: a web
 *   page that rebinds its own DNS name to 127.0.0.1 sends its name, and is refused (DNS
 *   rebinding);
 * - no `Origin`, or one on a loopback host (a literal loopback address or `localhost`,
 *   not `*.localhost`: `sdk/core/loopback.ts`): a browser page of another site is refused;
 * - a peer on loopback: `--host 0.0.0.0` opens the API to the network, not the controls.
 * `openControls` (`--open-controls`) lifts the Host and peer rules: its user has opened
 * the controls to the network on purpose, and callers there name the emulator as they
 * reach it (a container's service name, `emulator:8787`). The Origin rule stays: no
 * browser page of another site drives them.
 * A refusal is PERMISSION_DENIED naming the rule and, where the flag would lift it, the
 * flag.
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { isLoopbackHost } from "../sdk/core/loopback";
import { ApiError } from "./errors";

/** The host part of a `Host` header value (`h`, `h:port`, `[v6]:port`). */
function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(1, hostHeader.indexOf("]"));
  const colon = hostHeader.lastIndexOf(":");
  return colon < 0 ? hostHeader : hostHeader.slice(0, colon);
}

/** Where a refusal could be lifted, the one flag that lifts it. */
const OPEN_HINT = "(start the emulator with --open-controls to open them to the network)";

/**
 * The authority a request names: over HTTP/2 its `:authority` (what the server and a
 * proxy route by), over HTTP/1.1 its `Host`. An HTTP/2 request whose `host` header
 * names another authority is refused: the two must not say different things.
 */
function authorityOf(request: IncomingMessage, refused: (rule: string) => ApiError): string {
  const authority = request.headers[":authority"];
  const host = request.headers.host;
  if (typeof authority === "string" && authority !== "") {
    if (host !== undefined && host !== authority) {
      throw refused("answer no request whose host header differs from its :authority");
    }
    return authority;
  }
  return host ?? "";
}

/**
 * Throws PERMISSION_DENIED when `request` may not use the test controls, or `what`
 * else follows the same rules (the test issuer's `POST /oidc/token`).
 */
export function checkControlCaller(
  request: IncomingMessage,
  openControls: boolean,
  what = "test controls",
): void {
  const refused = (rule: string) =>
    new ApiError("PERMISSION_DENIED", `Permission denied: ${what} ${rule}`);
  const host = hostnameOf(authorityOf(request, refused));
  if (!openControls && (host === "" || !(isIP(host) !== 0 || isLoopbackHost(host)))) {
    throw refused(`answer only a Host that is an IP address or localhost ${OPEN_HINT}`);
  }
  const origin = request.headers.origin;
  if (origin !== undefined) {
    let originHost = "";
    try {
      originHost = new URL(origin).hostname.replace(/^\[|\]$/g, "");
    } catch {
      // "null" (a sandboxed page) and anything unparsable: not loopback.
    }
    if (!isLoopbackHost(originHost)) {
      throw refused("answer no web page of another origin");
    }
  }
  if (!openControls && !isLoopbackHost(request.socket.remoteAddress ?? "")) {
    throw refused(`answer only loopback callers ${OPEN_HINT}`);
  }
}
