/**
 * The input checks of `Role`: a custom role's name (never a built-in one's) and its
 * capabilities, each a value name of the API's Capability enum.
 */
import { isCapability, legacyCapability } from "../../sdk/index";
import type { RoleInputs } from "../shapes/index";
import { Checker, givenAdoptUid, isUnknown, quoted, withAdoptUid } from "./checker";

/**
 * Names of the built-in roles, which a custom role may not take (so a role binding's
 * hydrated role tells by its name alone whether it is built in).
 */
export const BUILT_IN_ROLE_NAMES: ReadonlySet<string> = new Set([
  "owner",
  "editor",
  "viewer",
  "registry.pull",
]);

/** The set as the API stores it: sorted, each once. */
export function capabilitySet(capabilities: readonly string[]): string[] {
  return [...new Set(capabilities)].sort();
}

/**
 * Why `name` is not a capability, naming what to write instead: the replacement of a
 * former project name (`groups.create` -> `CAP_IAM_GROUPS_CREATE`), or the LIST value
 * a former `*.get` stood for; undefined for an enum value name.
 */
export function capabilityProblem(name: string): string | undefined {
  if (isCapability(name)) return undefined;
  const legacy = legacyCapability(name);
  if (legacy?.kind === "renamed") {
    return `${JSON.stringify(name)} is a former name: write ${legacy.replacement} (capabilities are the API's enum value names)`;
  }
  if (legacy?.kind === "get") {
    return `${JSON.stringify(name)} is a former name with no replacement: there is no GET capability, a Get needs the LIST capability ${legacy.list}`;
  }
  return `unknown capability ${quoted(name)}: must be a value name of the API's Capability enum, such as CAP_IAM_GROUPS_CREATE or CAP_REPO_LIST (see CAPABILITIES in pulumi-irm/sdk)`;
}

export function checkRoleInputs(news: Record<string, unknown>) {
  const checker = new Checker();
  const parentUid = checker.groupUid("parentUid", news.parentUid);
  const name = checker.name("name", news.name);
  if (name !== undefined && BUILT_IN_ROLE_NAMES.has(name)) {
    checker.fail("name", `is the name of a built-in role (${[...BUILT_IN_ROLE_NAMES].join(", ")})`);
  }
  const description = checker.description("description", news.description);
  const listed = checker.stringArray("capabilities", news.capabilities);
  if (
    (news.capabilities === undefined || news.capabilities === null || listed.length === 0) &&
    checker.failures.every((f) => f.property !== "capabilities")
  ) {
    checker.fail("capabilities", "at least one capability is required");
  }
  listed.forEach((capability, index) => {
    if (isUnknown(capability)) return;
    const problem = capabilityProblem(capability);
    // The runtime reports it on `capabilities`, this place leading the reason (`onTopLevelInputs`).
    if (problem !== undefined) checker.fail(`capabilities[${index}]`, problem);
  });
  const adoptUid = givenAdoptUid(news.adoptUid);
  const adopt = adoptUid === undefined ? undefined : checker.roleUid("adoptUid", adoptUid);
  const inputs = withAdoptUid<RoleInputs>(
    {
      parentUid: parentUid ?? "",
      name: name ?? "",
      description,
      capabilities: capabilitySet(listed),
    },
    adopt,
  );
  return { inputs, failures: checker.failures };
}
