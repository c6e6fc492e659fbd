/** Groups: the chosen group (unless a root) and everything below it, parents first. */
import type { Group } from "../../sdk/index";
import type { GroupDeclaration } from "../declarations";
import type { Declarer } from "./build";
import { parentUidOf } from "./values";

export const groupDeclarer: Declarer<Group, GroupDeclaration> = {
  variable: "group",
  // The chosen group (unless it is a root) and everything below it, parents first.
  select: (build) => (build.live.topIsRoot ? build.groupTree.slice(1) : build.groupTree),
  name: (build, groups) => build.namesOf(groups, (g) => parentUidOf(g.uid), "group"),
  refersTo: (group) => [parentUidOf(group.uid)],
  declare: (build, groups) => groups.map((group) => build.named("Group", group)),
};
