/**
 * The one rule of what names this machine, for every check that relaxes something on
 * loopback (plain `http://` for the API and issuers, the emulator's test controls and
 * token endpoint): a literal loopback address (127.0.0.0/8, `::1`, `::ffff:127.x.y.z`)
 * or the name `localhost` itself. Other names, `*.localhost` among them, are not: a
 * resolver may send them to DNS, which may answer any address.
 */
import { isIP } from "node:net";

/** Whether `hostname` (a URL's hostname or a Host header's, IPv6 with or without brackets) is loopback. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost") return true;
  const version = isIP(name);
  if (version === 4) return name.startsWith("127.");
  if (version !== 6) return false;
  // The URL parser's canonical form: `0:0::1` is `::1`, `::ffff:127.0.0.1` is `::ffff:7f00:1`.
  const canonical = new URL(`http://[${name}]`).hostname.slice(1, -1);
  return canonical === "::1" || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canonical);
}
