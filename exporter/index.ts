/**
 * `pulumi-irm/export`: writes a ready-to-run Pulumi TypeScript project that adopts an
 * existing organisation (or one group's subtree) as it is. The `irm-export` command
 * (cli.ts) is a thin layer over `exportOrganisation`. See docs/export.md.
 */
import {
  checkAccountAssociationInputs,
  checkExternalGroupRoleMappingInputs,
  checkGroupInputs,
  checkIdentityInputs,
  checkIdentityProviderInputs,
  checkRepoInputs,
  checkRoleBindingInputs,
  checkRoleInputs,
  checkSubscriptionInputs,
} from "../provider/checks";
import { IrmClient, type IrmClientOptions } from "../sdk/index";
import {
  type Collection,
  DECLARED_KINDS,
  type Declaration,
  type DeclaredCounts,
  type DeclaredKind,
  declaredCounts,
  KINDS,
  type Kind,
} from "./kinds";
import { buildProgram, type ClientSecret, type ExportedProgram, type Omission } from "./program";
import {
  checkOutDir,
  checkProjectName,
  defaultProjectName,
  packageFacts,
  projectFiles,
  writeProject,
} from "./project";
import { ExportError, type LiveOrganisation, type ReadProgress, readOrganisation } from "./read";

export type { ClientSecret, ExportedProgram, Omission } from "./program";
export { defaultProjectName, type PackageFacts, packageFacts } from "./project";
export { ExportError, type LiveOrganisation, type ReadProgress } from "./read";

export interface ExportOptions {
  /** Folder to write the project into (required unless `dryRun`). */
  outDir?: string;
  /** Uid of the group whose subtree is exported; default: the organisation the token sees. */
  groupUid?: string;
  /** Pulumi project name; default `irm-<group name>`. */
  projectName?: string;
  /** Every resource gets `protect: true`. */
  protect?: boolean;
  /** Every resource gets `retainOnDelete: true`. */
  retain?: boolean;
  /**
   * Declare the identity the token acts as and its role bindings, with `protect: true`.
   * Default false: they are left out (listed in `omissions`), so the stack cannot
   * delete the access it runs with.
   */
  includeSelf?: boolean;
  /** Overwrite the generated files in a non-empty `outDir`. */
  force?: boolean;
  /** Read and generate, write nothing. */
  dryRun?: boolean;
  /**
   * Declare the custom roles of the subtree as `irm.Role` resources, referred to by
   * variable (default true). False looks them up by name instead (`getRoleOutput`).
   */
  declareCustomRoles?: boolean;
  /** A client to read with (the caller closes it); else one from `settings`. */
  client?: IrmClient;
  /** Settings of the client made when none is given; unset ones come from `IRM_*`. */
  settings?: IrmClientOptions;
  /** Called after each page read. */
  onProgress?: (progress: ReadProgress) => void;
}

export interface ExportResult {
  /** The generated files, by relative path. */
  files: Record<string, string>;
  /** Where they were written; undefined on a dry run. */
  writtenTo?: string;
  /** Objects declared, by kind. */
  counts: DeclaredCounts;
  /** Group invites that exist and are not declared (their codes cannot be read back). */
  skippedInvites: number;
  /**
   * The `pulumi config --secret` keys the project reads identity providers' client
   * secrets from, with the provider each belongs to (the API never answers a secret).
   */
  clientSecrets: ClientSecret[];
  /** What exists but is not declared, and why. */
  omissions: Omission[];
  /** Inputs the provider's `check` would refuse (the program then fails at preview). */
  warnings: string[];
  /** Requests sent, by collection; see `requestFloor` for the least possible. */
  requests: Record<string, number>;
  program: ExportedProgram;
  live: LiveOrganisation;
}

/**
 * The fewest list requests an export can make: ceil(n / 200) per collection, at
 * least one. (Besides the listings, an export finds the group, and reads the group's
 * own account association: `requests.group` and `requests.accountAssociation`.)
 */
export function requestFloor(live: LiveOrganisation): Record<Collection, number> {
  const pages = (n: number) => Math.max(1, Math.ceil(n / 200));
  const ownAssociation = live.accountAssociations.some((a) => a.uid === live.top.uid) ? 1 : 0;
  const read = (kind: Kind) =>
    live[kind.live].length - (kind.type === "AccountAssociation" ? ownAssociation : 0);
  return Object.fromEntries(KINDS.map((kind) => [kind.collection, pages(read(kind))])) as Record<
    Collection,
    number
  >;
}

/** The kind member of an identity's inputs, as the program writes it. */
function identityKindInputs(
  identity: ExportedProgram["identities"][number],
): Record<string, unknown> {
  const r = identity.relationship;
  switch (r.kind) {
    case "claimMatch":
      return { claimMatch: r.claimMatch };
    case "staticKeys":
      return { staticKeys: r.staticKeys };
    case "awsIdentity":
      return { awsIdentity: r.awsIdentity };
    case "servicePrincipal":
      return { servicePrincipal: r.servicePrincipal };
  }
}

/** A root group uid (and a role uid) of the right shape, for inputs that only need one. */
const ROOT_STAND_IN = "0".repeat(40);

