/**
 * The `irm-guardrails` policy pack program. The engine starts it (through
 * `@pulumi/pulumi/cmd/run-policy-pack`) with the pack folder `policy/` as working
 * directory; `PolicyPack` reads the pack's version from `policy/package.json` and
 * serves the Analyzer gRPC service, printing its port.
 */
import { PolicyPack } from "@pulumi/policy";
import { irmPolicies, PACK_NAME } from "./policies";

new PolicyPack(PACK_NAME, {
  description:
    "Guard rails for IRM access: no privileged roles for workload identities, as an SSO default role or for an outside group, allow-listed root bindings and issuers, pinned subjects, no match-all identity patterns, short single-use invites, no duplicate bindings, described groups.",
  displayName: "IRM guard rails",
  policies: irmPolicies(),
});
