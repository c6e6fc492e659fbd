/**
 * The one helper every policy of the pack is written with: a policy states its name,
 * level, settings and the check itself, and `resourcePolicy` / `stackPolicy` turn that
 * into a factory a platform team can call with its own level and defaults. The layering
 * of settings, the matching of resource types and the advisory "not known yet" note
 * live here once, so each policy module reads top to bottom as what it checks.
 *
 * Only types are imported from `@pulumi/policy`, so importing a policy does not need
 * the (optional) peer dependency installed.
 */
import type {
  EnforcementLevel,
  PolicyConfigSchema,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  Severity,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import type { PolicyConfigJSONSchemaType } from "@pulumi/policy/schema";
import { type Fact, IrmStack } from "./stack";

/** How a factory's policy may be adjusted when composing a pack. */
export interface PolicyOptions<Config> {
  /** Replaces the policy's default enforcement level. */
  enforcementLevel?: EnforcementLevel;
  /** Replaces default settings; the pack's configuration still overrides these. */
  config?: Partial<Config>;
}

/** A policy factory, as `pulumi-irm/policy` exports each policy. */
export type PolicyFactory<Config, Policy> = (options?: PolicyOptions<Config>) => Policy;

/** Anything that carries the pack's configuration for one policy. */
interface ConfigSource {
  getConfig<T extends object>(): T;
}

/** The defaults with the factory's overrides applied (an `undefined` override keeps the default). */
function withOverrides<Config extends object>(
  defaults: Config,
  overrides: Partial<Config> | undefined,
): Config {
  const settings = { ...defaults };
  for (const [key, value] of Object.entries(overrides ?? {})) {
    if (value !== undefined) (settings as Record<string, unknown>)[key] = value;
  }
  return settings;
}

/** The factory's settings, then the pack's configuration on top. */
function settingsOf<Config extends object>(base: Config, source: ConfigSource): Config {
  return withOverrides(base, source.getConfig<Partial<Config>>());
}

/**
 * The configuration schema, each setting's `default` being the factory's value.
 * `@pulumi/policy` fills every setting the pack's configuration leaves out with its
 * schema default before `getConfig` answers, so a schema still carrying the policy's
 * own defaults would silently undo the factory's `config`.
 */
function schemaOf<Config extends object>(
  properties: PolicyConfigSchema["properties"],
  base: Config,
): PolicyConfigSchema {
  const withDefaults = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [
      key,
      key in base
        ? { ...property, default: (base as Record<string, PolicyConfigJSONSchemaType>)[key] }
        : property,
    ]),
  );
  return { properties: withDefaults };
}

/** What every policy declares about itself. */
interface PolicySpec<Config extends object> {
  name: string;
  description: string;
  /** The level when the factory and the pack's configuration name none. */
  enforcementLevel: EnforcementLevel;
  severity: Severity;
  /** Default settings; each key needs a matching `schema` entry, whose `default` is set from it. */
  defaults: Config;
  /** JSON schema of each setting (never `enforcementLevel`: the engine handles it). */
  schema: PolicyConfigSchema["properties"];
}

/** A policy that judges one resource at a time, from its inputs. */
export interface ResourcePolicySpec<Config extends object> extends PolicySpec<Config> {
  /** Type tokens of the resources it judges; other resources are never passed to `validate`. */
  types: readonly string[];
  validate(resource: ResourceValidationArgs, settings: Config, report: ReportViolation): void;
}

/** A policy that judges the stack as a whole, e.g. a binding together with its identity. */
export interface StackPolicySpec<Config extends object> extends PolicySpec<Config> {
  validate(
    stack: IrmStack,
    settings: Config,
    report: ReportViolation,
    args: StackValidationArgs,
  ): void;
}

/**
 * What a policy of either kind says about itself: its spec's name, description and
 * severity, the factory's level (else the spec's), and the schema with the factory's
 * settings as defaults (`base`).
 */
function policyHeader<Config extends object>(
  spec: PolicySpec<Config>,
  options: PolicyOptions<Config>,
  base: Config,
) {
  return {
    name: spec.name,
    description: spec.description,
    enforcementLevel: options.enforcementLevel ?? spec.enforcementLevel,
    severity: spec.severity,
    configSchema: schemaOf(spec.schema, base),
  };
}

export function resourcePolicy<Config extends object>(
  spec: ResourcePolicySpec<Config>,
): PolicyFactory<Config, ResourceValidationPolicy> {
  const types: ReadonlySet<string> = new Set(spec.types);
  return (options = {}) => {
    const base = withOverrides(spec.defaults, options.config);
    return {
      ...policyHeader(spec, options, base),
      validateResource: (args: ResourceValidationArgs, report: ReportViolation) => {
        if (!types.has(args.type)) return;
        spec.validate(args, settingsOf(base, args), report);
      },
    };
  };
}

export function stackPolicy<Config extends object>(
  spec: StackPolicySpec<Config>,
): PolicyFactory<Config, StackValidationPolicy> {
  return (options = {}) => {
    const base = withOverrides(spec.defaults, options.config);
    return {
      ...policyHeader(spec, options, base),
      validateStack: (args: StackValidationArgs, report: ReportViolation) => {
        spec.validate(new IrmStack(args.resources), settingsOf(base, args), report, args);
      },
    };
  };
}

/** Shape of the object form of `reportViolation` (see `reportNotKnownYet`). */
interface AdvisoryNote {
  message: string;
  urn?: string;
  enforcementLevel: "advisory";
}

/**
 * Reports that a check cannot be made yet, at advisory level whatever the policy's
 * level, so that a mandatory policy never blocks a preview only because a value
 * will be known after the update. `@pulumi/policy`'s analyzer accepts an object
 * with its own `enforcementLevel` in `reportViolation`, though its type only names
 * the string form; the end-to-end test over gRPC checks that this stays true.
 */
export function reportNotKnownYet(report: ReportViolation, message: string, urn: string): void {
  const reportNote = report as unknown as (note: AdvisoryNote) => void;
  reportNote({ message, urn, enforcementLevel: "advisory" });
}

/** `'value'` when known, else the fallback text. */
export const quoted = (fact: Fact<string>, fallback: string): string =>
  fact.known ? `'${fact.value}'` : fallback;

/** The distinct reasons why some of the facts are not known, joined for a message. */
export const reasonsOf = (...facts: Fact<unknown>[]): string =>
  facts
    .flatMap((fact) => (fact.known ? [] : [fact.reason]))
    .filter((reason, index, all) => all.indexOf(reason) === index)
    .join("; ");

/** Schema of a string-list setting (its default comes from the policy's `defaults`). */
export const stringList = (description: string) => ({
  type: "array" as const,
  items: { type: "string" as const },
  description,
});
