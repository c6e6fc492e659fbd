/** Identity providers, each with its client secret read from `pulumi config --secret`. */
import type { ClientSecret, IdentityProviderDeclaration, OidcInputs } from "../declarations";
import type { LiveIdentityProvider } from "../live";
import { wordsOf } from "../names";
import type { Declarer } from "./build";
import { defined, parentUidOf } from "./values";

/** The config key of an identity provider's client secret: stable for the provider's lifetime. */
export function clientSecretKey(providerUid: string): string {
  return `clientSecret-${providerUid.slice(providerUid.lastIndexOf("/") + 1)}`;
}

/** `oidc` with the members at their default left out, as the provider's defaults fill them in. */
function oidcInputs(provider: LiveIdentityProvider): OidcInputs {
  const o = provider.oidc;
  return defined({
    issuer: o.issuer,
    clientId: o.clientId,
    additionalScopes: o.additionalScopes.length > 0 ? [...o.additionalScopes] : undefined,
    groupsClaim: o.groupsClaim !== "" ? o.groupsClaim : undefined,
    pkceEnabled: o.pkceEnabled ? true : undefined,
    correlationRule:
      o.correlationRule !== "" && o.correlationRule !== "CORRELATION_RULE_UNSPECIFIED"
        ? o.correlationRule
        : undefined,
  });
}

export const identityProviderDeclarer: Declarer<LiveIdentityProvider, IdentityProviderDeclaration> =
  {
    variable: "idp",
    select: (build) =>
      [...build.live.identityProviders].sort(build.inGroupOrder((p) => parentUidOf(p.uid))),
    name: (build, providers) => build.namesOf(providers, (p) => parentUidOf(p.uid), "idp"),
    refersTo: (provider) => [parentUidOf(provider.uid), provider.defaultRole],
    declare: (build, providers) =>
      providers.map((provider) => {
        const { resourceName } = build.nameOf("IdentityProvider", provider.uid)!;
        const clientSecret: ClientSecret = {
          configKey: clientSecretKey(provider.uid),
          variable: build.variables.claim(
            [...wordsOf(resourceName), "client", "secret"],
            "secret",
            provider.uid,
          ),
          resourceName,
          uid: provider.uid,
          name: provider.name,
          optional: provider.oidc.pkceEnabled,
        };
        build.clientSecrets.push(clientSecret);
        return {
          ...build.named("IdentityProvider", provider),
          defaultRole: build.roleExpression(provider.defaultRole, ""),
          oidc: oidcInputs(provider),
          clientSecret,
        };
      }),
  };
