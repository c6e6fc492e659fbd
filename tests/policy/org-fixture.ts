/**
 * The resources of an organisation hierarchy as the engine would hand them to a
 * policy pack, in preview and after the update, plus one deliberately bad binding.
 *
 * It mirrors `examples/org-hierarchy`: groups under the root organisation (looked
 * up, so its uid is known), workload identities trusting GitHub Actions, role
 * bindings of looked-up built-in roles. A resource's input that refers to another
 * resource's `uid` is unknown in preview (the engine's sentinel) and recorded in
 * `propertyDependencies`, exactly as the engine records it.
 */
import { IRM_TYPES } from "../../policy/policies";
import { GITHUB, OWNER_ROLE_UID, ROOT_UID, UNKNOWN_STRING, VIEWER_ROLE_UID } from "./harness";

export const PROJECT = "org-hierarchy";
export const STACK = "dev";
const EDITOR_ROLE_UID = "2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e";
const ROLE_NAMES: Record<string, string> = {
  [OWNER_ROLE_UID]: "owner",
  [EDITOR_ROLE_UID]: "editor",
  [VIEWER_ROLE_UID]: "viewer",
};

export const STACK_URN = `urn:pulumi:${STACK}::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-${STACK}`;
export const PROVIDER_URN = `urn:pulumi:${STACK}::${PROJECT}::pulumi:providers:pulumi-nodejs::default`;

/** A reference to another declared resource's `uid` output. */
interface UidOf {
  uidOf: string;
}
type InputValue = string | UidOf | Record<string, string>;

/** What the engine knows about one resource in one phase. */
export interface EngineResource {
  type: string;
  name: string;
  urn: string;
  parent?: string;
  /** Inputs after `check`, as `analyze` receives them. */
  inputs: Record<string, unknown>;
  /** State, as `analyzeStack` receives it. */
  state: Record<string, unknown>;
  /** Which resources each input was computed from (URNs). */
  propertyDependencies: Record<string, string[]>;
  dependencies: string[];
}

interface Declaration {
  type: string;
  name: string;
  inputs: Record<string, InputValue>;
}

const PROVIDER_TEXT = "exports.handler = () => require('pulumi-irm/provider/runtime');";

const urnOf = (type: string, name: string) => `urn:pulumi:${STACK}::${PROJECT}::${type}::${name}`;

const group = (name: string, parent: string | UidOf, description: string): Declaration => ({
  type: IRM_TYPES.group,
  name,
  inputs: { parentUid: parent, name, description },
});

const identity = (name: string, parent: UidOf, subject: string): Declaration => ({
  type: IRM_TYPES.identity,
  name,
  inputs: {
    parentUid: parent,
    name,
    description: `GitHub Actions workload ${name}`,
    claimMatch: { issuer: GITHUB, subject },
  },
});

const binding = (
  name: string,
  groupRef: UidOf,
  identityRef: UidOf,
  roleUid: string,
): Declaration => ({
  type: IRM_TYPES.roleBinding,
  name,
  inputs: { groupUid: groupRef, identityUid: identityRef, roleUid },
});

const ref = (name: string): UidOf => ({ uidOf: name });

/** The organisation; `withBadBinding` adds a GitHub workload bound to `owner`. */
export function orgDeclarations(withBadBinding: boolean): Declaration[] {
  const declarations = [
    group("platform", ROOT_UID, "Platform team: shared infrastructure and CI"),
    group("apps", ref("platform"), "Product applications"),
    group("security", ROOT_UID, "Security tooling and audit"),
    identity("ci-deployer", ref("platform"), "repo:acme/infra:environment:production"),
    identity("app-release", ref("apps"), "repo:acme/storefront:ref:refs/heads/main"),
    binding("ci-deployer-editor", ref("platform"), ref("ci-deployer"), EDITOR_ROLE_UID),
    binding("app-release-viewer", ref("apps"), ref("app-release"), VIEWER_ROLE_UID),
  ];
  if (withBadBinding) {
    declarations.push(
      binding("app-release-owner", ref("apps"), ref("app-release"), OWNER_ROLE_UID),
    );
  }
  return declarations;
}

const isUidOf = (value: InputValue): value is UidOf =>
  typeof value === "object" && typeof (value as UidOf).uidOf === "string";

/** Resolves the declarations as the engine would see them in `preview` or after `up`. */
export function engineResources(
  declarations: Declaration[],
  phase: "preview" | "up",
): EngineResource[] {
  const uids = new Map<string, string>();
  let serial = 0;
  const resources: EngineResource[] = [];
  for (const declaration of declarations) {
    const propertyDependencies: Record<string, string[]> = {};
    const inputs: Record<string, unknown> = { __provider: PROVIDER_TEXT };
    for (const [key, value] of Object.entries(declaration.inputs)) {
      if (isUidOf(value)) {
        const target = declarations.find((d) => d.name === value.uidOf);
        if (!target) throw new Error(`unknown reference ${value.uidOf}`);
        propertyDependencies[key] = [urnOf(target.type, target.name)];
        inputs[key] = phase === "preview" ? UNKNOWN_STRING : uids.get(value.uidOf);
      } else {
        inputs[key] = value;
      }
    }
    const parentUid = (inputs.parentUid ?? inputs.groupUid) as string;
    serial += 1;
    const uid = `${parentUid}/${(0xc0ffee0000000000n + BigInt(serial)).toString(16)}`;
    uids.set(declaration.name, uid);
    const state =
      phase === "preview" ? { ...inputs } : upState(declaration, inputs, uid, declarations, uids);
    resources.push({
      type: declaration.type,
      name: declaration.name,
      urn: urnOf(declaration.type, declaration.name),
      parent: STACK_URN,
      inputs,
      state,
      propertyDependencies,
      dependencies: [...new Set(Object.values(propertyDependencies).flat())],
    });
  }
  return resources;
}

const TIME = "2026-11-21T23:00:00.000Z";

/** Outputs after `up`: inputs plus uid and timestamps; bindings add hydrated objects. */
function upState(
  declaration: Declaration,
  inputs: Record<string, unknown>,
  uid: string,
  declarations: Declaration[],
  uids: Map<string, string>,
): Record<string, unknown> {
  const state: Record<string, unknown> = { ...inputs, uid, createTime: TIME };
  if (declaration.type !== IRM_TYPES.roleBinding) return { ...state, updateTime: TIME };
  const byUid = (wanted: unknown) =>
    declarations.find((d) => uids.get(d.name) === wanted) as Declaration;
  const boundIdentity = byUid(inputs.identityUid);
  const boundGroup = byUid(inputs.groupUid);
  const claimMatch = boundIdentity.inputs.claimMatch as Record<string, string>;
  return {
    ...state,
    identity: {
      uid: inputs.identityUid,
      name: boundIdentity.name,
      description: boundIdentity.inputs.description,
      subject: claimMatch.subject,
      issuer: claimMatch.issuer,
    },
    group: {
      uid: inputs.groupUid,
      name: boundGroup.name,
      description: boundGroup.inputs.description,
    },
    role: {
      uid: inputs.roleUid,
      name: ROLE_NAMES[inputs.roleUid as string],
      description: `built-in role ${ROLE_NAMES[inputs.roleUid as string]}`,
    },
  };
}
