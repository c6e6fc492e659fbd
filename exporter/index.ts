/**
 * `pulumi-irm/export`: writes a ready-to-run Pulumi TypeScript project that adopts an
 * existing organisation (or one group's subtree) as it is. The `irm-export` command
 * (cli.ts) is a thin layer over `exportOrganisation`. See docs/export.md.
 */
import {
  checkAccountAssociationInputs,
  checkGroupInputs,
  checkIdentityInputs,
  checkIdentityProviderInputs,
  checkRoleBindingInputs,
  checkRoleInputs,
} from "../provider/checks";
import { IrmClient, type IrmClientOptions } from "../sdk/index";
import { buildProgram, type ClientSecret, type ExportedProgram, type Omission } from "./program";
import {
  checkOutDir,
  checkProjectName,
  declaredCounts,
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
  counts: {
    groups: number;
    identities: number;
    roleBindings: number;
    customRoles: number;
    identityProviders: number;
    accountAssociations: number;
  };
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
export function requestFloor(live: LiveOrganisation): Record<string, number> {
  const pages = (n: number) => Math.max(1, Math.ceil(n / 200));
  const ownAssociation = live.accountAssociations.some((a) => a.uid === live.top.uid) ? 1 : 0;
  return {
    groups: pages(live.groups.length),
    identities: pages(live.identities.length),
    roleBindings: pages(live.bindings.length),
    roles: pages(live.roles.length),
    identityProviders: pages(live.identityProviders.length),
    accountAssociations: pages(live.accountAssociations.length - ownAssociation),
    groupInvites: pages(live.groupInvites.length),
  };
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

/** Inputs of the program that the provider's own `check` would refuse. */
export function checkProgram(program: ExportedProgram): string[] {
  const warnings: string[] = [];
  const report = (what: string, failures: Array<{ property: string; reason: string }>) => {
    for (const f of failures) warnings.push(`${what}: ${f.property}: ${f.reason}`);
  };
  const parentOf = (uid: string) => uid.slice(0, uid.lastIndexOf("/"));
  for (const g of program.groups) {
    const { failures } = checkGroupInputs({
      parentUid: parentOf(g.uid),
      name: g.name,
      description: g.description,
      adoptUid: g.uid,
    });
    report(`group ${g.resourceName} (${g.uid})`, failures);
  }
  for (const i of program.identities) {
    const { failures } = checkIdentityInputs({
      parentUid: parentOf(i.uid),
      name: i.name,
      description: i.description,
      ...identityKindInputs(i),
      adoptUid: i.uid,
    });
    report(`identity ${i.resourceName} (${i.uid})`, failures);
  }
  // Uids the program takes from references are checked by shape only: stand-ins of the
  // right shape, since any live uid has it.
  const someRole = ROOT_STAND_IN;
  for (const r of program.roles) {
    const { failures } = checkRoleInputs({
      // A custom role is a child of its group.
      parentUid: parentOf(r.uid),
      name: r.name,
      description: r.description,
      capabilities: r.capabilities,
      adoptUid: r.uid,
    });
    report(`custom role ${r.resourceName} (${r.uid})`, failures);
  }
  for (const p of program.identityProviders) {
    const { failures } = checkIdentityProviderInputs({
      parentUid: parentOf(p.uid),
      name: p.name,
      description: p.description,
      defaultRole: someRole,
      oidc: p.oidc,
      // The secret is the user's to set; its absence is said in the notes, not here.
      clientSecret: "stand-in",
      adoptUid: p.uid,
    });
    report(`identity provider ${p.resourceName} (${p.uid})`, failures);
  }
  for (const a of program.accountAssociations) {
    const { failures } = checkAccountAssociationInputs({
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
    });
    report(`account association ${a.resourceName} (${a.uid})`, failures);
  }
  for (const b of program.bindings) {
    // Identity and role uids are checked by shape only; any live uid has the right one.
    const { failures } = checkRoleBindingInputs({
      groupUid: parentOf(b.uid),
      identityUid: `${parentOf(b.uid)}/0000000000000000`,
      roleUid: "0".repeat(40),
      adoptUid: b.uid,
    });
    report(`role binding ${b.resourceName} (${b.uid})`, failures);
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
