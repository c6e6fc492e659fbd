/**
 * A realistic organisation declared in code: an `engineering` group under the root
 * organisation, one group per team (teams can nest), one identity per team for its
 * CI workload, and role bindings whose roles are looked up by name. The team list
 * below is what a GitOps pipeline edits: add a line to add a team, remove it to
 * remove the team with its identity and bindings.
 */
import * as pulumi from "@pulumi/pulumi";
import * as irm from "pulumi-irm";

interface Team {
  /** Group name; also names the team's CI identity (`<name>-ci`). */
  name: string;
  description: string;
  /** Name of the team this one nests under; top-level teams sit under `engineering`. */
  parent?: string;
  /** The GitHub repository whose `main` branch deploys for this team. */
  repository: string;
  /** Role the team's CI identity gets on the team's group. */
  ciRole: string;
}

const teams: Team[] = [
  {
    name: "platform",
    description: "Build and runtime infrastructure",
    repository: "acme/platform",
    ciRole: "editor",
  },
  {
    name: "payments",
    description: "Card and ledger services",
    repository: "acme/payments",
    ciRole: "editor",
  },
  {
    name: "payments-api",
    parent: "payments",
    description: "Public payments API",
    repository: "acme/payments-api",
    ciRole: "viewer",
  },
];

const config = new pulumi.Config();
/** The root organisation group (the emulator's bootstrap file holds it as `rootGroupUid`). */
const rootGroupUid = config.require("rootGroupUid");
/** Issuer of the CI tokens the team identities accept. */
const ciIssuer = config.get("ciIssuer") ?? "https://token.actions.githubusercontent.com";
/** A registry repository every team's CI may pull from. */
const sharedRepoName = config.get("sharedRepo") ?? "internal-api";

const engineering = new irm.Group("engineering", {
  parentUid: rootGroupUid,
  name: "engineering",
  description: "All engineering teams",
});

// Roles are looked up by name once; bindings take their uids.
const roleUids = new Map<string, Promise<string>>();
function roleUid(name: string): Promise<string> {
  let uid = roleUids.get(name);
  if (uid === undefined) {
    uid = irm.getRole({ name }).then((role) => role.uid);
    roleUids.set(name, uid);
  }
  return uid;
}

const groups = new Map<string, irm.Group>();
const identities = new Map<string, irm.Identity>();
/** Who may do what where, in words, one line per binding, from the declared objects. */
const grants: pulumi.Output<string>[] = [];

for (const team of teams) {
  const parent = team.parent === undefined ? engineering : groups.get(team.parent);
  if (parent === undefined)
    throw new Error(`team ${team.name}: parent team ${team.parent} must be listed before it`);
  const group = new irm.Group(team.name, {
    parentUid: parent.uid,
    name: team.name,
    description: team.description,
  });
  const ci = new irm.Identity(`${team.name}-ci`, {
    parentUid: group.uid,
    name: `${team.name}-ci`,
    description: `CI of ${team.repository} (main branch)`,
    claimMatch: { issuer: ciIssuer, subject: `repo:${team.repository}:ref:refs/heads/main` },
  });
  new irm.RoleBinding(`${team.name}-ci-${team.ciRole}`, {
    groupUid: group.uid,
    identityUid: ci.uid,
    roleUid: roleUid(team.ciRole),
  });
  grants.push(pulumi.interpolate`${ci.name} is ${team.ciRole} on ${group.name}`);
  groups.set(team.name, group);
  identities.set(team.name, ci);
}

// Every team's CI pulls the shared repository: grant `registry.pull` on the group
// that owns it (a repository's uid is its group's uid plus one segment).
const sharedRepo = irm.getRepo({ name: sharedRepoName, groupUid: rootGroupUid });
const sharedRepoGroupUid = sharedRepo.then((repo) => repo.uid.slice(0, repo.uid.lastIndexOf("/")));
for (const [teamName, ci] of identities) {
  new irm.RoleBinding(`${teamName}-ci-pull-${sharedRepoName}`, {
    groupUid: sharedRepoGroupUid,
    identityUid: ci.uid,
    roleUid: roleUid("registry.pull"),
  });
  grants.push(
    pulumi.interpolate`${ci.name} is registry.pull on the group holding ${sharedRepoName}`,
  );
}

/** Uid of each group, by name: what other stacks and tools refer to. */
export const groupUids = pulumi.output(
  Object.fromEntries([
    ["engineering", engineering.uid],
    ...[...groups].map(([name, g]) => [name, g.uid]),
  ]),
);
/** For each CI pipeline: the identity to assume and the token subject it must present. */
export const ciIdentities = pulumi.output(
  Object.fromEntries(
    [...identities].map(([name, ci]) => [
      name,
      { uid: ci.uid, subject: ci.claimMatch.apply((match) => match?.subject) },
    ]),
  ),
);
/** Who may do what where, in words (the declared names: they follow every rename). */
export const access = pulumi.all(grants);
/** The shared repository the CI identities may pull. */
export const sharedRepository = sharedRepo.then((repo) => ({ uid: repo.uid, name: repo.name }));
