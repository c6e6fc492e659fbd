/**
 * Provider methods of `IdentityProvider`: an external OIDC provider for sign-in in a
 * group. The client secret is write-only in the API: it is sent, never answered, so
 * its output is the input value (kept by refresh, which therefore cannot see a secret
 * changed outside Pulumi), and the class marks it secret.
 */
import type {
  CorrelationRule,
  IdentityProvider,
  IdentityProviderMaskPath,
  IdentityProviderOidc,
  IdentityProviderUpdate,
} from "../../sdk/index";
import { checkIdentityProviderInputs, isUnknown, parentOf } from "../checks";
import type { IdentityProviderInputs, IdentityProviderOutputs } from "../shapes/index";
import { withRecordedRole } from "./checked-role";
import { type FieldSpec, maskedFields, namedOutputs, pick, sameField } from "./common";
import { namedObjectHandler } from "./object-handler";

/*
 * The OIDC configuration in inputs and state has the SDK's shape (as the API answers
 * it, never the client secret), and its correlation rules are the SDK's.
 */
export type { CorrelationRule, IdentityProviderOidc } from "../../sdk/index";
export type { IdentityProviderInputs, IdentityProviderOutputs } from "../shapes/index";

/** `UNSPECIFIED` behaves as `SUB_EQUALS_EXTERNAL_ID`: the API counts them as one rule. */
export function effectiveCorrelationRule(rule: string | undefined): string {
  return rule === undefined || rule === "" || rule === "CORRELATION_RULE_UNSPECIFIED"
    ? "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID"
    : rule;
}

type Field = FieldSpec<IdentityProviderInputs, IdentityProviderOutputs>;

/** One member of `oidc`, read from inputs and outputs as text. */
function oidcField(
  member: Exclude<keyof IdentityProviderOidc, "correlationRule">,
  text: (value: unknown) => string = (value) => (value === undefined ? "" : String(value)),
): Field {
  return {
    path: `oidc.${member}`,
    fromInputs: (i) => text(i.oidc?.[member]),
    fromOutputs: (o) => text(o.oidc?.[member]),
  };
}

/** Scopes keep their order: a reordering is a change the API stores. */
const scopesText = (value: unknown) => JSON.stringify(Array.isArray(value) ? value : []);
/** An unknown value (preview) is kept as its marker, so it shows as a change. */
const booleanText = (value: unknown) => (isUnknown(value) ? String(value) : String(value === true));

const UPDATABLE: readonly Field[] = [
  sameField("name"),
  sameField("description"),
  sameField("defaultRole"),
  oidcField("issuer"),
  oidcField("clientId"),
  oidcField("additionalScopes", scopesText),
  oidcField("groupsClaim"),
  oidcField("pkceEnabled", booleanText),
  {
    path: "oidc.clientSecret",
    fromInputs: (i) => i.clientSecret,
    fromOutputs: (o) => o.clientSecret,
  },
];

/**
 * The API cannot change the correlation rule: a change replaces the provider. Named
 * `oidc` in the diff, the top-level input the engine knows.
 */
const CORRELATION_RULE: Field = {
  path: "oidc",
  fromInputs: (i) => effectiveCorrelationRule(i.oidc?.correlationRule),
  fromOutputs: (o) => effectiveCorrelationRule(o.oidc?.correlationRule),
};

/**
 * State of an identity provider as the API returns it; the client secret, which the
 * API never answers, is carried over from the state it replaces.
 */
export function identityProviderOutputs(
  idp: IdentityProvider,
  previous?: Partial<IdentityProviderOutputs>,
): IdentityProviderOutputs {
  return {
    ...namedOutputs(idp),
    parentUid: parentOf(idp.uid) ?? "",
    defaultRole: idp.defaultRole,
    oidc: {
      issuer: idp.oidc.issuer,
      clientId: idp.oidc.clientId,
      additionalScopes: [...(idp.oidc.additionalScopes ?? [])],
      groupsClaim: idp.oidc.groupsClaim ?? "",
      pkceEnabled: idp.oidc.pkceEnabled ?? false,
      correlationRule: (idp.oidc.correlationRule ??
        "CORRELATION_RULE_UNSPECIFIED") as CorrelationRule,
    },
    clientSecret: typeof previous?.clientSecret === "string" ? previous.clientSecret : "",
  };
}

