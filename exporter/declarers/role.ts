/** Custom roles, declared with `irm.Role` unless `declareCustomRoles` is off. */
import { type Role, roleGroupUid } from "../../sdk/index";
import type { RoleDeclaration } from "../declarations";
import type { Declarer } from "./build";
import { compareText } from "./values";

export const roleDeclarer: Declarer<Role, RoleDeclaration> = {
  variable: "role",
  select: (build) => (build.options.declareCustomRoles ? build.customRoles() : []),
  name: (build, roles) => build.namesOf(roles, (r) => roleGroupUid(r.uid)!, "role"),
  refersTo: (role) => [roleGroupUid(role.uid)!],
  declare: (build, roles) => {
    const declarations = roles.map((role) => ({
      ...build.named("Role", role),
      capabilities: [...new Set(role.capabilities)].sort(compareText),
    }));
    if (!build.options.declareCustomRoles) {
      for (const role of build.customRoles()) {
        build.omissions.push({
          what: `custom role "${role.name}" (${role.uid}, ${build.capabilitiesNote(role)})`,
          why: "not declared (declareCustomRoles is off): bindings look it up instead",
        });
      }
    }
    return declarations;
  },
};
