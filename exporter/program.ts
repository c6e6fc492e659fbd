/**
 * The program an export writes (declarations.ts), built from what was read (read.ts)
 * and turned into text by render.ts.
 *
 * One declarer per kind (declarers/: group, custom role, identity, identity provider,
 * external group role mapping, account association, role binding, repo, event
 * subscription; group invites are counted and skipped) and a loop over them in the
 * order of `KINDS` (kinds.ts): `buildProgram`.
 *
 * Inputs are the live objects' values exactly as the provider compares them (see
 * provider/handlers/*.ts and docs/provider.md "Adoption"), so adopting sends no PATCH.
 */
import type { ExportedProgram, ProgramOptions } from "./declarations";
import { Build, DECLARERS } from "./declarers/index";
import { KINDS } from "./kinds";
import type { LiveOrganisation } from "./live";

export type * from "./declarations";
export { SELF_LEFT_OUT } from "./declarers/build";
export { INVITES_SKIPPED } from "./declarers/group-invite";
export { relationshipOf } from "./declarers/identity";
export { clientSecretKey } from "./declarers/identity-provider";

/**
 * The program for what was read. Every kind's declarer, in the order of `KINDS`, takes
 * one step before any takes the next, since a step of one kind may need an earlier
 * step of another: a binding's name starts with its identity's, and a reference
 * needs the variable of what it refers to.
 */
export function buildProgram(live: LiveOrganisation, options: ProgramOptions): ExportedProgram {
  const build = new Build(live, options);
  // 1. What each kind declares; what it leaves out goes to `omissions`.
  const steps = KINDS.map((kind) => {
    const declarer = DECLARERS[kind.type];
    return { kind, declarer, items: declarer.select(build) };
  });
  // 2. Names, kind by kind: a binding's name starts with its identity's.
  for (const { kind, declarer, items } of steps) {
    build.names.set(kind.type, declarer.name(build, items));
  }
  // 3. Who is referred to: only those get a variable.
  for (const { declarer, items } of steps) {
    for (const item of items) for (const uid of declarer.refersTo(item)) build.referenced.add(uid);
  }
  // 4. The variables of the declared objects, before any reference claims one.
  for (const { kind, declarer, items } of steps) {
    const word = declarer.variable;
    if (word === undefined) continue;
    const claimed = new Map<string, string>();
    for (const { uid } of items.filter((item) => build.referenced.has(item.uid))) {
      claimed.set(uid, build.variables.claim(build.nameOf(kind.type, uid)!.words, word, uid));
    }
    build.declaredVariables.set(kind.type, claimed);
  }
  // 5. The declarations, each reference written as a variable, a lookup or a config value.
  const declared = steps.map(({ kind, declarer, items }) => ({
    kind,
    declarations: declarer.declare(build, items),
  }));
  return {
    top: { uid: live.top.uid, name: live.top.name, isRoot: live.topIsRoot },
    outside: build.outside,
    lookups: build.lookups,
    ...Object.fromEntries(
      declared.flatMap(({ kind, declarations }) =>
        "declared" in kind ? [[kind.declared.program, declarations]] : [],
      ),
    ),
    clientSecrets: build.clientSecrets,
    skippedInvites: live.groupInvites.length,
    omissions: build.omissions,
  } as ExportedProgram;
}