function inputsFrom(outputs: IdentityProviderOutputs): IdentityProviderInputs {
  return withRecordedRole(
    pick(outputs, ["parentUid", "name", "description", "defaultRole", "oidc", "clientSecret"]),
    outputs,
    outputs.defaultRole,
  );
}

function patchBody(
  inputs: IdentityProviderInputs,
  mask: readonly string[],
): IdentityProviderUpdate {
  const body: IdentityProviderUpdate = maskedFields(inputs, mask, [
    "name",
    "description",
    "defaultRole",
  ]);
  const oidc: NonNullable<IdentityProviderUpdate["oidc"]> = {};
  if (mask.includes("oidc.issuer")) oidc.issuer = inputs.oidc.issuer;
  if (mask.includes("oidc.clientId")) oidc.clientId = inputs.oidc.clientId;
  if (mask.includes("oidc.additionalScopes")) oidc.additionalScopes = inputs.oidc.additionalScopes;
  if (mask.includes("oidc.groupsClaim")) oidc.groupsClaim = inputs.oidc.groupsClaim;
  if (mask.includes("oidc.pkceEnabled")) oidc.pkceEnabled = inputs.oidc.pkceEnabled;
  // An empty secret under its explicit path clears it (allowed with PKCE).
  if (mask.includes("oidc.clientSecret")) oidc.clientSecret = inputs.clientSecret;
  if (Object.keys(oidc).length > 0) body.oidc = oidc;
  return body;
}

// Found after a lost create by name among the group's providers (the correlation rule
// is compared too, as a replacing field).
export const identityProviderHandler = namedObjectHandler<
  IdentityProviderInputs,
  IdentityProviderOutputs,
  IdentityProvider,
  IdentityProviderUpdate,
  IdentityProviderMaskPath
>((client) => client.iam.identityProviders, {
  kind: "identity provider",
  replacing: [CORRELATION_RULE],
  updatable: UPDATABLE,
  check: checkIdentityProviderInputs,
  roleInput: "defaultRole",
  outputs: (idp, previous) =>
    withRecordedRole(identityProviderOutputs(idp, previous), previous, idp.defaultRole),
  inputsFrom,
  patchBody,
  create: (client, inputs) =>
    client.iam.identityProviders.create(inputs.parentUid, {
      name: inputs.name,
      description: inputs.description,
      defaultRole: inputs.defaultRole,
      oidc: {
        issuer: inputs.oidc.issuer,
        clientId: inputs.oidc.clientId,
        additionalScopes: inputs.oidc.additionalScopes,
        groupsClaim: inputs.oidc.groupsClaim,
        pkceEnabled: inputs.oidc.pkceEnabled,
        correlationRule: inputs.oidc.correlationRule,
        ...(inputs.clientSecret === "" ? {} : { clientSecret: inputs.clientSecret }),
      },
    }),
  describe: (inputs) =>
    `identity provider ${JSON.stringify(inputs.name)} under ${inputs.parentUid}`,
  withWriteOnly: (outputs, inputs) =>
    withRecordedRole(
      { ...outputs, clientSecret: inputs.clientSecret },
      inputs,
      outputs.defaultRole,
    ),
  refuseAdoption: (current, inputs) =>
    CORRELATION_RULE.fromOutputs(current) === CORRELATION_RULE.fromInputs(inputs)
      ? undefined
      : `has oidc.correlationRule ${current.oidc.correlationRule}, not ${inputs.oidc.correlationRule}, and the API cannot change it: declare its rule, or create a new identity provider`,
});
