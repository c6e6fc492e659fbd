/**
 * Provider methods of `Identity`. An identity has exactly one kind (`claimMatch`,
 * `staticKeys`, `awsIdentity`, `servicePrincipal`) that the API cannot change: a new
 * kind, or a new service principal, replaces the identity. Any other change is one
 * PATCH whose mask names exactly the leaf paths that changed (maps whole), so the API
 * never sees a member the program did not change.
 */
import type {
  IdentityCreate,
  Identity as IdentityObject,
  IdentityUpdate,
  ServicePrincipal,
} from "../../sdk/index";
import { type AwsIdentity, type ClaimMatch, IDENTITY_KINDS, identityKind } from "../../sdk/index";
import { checkIdentityInputs, parentOf } from "../checks";
import type { IdentityInputs, IdentityOutputs, StaticKeysOutputs } from "../shapes/index";
import {
  bindingsReferring,
  canonical,
  describedOrNone,
  type FieldSpec,
  namedOutputs,
  pick,
  sameField,
  withoutUndefined,
} from "./common";
import { namedObjectHandler } from "./object-handler";

type Field = FieldSpec<IdentityInputs, IdentityOutputs>;
/** The object members of each kind that hold leaf paths. */
type KindObjects = {
  claimMatch: ClaimMatch;
  staticKeys: { [K in keyof StaticKeysOutputs]?: StaticKeysOutputs[K] };
  awsIdentity: AwsIdentity;
};
type ObjectKind = keyof KindObjects;

/** A string member of a kind's object, `""` when unset. */
function member<K extends ObjectKind>(
  kind: K,
  key: keyof KindObjects[K] & string,
): (value: IdentityInputs | IdentityOutputs) => string | undefined {
  return (value) => {
    const object = value[kind] as Record<string, unknown> | undefined;
    const found = object?.[key];
    return typeof found === "string" ? found : canonical(found);
  };
}

/** A leaf path `<kind>.<key>` compared as it is. */
function leaf<K extends ObjectKind>(kind: K, key: keyof KindObjects[K] & string): Field {
  const read = member(kind, key);
  return { path: `${kind}.${key}`, fromInputs: read, fromOutputs: read };
}

/**
 * One member of a one-of pair: left out while its partner is set, it is no change to
 * send, since setting the partner clears it (`subject` → `subjectPattern` sends
 * `claimMatch.subjectPattern` only). Left out with its partner also unset (only the
 * optional audience pair), it is named with an empty value, which clears it.
 */
function pairLeaf<K extends ObjectKind>(
  kind: K,
  key: keyof KindObjects[K] & string,
  partner: keyof KindObjects[K] & string,
): Field {
  const partnerOf = member(kind, partner);
  return { ...leaf(kind, key), absentIsNoChange: (inputs) => (partnerOf(inputs) ?? "") !== "" };
}

const UPDATABLE: readonly Field[] = [
  sameField("name"),
  sameField("description"),
  pairLeaf("claimMatch", "issuer", "issuerPattern"),
  pairLeaf("claimMatch", "issuerPattern", "issuer"),
  pairLeaf("claimMatch", "subject", "subjectPattern"),
  pairLeaf("claimMatch", "subjectPattern", "subject"),
  pairLeaf("claimMatch", "audience", "audiencePattern"),
  pairLeaf("claimMatch", "audiencePattern", "audience"),
  // Maps are compared and sent whole; an empty or absent map is the same (none).
  leaf("claimMatch", "claims"),
  leaf("claimMatch", "claimPatterns"),
  leaf("staticKeys", "issuer"),
  leaf("staticKeys", "subject"),
  leaf("staticKeys", "issuerKeys"),
  // Left out of the inputs, the service's default (creation + 365 days) stays and is
  // never compared; set, it is normalised by check to the form the service answers.
  { ...leaf("staticKeys", "expirationTime"), absentIsNoChange: () => true },
  leaf("staticKeys", "audiences"),
  leaf("awsIdentity", "awsAccount"),
  pairLeaf("awsIdentity", "arn", "arnPattern"),
  pairLeaf("awsIdentity", "arnPattern", "arn"),
  pairLeaf("awsIdentity", "userId", "userIdPattern"),
  pairLeaf("awsIdentity", "userIdPattern", "userId"),
];

/**
 * What the API cannot change, so a change replaces the identity: which kind it is
 * (each kind member present or not) and which service principal it stands for.
 */
const REPLACING: readonly Field[] = [
  ...IDENTITY_KINDS.filter((kind) => kind !== "servicePrincipal").map(
    (kind): Field => ({
      path: kind,
      fromInputs: (i) => (i[kind] === undefined ? undefined : kind),
      fromOutputs: (o) => (o[kind] === undefined ? undefined : kind),
    }),
  ),
  sameField("servicePrincipal"),
];

