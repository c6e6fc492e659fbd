/**
 * Who may call the test controls (`/emulator/*`), which mint owner tokens and change
 * the clock. They answer only:
 * - a `Host` that is an IP address or `localhost`: a web page that rebinds its own DNS
 *   name to 127.0.0.1 sends its name as `Host`, and is refused (DNS rebinding);
 * - no `Origin`, or one on a loopback host: a browser page of another site is refused;
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
import { ApiError } from "./errors";

/** Whether `hostname` (no port, IPv6 without brackets) names this machine. */
function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  return name === "::1" || name === "::ffff:127.0.0.1" || /^::ffff:127\./.test(name);
}

/** The host part of a `Host` header value (`h`, `h:port`, `[v6]:port`). */
function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(1, hostHeader.indexOf("]"));
  const colon = hostHeader.lastIndexOf(":");
  return colon < 0 ? hostHeader : hostHeader.slice(0, colon);
}

/** Where a refusal could be lifted, the one flag that lifts it. */
const OPEN_HINT = "(start the emulator with --open-controls to open them to the network)";

function refused(rule: string): ApiError {
  return new ApiError("PERMISSION_DENIED", `Permission denied: test controls ${rule}`);
}

/** Throws PERMISSION_DENIED when `request` may not use the test controls. */
export function checkControlCaller(request: IncomingMessage, openControls: boolean): void {
  const host = hostnameOf(request.headers.host ?? "");
  if (!openControls && (host === "" || !(isIP(host) !== 0 || isLoopbackName(host)))) {
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
    if (!isLoopbackName(originHost)) {
      throw refused("answer no web page of another origin");
    }
  }
  if (!openControls && !isLoopbackName(request.socket.remoteAddress ?? "")) {
    throw refused(`answer only loopback callers ${OPEN_HINT}`);
  }
}
