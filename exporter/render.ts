/**
 * The text of the generated project. `index.ts` is laid out as Biome (this
 * repository's formatter, biome.json: 2 spaces, 100 columns, double quotes) prints it,
 * so running the formatter on a fresh export changes nothing.
 */

import type {
  AccountAssociationDeclaration,
  BindingDeclaration,
  ExportedProgram,
  ExternalGroupRoleMappingDeclaration,
  GroupDeclaration,
  IdentityDeclaration,
  IdentityProviderDeclaration,
  RepoDeclaration,
  RoleDeclaration,
  SubscriptionDeclaration,
  UidExpression,
} from "./declarations";
import { DECLARED_KINDS, type Declaration, type DeclaredKind } from "./kinds";

/** Biome's line width in biome.json. */
const WIDTH = 100;

/**
 * JSON's text of a string with the line and paragraph separators (U+2028, U+2029)
 * escaped too: JSON leaves them raw, and a tool reading the file as older JavaScript,
 * or line by line, would take them for line breaks.
 */
function escapedJson(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A string literal as Biome writes it: double quotes unless single quotes need fewer escapes. */
export function literal(value: string): string {
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  const json = escapedJson(value);
  if (doubles <= singles) return json;
  // Same escapes as JSON, with the quote characters swapped.
  const body = json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${body}'`;
}

const fits = (line: string) => line.length <= WIDTH;

function expression(uid: UidExpression): string {
  return uid.kind === "outside" ? uid.variable : `${uid.variable}.uid`;
}

/** `key: value,` on one line, or broken after the colon as Biome does for a long string. */
function property(indent: string, key: string, value: string, isString: boolean): string[] {
  const line = `${indent}${key}: ${value},`;
  if (fits(line) || !isString) return [line];
  return [`${indent}${key}:`, `${indent}  ${value},`];
}

/** Code written as it is: a reference or a call, never quoted. */
export class Code {
  constructor(readonly text: string) {}
}

/** A value of the generated program: JSON-like data, with `Code` for references. */
export type Value = string | number | boolean | Code | Value[] | { [key: string]: Value };

/**
 * A property key as Biome writes it: bare when it is an identifier, else quoted. A key
 * `__proto__`, bare or quoted, would set the object's prototype instead of making a
 * member (and the value would be lost): it is written computed, `["__proto__"]`, which
 * makes a member like any other.
 */
export function key(name: string): string {
  if (name === "__proto__") return `[${literal(name)}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name);
}

/**
 * `/** text *\/` for any text: a comment terminator in it is broken (`*\/`) and line
 * breaks of every kind become spaces, so the text can never end the comment.
 */
export function docComment(text: string): string {
  const safe = text.replace(/[\r\n\u2028\u2029]+/g, " ").replace(/\*\//g, "*\\/");
  return `/** ${safe} */`;
}

const isRecord = (value: Value): value is { [key: string]: Value } =>
  typeof value === "object" && !(value instanceof Code) && !Array.isArray(value);

/** The value on one line: `{ a: 1, b: "x" }`, `["a", "b"]`. */
function inline(value: Value): string {
  if (typeof value === "string") return literal(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  const members = Object.entries(value).map(([k, v]) => `${key(k)}: ${inline(v)}`);
  return members.length === 0 ? "{}" : `{ ${members.join(", ")} }`;
}

/**
 * Biome always breaks an array of two or more objects that each have two or more
 * members (one per line), however short.
 */
function mustBreak(elements: Value[]): boolean {
  return elements.length > 1 && elements.every((e) => isRecord(e) && Object.keys(e).length > 1);
}

/**
 * `<head><value><tail>` at an indentation, on one line when it fits (and Biome would
 * not break it), else broken: an object or array one member per line, a string after
 * the head on its own line. Objects broken here stay broken under Biome, which keeps
 * an object broken when its source is.
 */
function lines(indent: string, head: string, value: Value, tail: string): string[] {
  const one = `${indent}${head}${inline(value)}${tail}`;
  if (Array.isArray(value)) {
    if (fits(one) && !mustBreak(value)) return [one];
    if (value.length === 0) return [one];
    return [
      `${indent}${head}[`,
      ...value.flatMap((element) => lines(`${indent}  `, "", element, ",")),
      `${indent}]${tail}`,
    ];
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (fits(one) || entries.length === 0) return [one];
    return [
      `${indent}${head}{`,
      ...entries.flatMap(([k, v]) => lines(`${indent}  `, `${key(k)}: `, v, ",")),
      `${indent}}${tail}`,
    ];
  }
  // A long string after a key goes on its own line, as Biome breaks an assignment.
  if (fits(one) || typeof value !== "string" || head === "") return [one];
  return [`${indent}${head.trimEnd()}`, `${indent}  ${inline(value)}${tail}`];
}

/** `key: value,` at an indentation (see `lines`). */
function member(indent: string, name: string, value: Value): string[] {
  return lines(indent, `${key(name)}: `, value, ",");
}

/**
 * `[const x = ]new irm.<Type>("name", { ...members })` with the resource options when
 * given, each member written as `member` writes it.
 */
function declaration(
  variable: string | undefined,
  type: string,
  resourceName: string,
  members: Array<[string, Value]>,
  options: string | undefined,
): string[] {
  const body = (indent: string) => members.flatMap(([k, v]) => member(indent, k, v));
  const start = `${variable ? `const ${variable} = ` : ""}new irm.${type}(`;
  const name = literal(resourceName);
  const hugged = `${start}${name}, {`;
  if (!options && fits(hugged)) return [hugged, ...body("  "), "});"];
  return [
    start,
    `  ${name},`,
    "  {",
    ...body("    "),
    "  },",
    ...(options ? [`  ${options},`] : []),
    ");",
  ];
}

/** What groups, identities, custom roles, identity providers and repos share: a parent, a name, a description. */
type NamedObject = Pick<
  GroupDeclaration,
  "variable" | "resourceName" | "uid" | "parent" | "name" | "description"
>;

const ref = (uid: UidExpression) => new Code(expression(uid));

/**
 * `new irm.<type>(...)` of a named object: `parentUid`, `name`, `description` (left
 * out when empty, the provider's default), then `extra` members, then `adoptUid`.
 */
function namedObjectLines(
  type: string,
  object: NamedObject,
  extra: Array<[string, Value]>,
  options: string | undefined,
): string[] {
  const members: Array<[string, Value]> = [
    ["parentUid", ref(object.parent)],
    ["name", object.name],
    ...(object.description === "" ? [] : [["description", object.description] as [string, Value]]),
    ...extra,
    ["adoptUid", object.uid],
  ];
  return declaration(object.variable, type, object.resourceName, members, options);
}

/**
 * `new irm.<type>(...)` of an object no other declaration refers to (no variable): its
 * `members`, then `adoptUid`.
 */
function unnamedObjectLines(
  type: string,
  object: { resourceName: string; uid: string },
  members: Array<[string, Value]>,
  options: string | undefined,
): string[] {
  return declaration(
    undefined,
    type,
    object.resourceName,
    [...members, ["adoptUid", object.uid]],
    options,
  );
}

function groupLines(group: GroupDeclaration, options: string | undefined): string[] {
  return namedObjectLines("Group", group, [], options);
}

/** The kind member of an identity: `claimMatch`, `staticKeys`, `awsIdentity` or `servicePrincipal`. */
function identityLines(identity: IdentityDeclaration, options: string | undefined): string[] {
  const r = identity.relationship;
  const kind: [string, Value] =
    r.kind === "claimMatch"
      ? ["claimMatch", r.claimMatch as { [key: string]: Value }]
      : r.kind === "staticKeys"
        ? ["staticKeys", r.staticKeys as unknown as { [key: string]: Value }]
        : r.kind === "awsIdentity"
          ? ["awsIdentity", r.awsIdentity as unknown as { [key: string]: Value }]
          : ["servicePrincipal", r.servicePrincipal];
  const text = namedObjectLines("Identity", identity, [kind], options);
  if (r.kind === "staticKeys" && r.expirationTime) {
    // Not an input: the provider keeps the service's expiry and never diffs it.
    return [
      ...comment(
        `Its static keys expire at ${r.expirationTime}; set staticKeys.expirationTime (at most 365 days ahead) to extend them.`,
      ),
      ...text,
    ];
  }
  return text;
}

function roleLines(role: RoleDeclaration, options: string | undefined): string[] {
  return namedObjectLines("Role", role, [["capabilities", role.capabilities]], options);
}

function identityProviderLines(
  provider: IdentityProviderDeclaration,
  options: string | undefined,
): string[] {
  return namedObjectLines(
    "IdentityProvider",
    provider,
    [
      ["defaultRole", ref(provider.defaultRole)],
      ["oidc", provider.oidc as unknown as { [key: string]: Value }],
      ["clientSecret", new Code(provider.clientSecret.variable)],
    ],
    options,
  );
}

function accountAssociationLines(
  association: AccountAssociationDeclaration,
  options: string | undefined,
): string[] {
  const members: Array<[string, Value]> = [
    ["groupUid", ref(association.group)],
    ["name", association.name],
  ];
  if (association.description !== "") members.push(["description", association.description]);
  for (const block of ["amazon", "google", "azure", "github"] as const) {
    const value = association[block];
    if (value) members.push([block, value as unknown as { [key: string]: Value }]);
  }
  if (association.chainguard) {
    members.push([
      "chainguard",
      {
        serviceBindings: Object.fromEntries(
          association.chainguard.serviceBindings.map(([service, uid]) => [service, ref(uid)]),
        ),
      },
    ]);
  }
  return unnamedObjectLines("AccountAssociation", association, members, options);
}

function externalGroupRoleMappingLines(
  mapping: ExternalGroupRoleMappingDeclaration,
  options: string | undefined,
): string[] {
  return unnamedObjectLines(
    "ExternalGroupRoleMapping",
    mapping,
    [
      ["identityProviderUid", ref(mapping.identityProvider)],
      ["externalGroupId", mapping.externalGroupId],
      ["roleUid", ref(mapping.role)],
      ["scope", ref(mapping.scope)],
    ],
    options,
  );
}

function bindingLines(binding: BindingDeclaration, options: string | undefined): string[] {
  return unnamedObjectLines(
    "RoleBinding",
    binding,
    [
      ["groupUid", ref(binding.group)],
      ["identityUid", ref(binding.identity)],
      ["roleUid", ref(binding.role)],
    ],
    options,
  );
}

/** A repo: its settings, then its README (when it has one) before `adoptUid`. */
function repoLines(repo: RepoDeclaration, options: string | undefined): string[] {
  const extra: Array<[string, Value]> = [];
  if (repo.catalogTier !== undefined) extra.push(["catalogTier", repo.catalogTier]);
  if (repo.aliases !== undefined) extra.push(["aliases", repo.aliases]);
  if (repo.readme !== undefined) extra.push(["readme", repo.readme]);
  return namedObjectLines("Repo", repo, extra, options);
}

function subscriptionLines(
  subscription: SubscriptionDeclaration,
  options: string | undefined,
): string[] {
  return unnamedObjectLines(
    "Subscription",
    subscription,
    [
      ["parentUid", ref(subscription.parent)],
      ["sink", subscription.sink],
    ],
    options,
  );
}

/** `const x = config.get("x") ?? "uid";`, broken as Biome breaks a long `??`. */
function outsideLines(variable: string, configKey: string, uid: string): string[] {
  const left = `config.get(${literal(configKey)})`;
  const right = literal(uid);
  const one = `const ${variable} = ${left} ?? ${right};`;
  if (fits(one)) return [one];
  const two = `  ${left} ?? ${right};`;
  if (fits(two)) return [`const ${variable} =`, two];
  return [`const ${variable} =`, `  ${left} ??`, `  ${right};`];
}

/** `const x = config.requireSecret("key");`, broken after `=` when long. */
function secretLines(variable: string, read: string, configKey: string): string[] {
  const call = `config.${read}(${literal(configKey)});`;
  const one = `const ${variable} = ${call}`;
  return fits(one) ? [one] : [`const ${variable} =`, `  ${call}`];
}

/** `const x = irm.getRoleOutput({ name: "editor" });`, or its argument on its own lines. */
function lookupLines(variable: string, name: string): string[] {
  const one = `const ${variable} = irm.getRoleOutput({ name: ${literal(name)} });`;
  if (fits(one)) return [one];
  return [
    `const ${variable} = irm.getRoleOutput({`,
    ...property("  ", "name", literal(name), true),
    "});",
  ];
}

/**
 * A `//` comment wrapped at the line width (Biome leaves comments as they are). The
 * text is split at every white space, which in JavaScript includes every line
 * terminator (`\n`, `\r`, U+2028, U+2029): no text can end the comment's line.
 */
function comment(text: string, hanging = ""): string[] {
  const lines: string[] = [];
  let line = "//";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.length + 1 + word.length > WIDTH && line.length > 2 + hanging.length) {
      lines.push(line);
      line = `//${hanging}`;
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** The block of one kind in `index.ts`: its title and how one declaration is written. */
interface Block<K extends DeclaredKind> {
  title: string;
  lines: (declaration: Declaration<K>, options: string | undefined) => string[];
}

const BLOCKS: { [K in DeclaredKind as K["type"]]: Block<K> } = {
  Group: { title: "Groups, each after its parent.", lines: groupLines },
  Role: { title: "Custom roles.", lines: roleLines },
  Identity: { title: "Identities.", lines: identityLines },
  IdentityProvider: { title: "Identity providers (single sign-on).", lines: identityProviderLines },
  ExternalGroupRoleMapping: {
    title: "External group role mappings: roles for the identity providers' groups.",
    lines: externalGroupRoleMappingLines,
  },
  AccountAssociation: {
    title: "Account associations: the outside accounts of a group.",
    lines: accountAssociationLines,
  },
  RoleBinding: { title: "Role bindings.", lines: bindingLines },
  Repo: { title: "Registry repos, with their READMEs.", lines: repoLines },
  Subscription: {
    title: "Event subscriptions: where each group's events are delivered.",
    lines: subscriptionLines,
  },
};

export interface RenderOptions {
  protect: boolean;
  retain: boolean;
}

/** The program's `index.ts`. */
export function renderIndex(program: ExportedProgram, options: RenderOptions): string {
  const withOptions = options.protect || options.retain;
  const every = withOptions ? "options" : undefined;
  // The identity the token acts as and its bindings, declared only on request: protected.
  const hasSelf = program.identities.some((i) => i.self) || program.bindings.some((b) => b.self);
  const own = (self: boolean | undefined) => (self ? "selfOptions" : every);
  const sections: string[][] = [];
  const what = program.top.isRoot ? "organisation" : "group";
  sections.push([
    ...comment(
      `Generated by irm-export from the ${what} "${program.top.name}" (${program.top.uid}).`,
    ),
    ...comment(
      "Every object below exists already: `adoptUid` makes the first `pulumi up` take it over " +
        "without creating or changing anything. After that `adoptUid` is ignored, and the " +
        "program manages the objects like any other: edit an input to change an object.",
    ),
    ...(program.omissions.length > 0 ? ["//", "// Not in this program:"] : []),
    ...program.omissions.flatMap((o) => comment(`- ${o.what}: ${o.why}`, "  ")),
  ]);
  const usesConfig = program.outside.length > 0 || program.clientSecrets.length > 0;
  const usesPulumi = usesConfig || withOptions || hasSelf;
  sections.push([
    ...(usesPulumi ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as irm from "pulumi-irm";',
  ]);
  if (usesConfig && program.outside.length === 0) {
    sections.push(["const config = new pulumi.Config();"]);
  }
  if (program.outside.length > 0) {
    const lines = [
      "const config = new pulumi.Config();",
      "",
      ...comment(
        "Objects this program refers to but does not declare, by uid. To point the program " +
          "at others, set the config key of the same name: `pulumi config set <key> <uid>`.",
      ),
    ];
    for (const value of program.outside) {
      lines.push(
        docComment(value.describes),
        ...outsideLines(value.variable, value.configKey, value.uid),
      );
    }
    sections.push(lines);
  }
  if (program.clientSecrets.length > 0) {
    // Read before any resource: a missing one stops the run at once, naming its key.
    const lines = [
      ...comment(
        "Client secrets of the identity providers, which the API never answers, so the export " +
          "could not write them: set each with `pulumi config set --secret <key> <secret>` " +
          "(README.md lists them). The first `pulumi up` sends each one once.",
      ),
    ];
    for (const secret of program.clientSecrets) {
      lines.push(
        docComment(`Of "${secret.name}"${secret.optional ? " (optional: it uses PKCE)" : ""}.`),
        ...secretLines(
          secret.variable,
          secret.optional ? "getSecret" : "requireSecret",
          secret.configKey,
        ),
      );
    }
    sections.push(lines);
  }
  if (withOptions) {
    const set = [
      ...(options.protect ? ["protect: true"] : []),
      ...(options.retain ? ["retainOnDelete: true"] : []),
    ];
    const why = [
      ...(options.protect ? ["`protect`: Pulumi refuses to delete them until it is removed."] : []),
      ...(options.retain
        ? ["`retainOnDelete`: deleting them from the program leaves them in the service."]
        : []),
    ];
    sections.push([
      ...comment(`Options of every resource. ${why.join(" ")}`),
      `const options: pulumi.CustomResourceOptions = { ${set.join(", ")} };`,
    ]);
  }
  if (hasSelf) {
    sections.push([
      ...comment(
        "Options of the identity this export's token acts as and of its role bindings: " +
          "`protect`, so that no `pulumi destroy` deletes the access the stack runs with.",
      ),
      `const selfOptions: pulumi.CustomResourceOptions = { ${withOptions ? "...options, " : ""}protect: true };`,
    ]);
  }
  if (program.lookups.length > 0) {
    const lines = [...comment("Roles, found by name at each run.")];
    for (const lookup of program.lookups) {
      if (lookup.note) lines.push(...comment(lookup.note));
      lines.push(...lookupLines(lookup.variable, lookup.name));
    }
    sections.push(lines);
  }
  const block = (title: string, declarations: string[][]) => {
    if (declarations.length === 0) return;
    sections.push([
      ...comment(title),
      "",
      ...declarations.flatMap((d, i) => (i === 0 ? d : ["", ...d])),
    ]);
  };
  for (const kind of DECLARED_KINDS) {
    const { title, lines } = BLOCKS[kind.type] as Block<DeclaredKind>;
    block(
      title,
      program[kind.declared.program].map((d) => lines(d, own("self" in d ? d.self : undefined))),
    );
  }
  return `${sections.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}
