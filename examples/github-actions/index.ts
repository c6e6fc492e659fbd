/**
 * An identity for one GitHub Actions workflow and the role it gets.
 *
 * GitHub signs an OIDC token for every workflow run (issuer
 * `https://token.actions.githubusercontent.com`, subject `repo:<owner>/<repo>:ref:<ref>`
 * for a branch). The identity below accepts only tokens of this repository's branch;
 * the workflow trades its token for an API token at `{auth_url}/sts/exchange` (see
 * README.md), then acts with the role bound here, nothing more.
 */
import * as pulumi from "@pulumi/pulumi";
import * as irm from "pulumi-irm";

const config = new pulumi.Config();
/** The group the workflow deploys into (and where its identity lives). */
const groupUid = config.require("groupUid");
/** `owner/name` of the repository whose workflow may assume the identity. */
const repository = config.get("repository") ?? "acme/payments";
/** The only branch whose runs may assume it. */
const branch = config.get("branch") ?? "main";
/** Name of the role the workflow gets on the group. */
const roleName = config.get("roleName") ?? "editor";

export const issuer = "https://token.actions.githubusercontent.com";
export const subject = `repo:${repository}:ref:refs/heads/${branch}`;

const deployer = new irm.Identity("deployer", {
  parentUid: groupUid,
  name: `${repository.split("/")[1]}-deployer`,
  description: `GitHub Actions of ${repository}, branch ${branch}`,
  claimMatch: { issuer, subject },
});

const role = irm.getRole({ name: roleName });

new irm.RoleBinding("deployer-role", {
  groupUid,
  identityUid: deployer.uid,
  roleUid: role.then((r) => r.uid),
});

/** Put this in the workflow as `IRM_IDENTITY`. */
export const identityUid = deployer.uid;
/** What the binding grants, in words. */
export const grants = pulumi.interpolate`${deployer.name} is ${roleName} on group ${groupUid}`;
