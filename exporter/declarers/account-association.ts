/** Account associations of the groups the export reaches (an association's uid is its group's). */
import type { AccountAssociationDeclaration, UidExpression } from "../declarations";
import type { LiveAccountAssociation } from "../live";
import type { Declarer } from "./build";
import { compareText, defined, sortedRecord } from "./values";

export const accountAssociationDeclarer: Declarer<
  LiveAccountAssociation,
  AccountAssociationDeclaration
> = {
  // Those of the groups the export reaches, in group order.
  select: (build) =>
    build.live.accountAssociations
      .filter((a) => build.groupsByUid.has(a.uid))
      .sort(build.inGroupOrder((a) => a.uid)),
  // An association's container is its own group: `payments-accounts` when names repeat.
  name: (build, associations) => build.namesOf(associations, (a) => a.uid, "accounts"),
  refersTo: (association) => [
    association.uid,
    ...Object.values(association.chainguard?.serviceBindings ?? {}),
  ],
  declare: (build, associations) =>
    associations.map((association) => {
      const services = association.chainguard?.serviceBindings;
      return defined({
        resourceName: build.nameOf("AccountAssociation", association.uid)!.resourceName,
        uid: association.uid,
        group: build.groupExpression(association.uid),
        name: association.name,
        description: association.description ?? "",
        amazon: association.amazon && { account: association.amazon.account },
        google: association.google && {
          projectId: association.google.projectId,
          projectNumber: association.google.projectNumber,
        },
        azure: association.azure && {
          tenantId: association.azure.tenantId,
          clientIds: sortedRecord(association.azure.clientIds),
        },
        github: association.github && {
          appInstallations: sortedRecord(association.github.appInstallations, (app) => ({
            installations: app.installations.map((i) =>
              defined({ installationId: i.installationId, name: i.name || undefined }),
            ),
          })),
        },
        chainguard: services && {
          serviceBindings: Object.keys(services)
            .sort(compareText)
            .map((service): [string, UidExpression] => [
              service,
              build.identityExpression(services[service], ""),
            ]),
        },
      });
    }),
};
