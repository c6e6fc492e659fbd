/**
 * Prints an organisation as a tree: groups nested under their parents, each
 * group's identities with the roles they hold (role names, as the API hydrates
 * bindings). Used by the demo to show what a deployment produced.
 */
import type { Group, Identity, RoleBinding } from "../sdk/index";
import { IrmClient, parentOf } from "../sdk/index";

export interface Organisation {
  root: Group;
  groups: Group[];
  identities: Identity[];
  bindings: RoleBinding[];
}

/** Reads the root group and everything below it. */
export async function readOrganisation(
  apiUrl: string,
  token: string,
  rootGroupUid: string,
): Promise<Organisation> {
  const client = new IrmClient({ baseUrl: apiUrl, token });
  const below = { descendantsOf: rootGroupUid, orderBy: "name" };
  const organisation: Organisation = {
    root: await client.iam.groups.get(rootGroupUid),
    groups: [],
    identities: [],
    bindings: [],
  };
  for await (const group of client.iam.groups.list(below)) organisation.groups.push(group);
  for await (const identity of client.iam.identities.list(below))
    organisation.identities.push(identity);
  for await (const binding of client.iam.roleBindings.list(below))
    organisation.bindings.push(binding);
  return organisation;
}

/** What tokens an identity accepts, in a few words, whatever its kind. */
function accepts(identity: Identity): string {
  const match = identity.claimMatch;
  if (match) return match.subject ?? `subjects matching ${match.subjectPattern}`;
  if (identity.staticKeys) return `${identity.staticKeys.subject}, by registered keys`;
  if (identity.awsIdentity) return `AWS account ${identity.awsIdentity.awsAccount}`;
  return identity.servicePrincipal ?? "nothing";
}

/** The tree as lines of text, groups first then identities at each level, by name. */
export function renderOrganisation(org: Organisation): string[] {
  const lines = [`${org.root.name} (root organisation)`];
  const visit = (groupUid: string, indent: string) => {
    const groups = org.groups.filter((g) => parentOf(g.uid) === groupUid);
    const identities = org.identities.filter((i) => parentOf(i.uid) === groupUid);
    const entries = [
      ...groups.map((group) => ({ kind: "group" as const, group })),
      ...identities.map((identity) => ({ kind: "identity" as const, identity })),
    ];
    entries.forEach((entry, index) => {
      const last = index === entries.length - 1;
      const branch = last ? "└── " : "├── ";
      const childIndent = indent + (last ? "    " : "│   ");
      if (entry.kind === "group") {
        const description = entry.group.description ? ` - ${entry.group.description}` : "";
        lines.push(`${indent}${branch}[group] ${entry.group.name}${description}`);
        visit(entry.group.uid, childIndent);
      } else {
        const { identity } = entry;
        lines.push(`${indent}${branch}[identity] ${identity.name} (accepts ${accepts(identity)})`);
        const roles = org.bindings
          .filter((b) => b.identity.uid === identity.uid)
          .map((b) => `${b.role.name} on ${b.group.name}`)
          .sort();
        roles.forEach((role, roleIndex) => {
          lines.push(
            `${childIndent}${roleIndex === roles.length - 1 ? "└── " : "├── "}role ${role}`,
          );
        });
      }
    });
  };
  visit(org.root.uid, "");
  return lines;
}
