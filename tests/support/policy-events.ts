/**
 * The engine's policy events in a real-engine run's output (`RunOutcome.output` holds
 * every engine event as one JSON line), as `<policy> <level> <resource name>`, sorted,
 * each once; `(stack)` names a finding on no resource.
 */
export function policyFindings(output: string): string[] {
  const found = new Set<string>();
  const nameOf = (urn: string | undefined) => urn?.split("::").pop() || "(stack)";
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line) as {
      policyEvent?: { policyName: string; enforcementLevel: string; resourceUrn?: string };
    };
    const policy = event.policyEvent;
    if (policy)
      found.add(`${policy.policyName} ${policy.enforcementLevel} ${nameOf(policy.resourceUrn)}`);
  }
  return [...found].sort();
}
