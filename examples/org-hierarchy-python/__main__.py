"""The org-hierarchy example (../org-hierarchy) in Python, on the native plugin.

An `engineering` group under the root organisation, one group per team (teams can
nest), one identity per team for its CI workload, and role bindings whose roles are
looked up by name. The team list below is what a pipeline edits.
"""

import pulumi
import pulumi_irm as irm

TEAMS = [
    {
        "name": "platform",
        "description": "Build and runtime infrastructure",
        "repository": "acme/platform",
        "ci_role": "editor",
    },
    {
        "name": "payments",
        "description": "Card and ledger services",
        "repository": "acme/payments",
        "ci_role": "editor",
    },
    {
        "name": "payments-api",
        "parent": "payments",
        "description": "Public payments API",
        "repository": "acme/payments-api",
        "ci_role": "viewer",
    },
]

config = pulumi.Config()
# The root organisation group (the emulator's bootstrap file holds it as rootGroupUid).
root_group_uid = config.require("rootGroupUid")
ci_issuer = config.get("ciIssuer") or "https://token.actions.githubusercontent.com"
shared_repo_name = config.get("sharedRepo") or "internal-api"

engineering = irm.Group(
    "engineering",
    parent_uid=root_group_uid,
    name="engineering",
    description="All engineering teams",
)

# Roles are looked up by name once; bindings take their uids.
role_uids: dict[str, str] = {}


def role_uid(name: str) -> str:
    if name not in role_uids:
        role_uids[name] = irm.get_role(name=name).uid
    return role_uids[name]


groups: dict[str, irm.Group] = {}
identities: dict[str, irm.Identity] = {}
for team in TEAMS:
    parent = groups[team["parent"]] if "parent" in team else engineering
    group = irm.Group(
        team["name"],
        parent_uid=parent.uid,
        name=team["name"],
        description=team["description"],
    )
    ci = irm.Identity(
        f"{team['name']}-ci",
        parent_uid=group.uid,
        name=f"{team['name']}-ci",
        description=f"CI of {team['repository']} (main branch)",
        claim_match=irm.IdentityClaimMatchArgs(
            issuer=ci_issuer,
            subject=f"repo:{team['repository']}:ref:refs/heads/main",
        ),
    )
    irm.RoleBinding(
        f"{team['name']}-ci-{team['ci_role']}",
        group_uid=group.uid,
        identity_uid=ci.uid,
        role_uid=role_uid(team["ci_role"]),
    )
    groups[team["name"]] = group
    identities[team["name"]] = ci

# Every team's CI pulls the shared repository: `registry.pull` on the group that owns
# it (a repository's uid is its group's uid plus one segment).
shared_repo = irm.get_repo(name=shared_repo_name, group_uid=root_group_uid)
shared_repo_group_uid = shared_repo.uid.rsplit("/", 1)[0]
for team_name, ci in identities.items():
    irm.RoleBinding(
        f"{team_name}-ci-pull-{shared_repo_name}",
        group_uid=shared_repo_group_uid,
        identity_uid=ci.uid,
        role_uid=role_uid("registry.pull"),
    )

pulumi.export(
    "groupUids",
    {"engineering": engineering.uid, **{name: g.uid for name, g in groups.items()}},
)
pulumi.export("sharedRepository", {"uid": shared_repo.uid, "name": shared_repo.name})
