/**
 * The emulator's request log in terms of a program's resource names instead of random
 * uids, so lifecycle tests can assert exact requests: `POST /iam/v2beta1/groups/<engineering> 200`.
 */
import type { LogEntry } from "./emulator";

/** One log entry, with every known uid replaced by the name that owns it. */
export function describeRequest(entry: LogEntry, names: Map<string, string>): string {
  // Longest uids first, so a child's uid is not half-replaced by its parent's name.
  const uids = [...names.keys()].sort((a, b) => b.length - a.length);
  const rename = (text: string) =>
    uids.reduce((out, uid) => out.split(uid).join(names.get(uid) ?? uid), text);
  const query = entry.query ? `?${rename(decodeURIComponent(entry.query))}` : "";
  return `${entry.method} ${rename(decodeURIComponent(entry.path))}${query} ${entry.status}`;
}

/** The write requests (anything but GET) of a described request list. */
export function writesOf(requests: string[]): string[] {
  return requests.filter((request) => !request.startsWith("GET "));
}

/**
 * A preview's described requests in two parts: the program's lookups (each a List: a GET
 * with a query after a collection, `GET /iam/v2beta1/roles?name=viewer...`) and the
 * resources' (what their checks read, one object by uid; any write).
 */
export function lookupsApart(requests: string[]): { lookups: string[]; resources: string[] } {
  const isList = (request: string) => /^GET \/[a-z]+\/v[0-9a-z]+\/[A-Za-z]+\?/.test(request);
  return {
    lookups: requests.filter(isList),
    resources: requests.filter((request) => !isList(request)),
  };
}
