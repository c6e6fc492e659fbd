/**
 * What an organisation looks like in the service, in words a test can compare:
 * groups with their parents, identities with their group and subject, bindings as
 * "identity is role on group". Read with the SDK from the repository's sources.
 */
import { IrmClient, parentOf } from "../sdk/index";

export interface OrgSnapshot {
  /** `name <- parent name`, sorted. */
  groups: string[];
  /** `name in group: subject`, sorted. */
  identities: string[];
  /** `identity is role on group`, sorted. */
  bindings: string[];
  /** Uids of every group, identity and binding below the root, except the seeded ones. */
  uids: string[];
}

const SEEDED_IDENTITIES = new Set(["bootstrap-owner", "platform-user"]);

/** Reads everything below the root organisation (seeded identities and their bindings left out). */
export async function readOrganisation(
  apiUrl: string,
  token: string,
  rootGroupUid: string,
): Promise<OrgSnapshot> {
  const client = new IrmClient({ baseUrl: apiUrl, token, retry: { retries: 0 } });
  const names = new Map<string, string>([[rootGroupUid, "ROOT"]]);
  const snapshot: OrgSnapshot = { groups: [], identities: [], bindings: [], uids: [] };

  const groups = [];
  for await (const group of client.iam.groups.list({ descendantsOf: rootGroupUid }))
    groups.push(group);
  for (const group of groups) names.set(group.uid, group.name);
  for (const group of groups) {
    snapshot.groups.push(`${group.name} <- ${names.get(parentOf(group.uid) ?? "")}`);
    snapshot.uids.push(group.uid);
  }
  for await (const identity of client.iam.identities.list({ descendantsOf: rootGroupUid })) {
    if (SEEDED_IDENTITIES.has(identity.name)) continue;
    snapshot.identities.push(
      `${identity.name} in ${names.get(parentOf(identity.uid) ?? "")}: ${identity.claimMatch?.subject ?? identity.claimMatch?.subjectPattern ?? "(no claim match)"}`,
    );
    snapshot.uids.push(identity.uid);
  }
  for await (const binding of client.iam.roleBindings.list({ descendantsOf: rootGroupUid })) {
    if (SEEDED_IDENTITIES.has(binding.identity.name)) continue;
    snapshot.bindings.push(
      `${binding.identity.name} is ${binding.role.name} on ${binding.group.name}`,
    );
    snapshot.uids.push(binding.uid);
  }
  for (const list of Object.values(snapshot)) list.sort();
  return snapshot;
}
