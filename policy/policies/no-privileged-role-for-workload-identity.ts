/**
 * `irm-no-privileged-role-for-workload-identity`: a RoleBinding must not give a
 * privileged role to a workload identity, one that authenticates with an external
 * OIDC issuer (exact, by pattern, or with static keys) or as an AWS principal. A
 * leaked or mis-issued workload token would otherwise control the group and
 * everything below it. Service principals, which only platform services assume, are
 * not judged.
 *
 * A role is privileged by what it can do (`privilegedCapabilities`, see
 * `../privileged.ts`) or by its name (`privilegedRoles`). The role is found as
 * `IrmStack.roleOf` finds it: a `Role` of the stack, what the provider's check read of
 * it (`checkedRole`: a lookup or a literal uid), a built-in role's name. A binding this
 * preview creates or changes whose role cannot be judged is refused as "cannot be
 * judged yet" (`unknownRoleLevel`, default mandatory), never passed in silence.
 */
import { quoted, reportNotKnownYet, stackPolicy, stringList } from "../define";
import { POLICY_CARDS, POLICY_NAMES } from "../names";
import {
  capabilitySetting,
  judgeRole,
  PRIVILEGED_CAPABILITIES,
  type UnknownRoleLevel,
  unknownRoleLevelSchema,
} from "../privileged";

export interface NoPrivilegedRoleForWorkloadIdentityConfig {
  /** Role names a workload identity must not be given, whatever their capabilities. */
  privilegedRoles: string[];
  /** Capabilities (enum names) any one of which makes a role privileged. */
  privilegedCapabilities: string[];
  /** Issuers that are not external workload platforms (exempt from this policy). */
  exemptIssuers: string[];
  /** How a created or changed binding whose role's capabilities are not known is reported. */
  unknownRoleLevel: UnknownRoleLevel;
}

export const noPrivilegedRoleForWorkloadIdentityDefaults: NoPrivilegedRoleForWorkloadIdentityConfig =
  {
    privilegedRoles: ["owner"],
    privilegedCapabilities: [...PRIVILEGED_CAPABILITIES],
    exemptIssuers: [],
    unknownRoleLevel: "mandatory",
  };

/** A RoleBinding must not give a privileged role to a workload (external OIDC) identity. */
export const noPrivilegedRoleForWorkloadIdentity = stackPolicy({
  ...POLICY_CARDS.noPrivilegedRoleForWorkloadIdentity,
  defaults: noPrivilegedRoleForWorkloadIdentityDefaults,
  schema: {
    privilegedRoles: stringList(
      "Role names that must not be bound to an identity authenticating with an external OIDC issuer.",
    ),
    privilegedCapabilities: stringList(
      "Capabilities (enum names such as CAP_IAM_ROLE_BINDINGS_CREATE) any one of which makes a role privileged.",
    ),
    exemptIssuers: stringList(
      "OIDC issuers whose identities are not workloads and are exempt (exact issuer URLs).",
    ),
    unknownRoleLevel: unknownRoleLevelSchema(
      "created or changed RoleBinding of a workload identity",
    ),
  },
  validate: (stack, settings, report) => {
    const granting = capabilitySetting(
      POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity,
      "privilegedCapabilities",
      settings.privilegedCapabilities,
    );
    const exempt = new Set(settings.exemptIssuers);
    for (const binding of stack.bindings) {
      const auth = stack.identityAuthentication(binding);
      const issuer = auth.known ? auth.value.issuer : undefined;
      if (issuer !== undefined && (issuer === "" || exempt.has(issuer))) continue;
      const judged = judgeRole(
        stack.roleOf(binding, "roleUid"),
        settings.privilegedRoles,
        granting,
      );
      if (judged.kind === "unprivileged") continue;
      const identity = stack.name(binding, "identity");
      if (!auth.known) {
        const why = judged.kind === "unknown" ? `${judged.reason}; ${auth.reason}` : auth.reason;
        reportNotKnownYet(
          report,
          `RoleBinding '${binding.name}' cannot be checked for privileged roles yet: ${why}. ` +
            `It is checked again once the value is known (the next preview or update shows it).`,
          binding.urn,
        );
        continue;
      }
      if (judged.kind === "unknown") {
        const message =
          `RoleBinding '${binding.name}' cannot be judged yet: ${judged.reason}, and it gives that role to identity ` +
          `${quoted(identity, "(name not known yet)")}, which authenticates with ${auth.value.description}. `;
        if (stack.planned(binding) && settings.unknownRoleLevel === "mandatory") {
          report(
            `${message}Fix: take the role's uid from getRole/getRoleOutput, a literal uid or a Role resource of this stack, ` +
              `so that the preview knows its capabilities (or set unknownRoleLevel to advisory).`,
            binding.urn,
          );
        } else {
          reportNotKnownYet(
            report,
            `${message}It is checked again once the role is known.`,
            binding.urn,
          );
        }
        continue;
      }
      report(
        `RoleBinding '${binding.name}' gives ${judged.why} to identity ${quoted(identity, "(name not known yet)")}, ` +
          `which authenticates with ${auth.value.description}. ` +
          `Fix: bind a narrower role (a built-in role such as 'editor' or 'viewer', or a custom role with only the capabilities the workload needs).`,
        binding.urn,
      );
    }
  },
});
