/**
 * Guard rails for IRM groups, identities and role bindings, as `@pulumi/policy`
 * policies. Each policy comes from a factory so a platform team can change its
 * enforcement level or default settings and compose its own pack; `irmPolicies()`
 * returns the six together, as the shipped `irm-guardrails` pack uses them.
 *
 * The policies match resources by type token and read plain props: they never load
 * the provider, so a pack built from them runs without the provider's runtime.
 * Only types are imported from `@pulumi/policy`, so importing this module does not
 * need the (optional) peer dependency installed.
 */
import type {
  EnforcementLevel,
  Policies,
  PolicyConfigSchema,
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import { type Fact, IRM_TYPES, IrmStack } from "./stack";
import { readString, UNKNOWN } from "./values";

export { type Fact, IRM_TYPES, IrmStack } from "./stack";
export { isUnknownSentinel, readPath, readString, UNKNOWN } from "./values";

/** Name of the shipped pack. */
export const PACK_NAME = "irm-guardrails";

/** The policies' names, as they appear in reports and in the pack's configuration. */
export const POLICY_NAMES = {
  noPrivilegedRoleForWorkloadIdentity: "irm-no-privileged-role-for-workload-identity",
  rootGroupBindingAllowList: "irm-root-group-binding-allow-list",
  identityIssuerAllowList: "irm-identity-issuer-allow-list",
  noBroadIdentitySubject: "irm-no-broad-identity-subject",
  noDuplicateRoleBinding: "irm-no-duplicate-role-binding",
  groupDescriptionRequired: "irm-group-description-required",
} as const;

/** Issuer of GitHub Actions OIDC tokens (github.com). */
export const GITHUB_ACTIONS_ISSUER = "https://token.actions.githubusercontent.com";

/** How a factory's policy may be adjusted when composing a pack. */
export interface PolicyOptions<Config> {
  /** Replaces the policy's default enforcement level. */
  enforcementLevel?: EnforcementLevel;
  /** Replaces default settings; the pack's configuration still overrides these. */
  config?: Partial<Config>;
}

/** Anything that carries the pack's configuration for one policy. */
interface ConfigSource {
  getConfig<T extends object>(): T;
}

/** Defaults first, then the factory's overrides, then the pack's configuration. */
function settingsOf<Config extends object>(
  defaults: Config,
  overrides: Partial<Config> | undefined,
  source: ConfigSource,
): Config {
  const configured = source.getConfig<Partial<Config>>();
  const settings = { ...defaults };
  for (const layer of [overrides ?? {}, configured]) {
    for (const [key, value] of Object.entries(layer)) {
      if (value !== undefined) (settings as Record<string, unknown>)[key] = value;
    }
  }
  return settings;
}

/** Shape of the object form of `reportViolation` (see `reportNotKnownYet`). */
interface AdvisoryNote {
  message: string;
  urn?: string;
  enforcementLevel: "advisory";
}

/**
 * Reports that a check cannot be made yet, at advisory level whatever the policy's
 * level, so that a mandatory policy never blocks a preview only because a value
 * will be known after the update. `@pulumi/policy`'s analyzer accepts an object
 * with its own `enforcementLevel` in `reportViolation`, though its type only names
 * the string form; the end-to-end test over gRPC checks that this stays true.
 */
function reportNotKnownYet(report: ReportViolation, message: string, urn: string): void {
  const reportNote = report as unknown as (note: AdvisoryNote) => void;
  reportNote({ message, urn, enforcementLevel: "advisory" });
}

const quoted = (fact: Fact<string>, fallback: string): string =>
  fact.known ? `'${fact.value}'` : fallback;

const reasonsOf = (...facts: Fact<unknown>[]): string =>
  facts
    .flatMap((fact) => (fact.known ? [] : [fact.reason]))
    .filter((reason, index, all) => all.indexOf(reason) === index)
    .join("; ");

const stringList = (description: string, defaults: string[]) => ({
  type: "array" as const,
  items: { type: "string" as const },
  default: defaults,
  description,
});

// ---------------------------------------------------------------------------------
// 1. No privileged role for a workload identity.

export interface NoPrivilegedRoleForWorkloadIdentityConfig {
  /** Role names a workload identity must not be given. */
  privilegedRoles: string[];
  /** Issuers that are not external workload platforms (exempt from this policy). */
  exemptIssuers: string[];
}

export const noPrivilegedRoleForWorkloadIdentityDefaults: NoPrivilegedRoleForWorkloadIdentityConfig =
  { privilegedRoles: ["owner"], exemptIssuers: [] };

const noPrivilegedRoleForWorkloadIdentitySchema: PolicyConfigSchema = {
  properties: {
    privilegedRoles: stringList(
      "Role names that must not be bound to an identity authenticating with an external OIDC issuer.",
      noPrivilegedRoleForWorkloadIdentityDefaults.privilegedRoles,
    ),
    exemptIssuers: stringList(
      "OIDC issuers whose identities are not workloads and are exempt (exact issuer URLs).",
      noPrivilegedRoleForWorkloadIdentityDefaults.exemptIssuers,
    ),
  },
};

/** A RoleBinding must not give a privileged role to a workload (external OIDC) identity. */
export function noPrivilegedRoleForWorkloadIdentity(
  options: PolicyOptions<NoPrivilegedRoleForWorkloadIdentityConfig> = {},
): StackValidationPolicy {
  return {
    name: POLICY_NAMES.noPrivilegedRoleForWorkloadIdentity,
    description:
      "A RoleBinding must not give a privileged role (default: owner) to an identity that authenticates with an external OIDC issuer.",
    enforcementLevel: options.enforcementLevel ?? "mandatory",
    severity: "critical",
    configSchema: noPrivilegedRoleForWorkloadIdentitySchema,
    validateStack: (args: StackValidationArgs, report: ReportViolation) => {
      const settings = settingsOf(
        noPrivilegedRoleForWorkloadIdentityDefaults,
        options.config,
        args,
      );
      const privileged = new Set(settings.privilegedRoles);
      const exempt = new Set(settings.exemptIssuers);
      const stack = new IrmStack(args.resources);
      for (const binding of stack.bindings) {
        const issuer = stack.identityIssuer(binding);
        if (issuer.known && (issuer.value === "" || exempt.has(issuer.value))) continue;
        const role = stack.name(binding, "role");
        if (role.known && !privileged.has(role.value)) continue;
        const identity = stack.name(binding, "identity");
        if (!issuer.known || !role.known) {
          reportNotKnownYet(
            report,
            `RoleBinding '${binding.name}' cannot be checked for privileged roles yet: ${reasonsOf(role, issuer)}. ` +
              `It is checked again once the value is known (the next preview or update shows it).`,
            binding.urn,
          );
          continue;
        }
        report(
          `RoleBinding '${binding.name}' gives the privileged role '${role.value}' to identity ${quoted(identity, "(name not known yet)")}, ` +
            `which authenticates with the external OIDC issuer ${issuer.value}. ` +
            `Fix: bind a narrower role (a built-in role such as 'editor' or 'viewer', or a custom role with only the capabilities the workload needs).`,
          binding.urn,
        );
      }
    },
  };
}

// ---------------------------------------------------------------------------------
// 2. Bindings on the root organisation group need an explicit allow-list.

/** One allowed binding on the root organisation group. */
export interface RootGroupBindingAllowance {
  /** Name of the identity. */
  identity: string;
  /** Name of the role; absent or `*` allows any role for that identity. */
  role?: string;
}

export interface RootGroupBindingAllowListConfig {
  allowedBindings: RootGroupBindingAllowance[];
}

export const rootGroupBindingAllowListDefaults: RootGroupBindingAllowListConfig = {
  allowedBindings: [],
};

const rootGroupBindingAllowListSchema: PolicyConfigSchema = {
  properties: {
    allowedBindings: {
      type: "array",
      description:
        "Bindings allowed on the root organisation group, by identity name and role name (a missing role or '*' allows any role).",
      items: {
        type: "object",
        properties: { identity: { type: "string" }, role: { type: "string" } },
        required: ["identity"],
        additionalProperties: false,
      },
      default: [],
    },
  },
};

/** A RoleBinding on the root organisation group must be on an explicit allow-list. */
export function rootGroupBindingAllowList(
  options: PolicyOptions<RootGroupBindingAllowListConfig> = {},
): StackValidationPolicy {
  return {
    name: POLICY_NAMES.rootGroupBindingAllowList,
    description:
      "A RoleBinding on the root organisation group grants its role on the whole organisation and needs an explicit allow-list entry.",
    enforcementLevel: options.enforcementLevel ?? "advisory",
    severity: "high",
    configSchema: rootGroupBindingAllowListSchema,
    validateStack: (args: StackValidationArgs, report: ReportViolation) => {
      const settings = settingsOf(rootGroupBindingAllowListDefaults, options.config, args);
      const stack = new IrmStack(args.resources);
      for (const binding of stack.bindings) {
        const onRoot = stack.groupIsRoot(binding);
        if (!onRoot.known) {
          reportNotKnownYet(
            report,
            `RoleBinding '${binding.name}' cannot be checked for the root organisation group yet: ${onRoot.reason}.`,
            binding.urn,
          );
          continue;
        }
        if (!onRoot.value) continue;
        const identity = stack.name(binding, "identity");
        const role = stack.name(binding, "role");
        const where = `the root organisation group ${stack.groupUid(binding) ?? ""}`.trimEnd();
        if (settings.allowedBindings.length > 0) {
          if (!identity.known || !role.known) {
            reportNotKnownYet(
              report,
              `RoleBinding '${binding.name}' is on ${where} and cannot be matched against allowedBindings yet: ${reasonsOf(identity, role)}.`,
              binding.urn,
            );
            continue;
          }
          const allowed = settings.allowedBindings.some(
            (entry) =>
              entry.identity === identity.value &&
              (entry.role === undefined || entry.role === "*" || entry.role === role.value),
          );
          if (allowed) continue;
        }
        const entry =
          identity.known && role.known
            ? `{ "identity": "${identity.value}", "role": "${role.value}" }`
            : "an entry for it";
        report(
          `RoleBinding '${binding.name}' gives role ${quoted(role, "(name not known yet)")} to identity ${quoted(identity, "(name not known yet)")} on ${where}, ` +
            `which grants it on every group of the organisation. Fix: bind it on the child group that needs it, ` +
            `or add ${entry} to 'allowedBindings' of policy ${POLICY_NAMES.rootGroupBindingAllowList}.`,
          binding.urn,
        );
      }
    },
  };
}

// ---------------------------------------------------------------------------------
// 3. Identity issuers come from an allow-list and use https.

export interface IdentityIssuerAllowListConfig {
  /** Exact issuer URLs identities may trust. */
  allowedIssuers: string[];
  /** Accepts `http://` issuers on loopback addresses (the local emulator's issuer). */
  allowHttpLoopback: boolean;
}

export const identityIssuerAllowListDefaults: IdentityIssuerAllowListConfig = {
  allowedIssuers: [GITHUB_ACTIONS_ISSUER],
  allowHttpLoopback: false,
};

const identityIssuerAllowListSchema: PolicyConfigSchema = {
  properties: {
    allowedIssuers: stringList(
      "Exact OIDC issuer URLs that identities may trust.",
      identityIssuerAllowListDefaults.allowedIssuers,
    ),
    allowHttpLoopback: {
      type: "boolean",
      default: false,
      description: "Accept http:// issuers on 127.0.0.1, localhost or [::1] (local emulator only).",
    },
  },
};

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** An Identity's `claimMatch.issuer` must be an allowed https URL. */
export function identityIssuerAllowList(
  options: PolicyOptions<IdentityIssuerAllowListConfig> = {},
): ResourceValidationPolicy {
  return {
    name: POLICY_NAMES.identityIssuerAllowList,
    description: "An Identity must trust an https OIDC issuer from the allow-list.",
    enforcementLevel: options.enforcementLevel ?? "mandatory",
    severity: "high",
    configSchema: identityIssuerAllowListSchema,
    validateResource: (args: ResourceValidationArgs, report: ReportViolation) => {
      if (args.type !== IRM_TYPES.identity) return;
      // Absent or not known yet: nothing to judge (the provider's check refuses a missing issuer).
      const issuer = readString(args.props, "claimMatch", "issuer");
      if (issuer === UNKNOWN || issuer === undefined) return;
      const settings = settingsOf(identityIssuerAllowListDefaults, options.config, args);
      let url: URL;
      try {
        url = new URL(issuer);
      } catch {
        report(
          `Identity '${args.name}' has claimMatch.issuer '${issuer}', which is not a URL. Fix: set the issuer's https URL, e.g. ${GITHUB_ACTIONS_ISSUER}.`,
        );
        return;
      }
      const loopbackHttp =
        settings.allowHttpLoopback && url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
      if (url.protocol !== "https:" && !loopbackHttp) {
        report(
          `Identity '${args.name}' trusts the issuer ${issuer} over ${url.protocol.replace(":", "")}; its signing keys could be tampered with in transit. Fix: use the issuer's https URL.`,
        );
      }
      if (!settings.allowedIssuers.includes(issuer)) {
        report(
          `Identity '${args.name}' trusts the issuer ${issuer}, which is not in the allow-list (${settings.allowedIssuers.join(", ") || "empty"}). ` +
            `Fix: use an allowed issuer, or add this exact URL to 'allowedIssuers' of policy ${POLICY_NAMES.identityIssuerAllowList}.`,
        );
      }
    },
  };
}

// ---------------------------------------------------------------------------------
// 4. No overly broad subjects.

export interface NoBroadIdentitySubjectConfig {
  /** Issuers whose subjects follow GitHub Actions' `repo:OWNER/REPO:...` format. */
  githubActionsIssuers: string[];
}

export const noBroadIdentitySubjectDefaults: NoBroadIdentitySubjectConfig = {
  githubActionsIssuers: [GITHUB_ACTIONS_ISSUER],
};

const noBroadIdentitySubjectSchema: PolicyConfigSchema = {
  properties: {
    githubActionsIssuers: stringList(
      "Issuers of GitHub Actions tokens (github.com's, plus any GitHub Enterprise Server issuer).",
      noBroadIdentitySubjectDefaults.githubActionsIssuers,
    ),
  },
};

/** `repo:OWNER/REPO:` followed by the rest of a GitHub Actions subject. */
const GITHUB_SUBJECT = /^repo:([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+):(.+)$/;
/** The rest pins a git ref (`ref:refs/heads/main`) or a deployment environment. */
const GITHUB_PINNED_CONTEXT = /^(ref:refs\/\S+|environment:[^:]+)$/;

/** An Identity's `claimMatch.subject` must not be a wildcard, and must pin repository and ref/environment for GitHub Actions. */
export function noBroadIdentitySubject(
  options: PolicyOptions<NoBroadIdentitySubjectConfig> = {},
): ResourceValidationPolicy {
  return {
    name: POLICY_NAMES.noBroadIdentitySubject,
    description:
      "An Identity's subject must not use wildcards; for GitHub Actions it must pin a repository and a ref or an environment.",
    enforcementLevel: options.enforcementLevel ?? "mandatory",
    severity: "high",
    configSchema: noBroadIdentitySubjectSchema,
    validateResource: (args: ResourceValidationArgs, report: ReportViolation) => {
      if (args.type !== IRM_TYPES.identity) return;
      const subject = readString(args.props, "claimMatch", "subject");
      if (subject === UNKNOWN || subject === undefined) return;
      if (subject.includes("*")) {
        report(
          `Identity '${args.name}' matches the subject '${subject}', a wildcard: any token of its issuer with a matching subject could assume it. ` +
            `Fix: set the exact subject of the one workload that needs it.`,
        );
        return;
      }
      const settings = settingsOf(noBroadIdentitySubjectDefaults, options.config, args);
      const issuer = readString(args.props, "claimMatch", "issuer");
      if (typeof issuer !== "string" || !settings.githubActionsIssuers.includes(issuer)) return;
      const parts = GITHUB_SUBJECT.exec(subject);
      if (!parts) {
        report(
          `Identity '${args.name}' trusts GitHub Actions but its subject '${subject}' does not pin a repository. ` +
            `Fix: use 'repo:OWNER/REPO:ref:refs/heads/BRANCH' or 'repo:OWNER/REPO:environment:NAME'.`,
        );
        return;
      }
      if (!GITHUB_PINNED_CONTEXT.test(parts[3])) {
        report(
          `Identity '${args.name}' trusts GitHub Actions for repository ${parts[1]}/${parts[2]} in context '${parts[3]}', which pins neither a ref nor an environment. ` +
            `Fix: use 'repo:${parts[1]}/${parts[2]}:ref:refs/heads/BRANCH' or 'repo:${parts[1]}/${parts[2]}:environment:NAME'.`,
        );
      }
    },
  };
}

// ---------------------------------------------------------------------------------
// 5. No duplicate binding in a stack.

/** This policy has no settings besides its enforcement level. */
export type NoDuplicateRoleBindingConfig = Record<string, never>;

/** Two RoleBindings of a stack must not connect the same identity, role and group. */
export function noDuplicateRoleBinding(
  options: Omit<PolicyOptions<NoDuplicateRoleBindingConfig>, "config"> = {},
): StackValidationPolicy {
  return {
    name: POLICY_NAMES.noDuplicateRoleBinding,
    description:
      "Two RoleBindings in a stack must not bind the same identity to the same role in the same group.",
    enforcementLevel: options.enforcementLevel ?? "mandatory",
    severity: "medium",
    configSchema: { properties: {} },
    validateStack: (args: StackValidationArgs, report: ReportViolation) => {
      const stack = new IrmStack(args.resources);
      const firstOfKey = new Map<string, PolicyResource>();
      for (const binding of stack.bindings) {
        const ends = [
          stack.endKey(binding, "identity"),
          stack.endKey(binding, "role"),
          stack.endKey(binding, "group"),
        ];
        // An end that cannot be told apart yet cannot be a known duplicate.
        if (ends.some((end) => end === undefined)) continue;
        const key = ends.join("\n");
        const first = firstOfKey.get(key);
        if (!first) {
          firstOfKey.set(key, binding);
          continue;
        }
        report(
          `RoleBinding '${binding.name}' duplicates RoleBinding '${first.name}': both bind identity ${quoted(stack.name(binding, "identity"), "(same identity)")} ` +
            `to role ${quoted(stack.name(binding, "role"), "(same role)")} in group ${quoted(stack.name(binding, "group"), "(same group)")}. ` +
            `The API refuses the second one (ALREADY_EXISTS). Fix: remove one of them.`,
          binding.urn,
        );
      }
    },
  };
}

// ---------------------------------------------------------------------------------
// 6. Groups carry a description.

export interface GroupDescriptionRequiredConfig {
  /** Minimum length of the description, blanks at either end not counted. */
  minLength: number;
}

export const groupDescriptionRequiredDefaults: GroupDescriptionRequiredConfig = { minLength: 1 };

/** A Group should say what it is for. */
export function groupDescriptionRequired(
  options: PolicyOptions<GroupDescriptionRequiredConfig> = {},
): ResourceValidationPolicy {
  return {
    name: POLICY_NAMES.groupDescriptionRequired,
    description: "A Group carries a description saying what it holds and who owns it.",
    enforcementLevel: options.enforcementLevel ?? "advisory",
    severity: "low",
    configSchema: {
      properties: {
        minLength: {
          type: "integer",
          minimum: 1,
          default: groupDescriptionRequiredDefaults.minLength,
          description: "Minimum length of a group's description.",
        },
      },
    },
    validateResource: (args: ResourceValidationArgs, report: ReportViolation) => {
      if (args.type !== IRM_TYPES.group) return;
      const description = readString(args.props, "description");
      if (description === UNKNOWN) return;
      const settings = settingsOf(groupDescriptionRequiredDefaults, options.config, args);
      const length = (description ?? "").trim().length;
      if (length >= settings.minLength) return;
      report(
        length === 0
          ? `Group '${args.name}' has no description. Fix: set 'description' to what the group holds and who owns it.`
          : `Group '${args.name}' has a description of ${length} characters, shorter than the ${settings.minLength} required. Fix: say what the group holds and who owns it.`,
      );
    },
  };
}

// ---------------------------------------------------------------------------------

/** Options for each policy of `irmPolicies()`, by factory name. */
export interface IrmPoliciesOptions {
  noPrivilegedRoleForWorkloadIdentity?: PolicyOptions<NoPrivilegedRoleForWorkloadIdentityConfig>;
  rootGroupBindingAllowList?: PolicyOptions<RootGroupBindingAllowListConfig>;
  identityIssuerAllowList?: PolicyOptions<IdentityIssuerAllowListConfig>;
  noBroadIdentitySubject?: PolicyOptions<NoBroadIdentitySubjectConfig>;
  noDuplicateRoleBinding?: Omit<PolicyOptions<NoDuplicateRoleBindingConfig>, "config">;
  groupDescriptionRequired?: PolicyOptions<GroupDescriptionRequiredConfig>;
}

/** All six policies, as the shipped `irm-guardrails` pack uses them. */
export function irmPolicies(options: IrmPoliciesOptions = {}): Policies {
  return [
    noPrivilegedRoleForWorkloadIdentity(options.noPrivilegedRoleForWorkloadIdentity),
    rootGroupBindingAllowList(options.rootGroupBindingAllowList),
    identityIssuerAllowList(options.identityIssuerAllowList),
    noBroadIdentitySubject(options.noBroadIdentitySubject),
    noDuplicateRoleBinding(options.noDuplicateRoleBinding),
    groupDescriptionRequired(options.groupDescriptionRequired),
  ];
}
