/** Role bindings, named after their identity and role. */
import type { RoleBinding } from "../../sdk/index";
import type { BindingDeclaration } from "../declarations";
import { assignNames, type NameCandidate, wordsOf } from "../names";
import { type Declarer, SELF_LEFT_OUT } from "./build";
import { compareText, parentUidOf } from "./values";

export const roleBindingDeclarer: Declarer<RoleBinding, BindingDeclaration> = {
  select: (build) =>
    build.live.bindings.filter((binding) => {
      if (!build.leavesOut(binding.identity.uid)) return true;
      build.omissions.push({
        what: `role binding of "${binding.identity.name}" to role "${binding.role.name}" (${binding.uid})`,
        why: SELF_LEFT_OUT,
      });
      return false;
    }),
  name: (build, bindings) =>
    assignNames(
      bindings.map((b): NameCandidate<string> => {
        // `platform-ci-editor`: the identity's resource name when it is declared, then the role.
        const who = build.nameOf("Identity", b.identity.uid)?.words ?? wordsOf(b.identity.name);
        const own = [...who, ...wordsOf(build.roleOf(b.role.uid)?.name ?? b.role.name)];
        const group = build.groupsByUid.get(parentUidOf(b.uid));
        const levels = [own];
        if (group) levels.push([...own, ...wordsOf(group.name)]);
        for (const words of build.containerWords(parentUidOf(b.uid)).slice(1, 3)) {
          levels.push([...levels[levels.length - 1], ...words]);
        }
        return { item: b.uid, uid: b.uid, levels };
      }),
      "binding",
    ),
  refersTo: (binding) => [parentUidOf(binding.uid), binding.identity.uid, binding.role.uid],
  declare: (build, bindings) => {
    const resourceName = (b: RoleBinding) => build.nameOf("RoleBinding", b.uid)!.resourceName;
    return [...bindings]
      .sort(
        (a, b) =>
          build.groupRank(parentUidOf(a.uid)) - build.groupRank(parentUidOf(b.uid)) ||
          compareText(resourceName(a), resourceName(b)) ||
          compareText(a.uid, b.uid),
      )
      .map((binding) => ({
        resourceName: resourceName(binding),
        uid: binding.uid,
        group: build.groupExpression(parentUidOf(binding.uid)),
        identity: build.identityExpression(binding.identity.uid, binding.identity.name),
        role: build.roleExpression(binding.role.uid, binding.role.name),
        ...(build.isSelf(binding.identity.uid) ? { self: true } : {}),
      }));
  },
};
