/**
 * An error the program prints as one line naming what to fix, without a stack:
 * `@pulumi/pulumi` prints an error marked as its `RunError` by its message alone, and
 * formats any other with `util.inspect` (slow on a long stack, and it prints the error's
 * fields and stack); `util.inspect` of this one is its message too. The provider host
 * prints `${error}: ${error.stack}`, which for this one is the message, not a stack.
 */
import { inspect } from "node:util";

export class UserError extends Error {
  /** The mark `@pulumi/pulumi` reads (`RunError.isInstance`). */
  readonly __pulumiRunError = true;

  constructor(message: string, name = "UserError") {
    super(message);
    this.name = name;
    this.stack = `${this.name}: ${message}`;
  }

  [inspect.custom](): string {
    return `${this.name}: ${this.message}`;
  }
}