/** The parent, name and description of an object in a group, as its resource takes them. */
const named = (d: { uid: string; name: string; description: string }) => ({
  parentUid: d.uid.slice(0, d.uid.lastIndexOf("/")),
  name: d.name,
  description: d.description,
  adoptUid: d.uid,
});

type Failures = Array<{ property: string; reason: string }>;

/**
 * The provider's own check of each declared kind. Uids the program takes from
 * references are checked by shape only: stand-ins of the right shape, since any live
 * uid has it.
 */
const CHECKS: { [K in DeclaredKind as K["type"]]: (d: Declaration<K>) => Failures } = {
  Group: (g) => checkGroupInputs(named(g)).failures,
  // A custom role is a child of its group.
  Role: (r) => checkRoleInputs({ ...named(r), capabilities: r.capabilities }).failures,
  Identity: (i) => checkIdentityInputs({ ...named(i), ...identityKindInputs(i) }).failures,
  IdentityProvider: (p) =>
    checkIdentityProviderInputs({
      ...named(p),
      defaultRole: ROOT_STAND_IN,
      oidc: p.oidc,
      // The secret is the user's to set; its absence is said in the notes, not here.
      clientSecret: "stand-in",
    }).failures,
  // The provider and the scope as the mapping's uid says (its parent, its organisation).
  ExternalGroupRoleMapping: (m) =>
    checkExternalGroupRoleMappingInputs({
      identityProviderUid: m.uid.slice(0, m.uid.lastIndexOf("/")),
      externalGroupId: m.externalGroupId,
      roleUid: ROOT_STAND_IN,
      scope: m.uid.split("/")[0],
      adoptUid: m.uid,
    }).failures,
  AccountAssociation: (a) =>
    checkAccountAssociationInputs({
      groupUid: a.uid,
      name: a.name,
      description: a.description,
      amazon: a.amazon,
      google: a.google,
      azure: a.azure,
      github: a.github,
      chainguard: a.chainguard && {
        serviceBindings: Object.fromEntries(
          a.chainguard.serviceBindings.map(([service]) => [service, `${a.uid}/0000000000000000`]),
        ),
      },
      adoptUid: a.uid,
    }).failures,
  RoleBinding: (b) => {
    const group = b.uid.slice(0, b.uid.lastIndexOf("/"));
    return checkRoleBindingInputs({
      groupUid: group,
      identityUid: `${group}/0000000000000000`,
      roleUid: ROOT_STAND_IN,
      adoptUid: b.uid,
    }).failures;
  },
  Repo: (r) =>
    checkRepoInputs({
      ...named(r),
      catalogTier: r.catalogTier,
      aliases: r.aliases,
      readme: r.readme,
    }).failures,
  Subscription: (s) =>
    checkSubscriptionInputs({
      parentUid: s.uid.slice(0, s.uid.lastIndexOf("/")),
      sink: s.sink,
      adoptUid: s.uid,
    }).failures,
};

/** Inputs of the program that the provider's own `check` would refuse, kind by kind. */
export function checkProgram(program: ExportedProgram): string[] {
  const warnings: string[] = [];
  for (const kind of DECLARED_KINDS) {
    const check = CHECKS[kind.type] as (d: Declaration<DeclaredKind>) => Failures;
    for (const d of program[kind.declared.program]) {
      for (const f of check(d)) {
        warnings.push(`${kind.one} ${d.resourceName} (${d.uid}): ${f.property}: ${f.reason}`);
      }
    }
  }
  return warnings;
}

/** Reads the organisation and generates the project; writes it unless `dryRun`. */
export async function exportOrganisation(options: ExportOptions): Promise<ExportResult> {
  if (options.projectName !== undefined) checkProjectName(options.projectName);
  if (!options.dryRun) {
    if (!options.outDir)
      throw new ExportError("--out: is required (the folder to write the project into)", 2);
    // Before any request: a refusal should not cost a whole read.
    checkOutDir(options.outDir, options.force ?? false);
  }
  let client: IrmClient;
  try {
    client = options.client ?? new IrmClient(options.settings);
  } catch (error) {
    // A malformed URL or variable: the SDK's message names the setting.
    throw new ExportError((error as Error).message, 2);
  }
  try {
    const live = await readOrganisation(client, {
      groupUid: options.groupUid,
      onProgress: options.onProgress,
    });
    const program = buildProgram(live, {
      declareCustomRoles: options.declareCustomRoles ?? true,
      includeSelf: options.includeSelf ?? false,
    });
    const files = projectFiles(
      program,
      {
        projectName: options.projectName ?? defaultProjectName(live.top.name),
        apiUrl: client.baseUrl,
        protect: options.protect ?? false,
        retain: options.retain ?? false,
      },
      packageFacts(),
    );
    if (!options.dryRun) writeProject(options.outDir!, files, options.force ?? false);
    return {
      files,
      writtenTo: options.dryRun ? undefined : options.outDir,
      counts: declaredCounts(program),
      skippedInvites: program.skippedInvites,
      clientSecrets: program.clientSecrets,
      omissions: program.omissions,
      warnings: checkProgram(program),
      requests: live.requests,
      program,
      live,
    };
  } finally {
    if (options.client === undefined) await client.close();
  }
}