/** State of an identity as the API returns it: the member of its kind, nothing else. */
export function identityOutputs(identity: IdentityObject): IdentityOutputs {
  return withoutUndefined({
    ...namedOutputs(identity),
    parentUid: parentOf(identity.uid) ?? "",
    claimMatch: identity.claimMatch && withoutUndefined({ ...identity.claimMatch }),
    staticKeys: identity.staticKeys && {
      issuer: identity.staticKeys.issuer,
      subject: identity.staticKeys.subject,
      issuerKeys: identity.staticKeys.issuerKeys,
      expirationTime: identity.staticKeys.expirationTime,
      audiences: [...identity.staticKeys.audiences],
    },
    awsIdentity: identity.awsIdentity && withoutUndefined({ ...identity.awsIdentity }),
    servicePrincipal: identity.servicePrincipal,
    lastSeenTime: identity.lastSeenTime,
  });
}

/**
 * State-only, and only in the state of a static-keys identity whose program leaves
 * `staticKeys.expirationTime` out: a refresh reads the service's value into the
 * outputs, and the inputs it gives back leave it out, as the program does.
 */
interface ExpiryMark {
  expiryOmitted?: true;
}

const EXPIRY_OMITTED: ExpiryMark = { expiryOmitted: true };

/** The mark of inputs of kind `staticKeys` without an `expirationTime`. */
function expiryMarkOf(inputs: IdentityInputs): ExpiryMark {
  const keys = inputs.staticKeys;
  return typeof keys === "object" && (keys.expirationTime ?? "") === "" ? EXPIRY_OMITTED : {};
}

/** The mark a state carries. */
function expiryMarkIn(state: IdentityOutputs): ExpiryMark {
  return (state as ExpiryMark).expiryOmitted === true ? EXPIRY_OMITTED : {};
}

function identityInputsFrom(outputs: IdentityOutputs): IdentityInputs {
  const inputs = pick(outputs, ["parentUid", "name", "description", ...IDENTITY_KINDS]);
  if (inputs.staticKeys === undefined || expiryMarkIn(outputs) !== EXPIRY_OMITTED) return inputs;
  const { expirationTime: _service, ...staticKeys } = inputs.staticKeys;
  return { ...inputs, staticKeys };
}

/** The value a cleared leaf is sent with: an empty map, list or string. */
function emptyOf(key: string): unknown {
  if (key === "claims" || key === "claimPatterns") return {};
  if (key === "audiences") return [];
  return "";
}

/**
 * The PATCH body carrying exactly the paths of the mask, each with its new value (an
 * empty one when the inputs clear it), and nothing else.
 */
export function identityPatchBody(inputs: IdentityInputs, mask: readonly string[]): IdentityUpdate {
  const body: Record<string, unknown> = {};
  for (const path of mask) {
    if (path === "name") body.name = inputs.name;
    else if (path === "description") body.description = inputs.description;
    else {
      const [kind, key] = path.split(".") as [ObjectKind, string];
      const source = (inputs[kind] ?? {}) as Record<string, unknown>;
      const object = (body[kind] ?? {}) as Record<string, unknown>;
      object[key] = source[key] ?? emptyOf(key);
      body[kind] = object;
    }
  }
  return body as IdentityUpdate;
}

/** The create body: name, description and the one kind member the inputs carry. */
function createBody(inputs: IdentityInputs): IdentityCreate {
  return withoutUndefined({
    name: inputs.name,
    description: inputs.description,
    claimMatch: inputs.claimMatch,
    staticKeys: inputs.staticKeys,
    awsIdentity: inputs.awsIdentity,
    servicePrincipal: inputs.servicePrincipal as ServicePrincipal | undefined,
  });
}

/** Why an identity found by `adoptUid` cannot be managed as declared. */
function refuseAdoption(current: IdentityOutputs, inputs: IdentityInputs): string | undefined {
  const actual = identityKind(current);
  const declared = identityKind(inputs);
  if (actual !== declared) {
    return `is of kind ${actual}, not ${declared}; the kind of an identity cannot change, so adopt one of kind ${declared} or declare ${actual}`;
  }
  if (current.servicePrincipal !== inputs.servicePrincipal) {
    return `stands for ${current.servicePrincipal}, not ${inputs.servicePrincipal}, which cannot change`;
  }
  return undefined;
}

export const identityHandler = namedObjectHandler((client) => client.iam.identities, {
  kind: "identity",
  replacing: REPLACING,
  updatable: UPDATABLE,
  check: checkIdentityInputs,
  outputs: identityOutputs,
  inputsFrom: identityInputsFrom,
  marks: { of: expiryMarkOf, in: expiryMarkIn },
  patchBody: identityPatchBody,
  create: (client, inputs) => client.iam.identities.create(inputs.parentUid, createBody(inputs)),
  refuseAdoption,
  describe: (inputs) => `identity ${JSON.stringify(inputs.name)} under ${inputs.parentUid}`,
  usedBy: async (client, uid) => {
    // Only the association of the identity's own group may bind it to a service.
    const group = parentOf(uid) ?? uid;
    const [bindings, association] = await Promise.all([
      bindingsReferring(client, { identity: uid }),
      describedOrNone(
        client.iam.accountAssociations.get(group).then((found) => ({
          items: Object.entries(found.chainguard?.serviceBindings ?? {})
            .filter(([, identityUid]) => identityUid === uid)
            .map(([service]) => ({ name: found.name, service })),
        })),
        ({ name, service }) =>
          `account association ${JSON.stringify(name)} of its group (${service})`,
      ),
    ]);
    return [...bindings, ...association];
  },
});
