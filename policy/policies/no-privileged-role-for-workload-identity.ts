/**
 * `irm-no-privileged-role-for-workload-identity`: a RoleBinding must not give a
 * privileged role to a workload identity, one that authenticates with an external
 * OIDC issuer (exact, by pattern, or with static keys) or as an AWS principal. A
 * leaked or mis-issued workload token would otherwise control the group and
 * everything below it. Service principals, which only platform services assume, are
 * not judged.
 */
import { quoted, reasonsOf, reportNotKnownYet, stackPolicy, stringList } from "../define";
import { POLICY_NAMES } from "../names";

export interface NoPrivilegedRoleForWorkloadIdentityConfig {
  /** Role names a workload identity must not be given. */
  privilegedRoles: string[];
  /** Issuers that are not external workload platforms (exempt from this policy). */
  exemptIssuers: string[];
}

export const noPrivilegedRoleForWorkloadIdentityDefaults: NoPrivilegedRoleForWorkloadIdentityConfig =
  { privilegedRoles: ["owner"], exemptIssuers: [] };

/** A RoleBinding must not give a privileged role to a workload (external OIDC) identity. */
export const noPrivilegedRoleForWorkloadIdentity = stackPolicy({
  name: POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity,
  description:
    "A RoleBinding must not give a privileged role (default: owner) to an identity that authenticates with an external OIDC issuer.",
  enforcementLevel: "mandatory",
  severity: "critical",
  defaults: noPrivilegedRoleForWorkloadIdentityDefaults,
  schema: {
    privilegedRoles: stringList(
      "Role names that must not be bound to an identity authenticating with an external OIDC issuer.",
    ),
    exemptIssuers: stringList(
      "OIDC issuers whose identities are not workloads and are exempt (exact issuer URLs).",
    ),
  },
  validate: (stack, settings, report) => {
    const privileged = new Set(settings.privilegedRoles);
    const exempt = new Set(settings.exemptIssuers);
    for (const binding of stack.bindings) {
      const auth = stack.identityAuthentication(binding);
      const issuer = auth.known ? auth.value.issuer : undefined;
      if (issuer !== undefined && (issuer === "" || exempt.has(issuer))) continue;
      const role = stack.name(binding, "role");
      if (role.known && !privileged.has(role.value)) continue;
      const identity = stack.name(binding, "identity");
      if (!auth.known || !role.known) {
        reportNotKnownYet(
          report,
          `RoleBinding '${binding.name}' cannot be checked for privileged roles yet: ${reasonsOf(role, auth)}. ` +
            `It is checked again once the value is known (the next preview or update shows it).`,
          binding.urn,
        );
        continue;
      }
      report(
        `RoleBinding '${binding.name}' gives the privileged role '${role.value}' to identity ${quoted(identity, "(name not known yet)")}, ` +
          `which authenticates with ${auth.value.description}. ` +
          `Fix: bind a narrower role (a built-in role such as 'editor' or 'viewer', or a custom role with only the capabilities the workload needs).`,
        binding.urn,
      );
    }
  },
});
