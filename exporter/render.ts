/**
 * The text of the generated project. `index.ts` is laid out as Biome (this
 * repository's formatter, biome.json: 2 spaces, 100 columns, double quotes) prints it,
 * so running the formatter on a fresh export changes nothing.
 */
import type {
  BindingDeclaration,
  ExportedProgram,
  GroupDeclaration,
  IdentityDeclaration,
  RoleDeclaration,
  UidExpression,
} from "./program";

/** Biome's line width in biome.json. */
const WIDTH = 100;

/** A string literal as Biome writes it: double quotes unless single quotes need fewer escapes. */
export function literal(value: string): string {
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  const json = JSON.stringify(value);
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

/** `key: { a: x, b: y },` on one line if it fits, else one member per line. */
function inlineObject(indent: string, key: string, members: Array<[string, string]>): string[] {
  const line = `${indent}${key}: { ${members.map(([k, v]) => `${k}: ${v}`).join(", ")} },`;
  if (fits(line)) return [line];
  return [
    `${indent}${key}: {`,
    ...members.flatMap(([k, v]) => property(`${indent}  `, k, v, true)),
    `${indent}},`,
  ];
}

/** `key: ["a", "b"],` on one line if it fits, else one element per line. */
function inlineArray(indent: string, key: string, elements: string[]): string[] {
  const line = `${indent}${key}: [${elements.join(", ")}],`;
  if (fits(line)) return [line];
  return [`${indent}${key}: [`, ...elements.map((e) => `${indent}  ${e},`), `${indent}],`];
}

/**
 * `[const x = ]new irm.<Type>("name", { ...body })` with the resource options when
 * given. `body` renders the object's members at an indentation.
 */
function declaration(
  variable: string | undefined,
  type: string,
  resourceName: string,
  body: (indent: string) => string[],
  withOptions: boolean,
): string[] {
  const start = `${variable ? `const ${variable} = ` : ""}new irm.${type}(`;
  const name = literal(resourceName);
  const hugged = `${start}${name}, {`;
  if (!withOptions && fits(hugged)) return [hugged, ...body("  "), "});"];
  return [
    start,
    `  ${name},`,
    "  {",
    ...body("    "),
    "  },",
    ...(withOptions ? ["  options,"] : []),
    ");",
  ];
}

/** What groups, identities and custom roles share: a parent, a name, a description. */
type NamedObject = Pick<
  GroupDeclaration,
  "variable" | "resourceName" | "uid" | "parent" | "name" | "description"
>;

/**
 * `new irm.<type>(...)` of a named object: `parentUid`, `name`, `description` (left
 * out when empty, the provider's default), then `extra` members, then `adoptUid`.
 */
function namedObjectLines(
  type: string,
  object: NamedObject,
  extra: (indent: string) => string[],
  withOptions: boolean,
): string[] {
  return declaration(
    object.variable,
    type,
    object.resourceName,
    (indent) => [
      ...property(indent, "parentUid", expression(object.parent), false),
      ...property(indent, "name", literal(object.name), true),
      ...(object.description === ""
        ? []
        : property(indent, "description", literal(object.description), true)),
      ...extra(indent),
      ...property(indent, "adoptUid", literal(object.uid), true),
    ],
    withOptions,
  );
}

function groupLines(group: GroupDeclaration, withOptions: boolean): string[] {
  return namedObjectLines("Group", group, () => [], withOptions);
}

function identityLines(identity: IdentityDeclaration, withOptions: boolean): string[] {
  const claimMatch = (indent: string) =>
    inlineObject(indent, "claimMatch", [
      ["issuer", literal(identity.issuer)],
      ["subject", literal(identity.subject)],
    ]);
  return namedObjectLines("Identity", identity, claimMatch, withOptions);
}

function roleLines(role: RoleDeclaration, withOptions: boolean): string[] {
  const capabilities = (indent: string) =>
    inlineArray(indent, "capabilities", role.capabilities.map(literal));
  return namedObjectLines("Role", role, capabilities, withOptions);
}

function bindingLines(binding: BindingDeclaration, withOptions: boolean): string[] {
  return declaration(
    undefined,
    "RoleBinding",
    binding.resourceName,
    (indent) => [
      ...property(indent, "groupUid", expression(binding.group), false),
      ...property(indent, "identityUid", expression(binding.identity), false),
      ...property(indent, "roleUid", expression(binding.role), false),
      ...property(indent, "adoptUid", literal(binding.uid), true),
    ],
    withOptions,
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

/** A `//` comment wrapped at the line width (Biome leaves comments as they are). */
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

export interface RenderOptions {
  protect: boolean;
  retain: boolean;
}

/** The program's `index.ts`. */
export function renderIndex(program: ExportedProgram, options: RenderOptions): string {
  const withOptions = options.protect || options.retain;
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
  const usesPulumi = program.outside.length > 0 || withOptions;
  sections.push([
    ...(usesPulumi ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import * as irm from "pulumi-irm";',
  ]);
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
        `/** ${value.describes} */`,
        ...outsideLines(value.variable, value.configKey, value.uid),
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
  block(
    "Groups, each after its parent.",
    program.groups.map((g) => groupLines(g, withOptions)),
  );
  block(
    "Custom roles.",
    program.roles.map((r) => roleLines(r, withOptions)),
  );
  block(
    "Identities.",
    program.identities.map((i) => identityLines(i, withOptions)),
  );
  block(
    "Role bindings.",
    program.bindings.map((b) => bindingLines(b, withOptions)),
  );
  return `${sections.map((lines) => lines.join("\n")).join("\n\n")}\n`;
}
