/**
 * `irm-group-description-required`: a Group says what it holds and who owns it, so
 * that whoever reviews its bindings later can judge them.
 */
import { resourcePolicy } from "../define";
import { POLICY_CARDS } from "../names";
import { IRM_TYPES } from "../resource-types";
import { readString, UNKNOWN } from "../values";

export interface GroupDescriptionRequiredConfig {
  /** Minimum length of the description, blanks at either end not counted. */
  minLength: number;
}

export const groupDescriptionRequiredDefaults: GroupDescriptionRequiredConfig = { minLength: 1 };

/** A Group should say what it is for. */
export const groupDescriptionRequired = resourcePolicy({
  ...POLICY_CARDS.groupDescriptionRequired,
  types: [IRM_TYPES.group],
  defaults: groupDescriptionRequiredDefaults,
  schema: {
    minLength: {
      type: "integer",
      minimum: 1,
      description: "Minimum length of a group's description.",
    },
  },
  validate: (args, settings, report) => {
    const description = readString(args.props, "description");
    if (description === UNKNOWN) return;
    const length = (description ?? "").trim().length;
    if (length >= settings.minLength) return;
    report(
      length === 0
        ? `Group '${args.name}' has no description. Fix: set 'description' to what the group holds and who owns it.`
        : `Group '${args.name}' has a description of ${length} characters, shorter than the ${settings.minLength} required. Fix: say what the group holds and who owns it.`,
    );
  },
});
