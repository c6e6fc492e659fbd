/**
 * Bad input to every user-facing input of every resource and lookup: wrong types,
 * empty and oversized strings, names outside the pattern, malformed uids, unicode,
 * unknown role names. Each must give a clear error naming the field, before any write
 * (resources: in `check`, which the engine runs before create; lookups: before any
 * request at all), and never echo a pasted blob back in full.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { getGroup, getRepo, getRepos, getRole, getRoles } from "../../../provider/index";
import * as runtime from "../../../provider/runtime";
import { type ProviderFixture, startProviderFixture } from "../../support/provider-fixture";

const ROOT = "0123456789abcdef0123456789abcdef01234567";
const CHILD = `${ROOT}/0123456789abcdef`;
const ROLE = "89abcdef0123456789abcdef0123456789abcdef";
const HUGE = "a".repeat(100_000);
const HUGE_UPPER = "A".repeat(100_000);
/** A reason this long is no longer a clear message. */
const MAX_REASON_LENGTH = 400;

/** Values no string field accepts, by what is wrong with them. */
const WRONG_TYPES: Array<[string, unknown]> = [
  ["a number", 42],
  ["a boolean", true],
  ["an object", { value: "x" }],
  ["an array", ["x"]],
];

/** Names outside `^[a-z0-9 ._-]{1,}$`, including unicode look-alikes and controls. */
const BAD_NAMES: Array<[string, string]> = [
  ["upper case", "Team"],
  ["a slash", "team/a"],
  ["a newline", "team\na"],
  ["a NUL", "team\u0000"],
  ["markup", "<script>"],
  ["an accented letter", "équipe"],
  ["full-width letters", "ｔｅａｍ"],
  ["a zero-width space", "te\u200bam"],
  ["a right-to-left override", "\u202eteam"],
  ["an emoji", "team 🚀"],
  ["oversized and outside the pattern", HUGE_UPPER],
];

const BAD_GROUP_UIDS: Array<[string, string]> = [
  ["too short", "abc"],
  ["path traversal", "../../etc/passwd"],
  ["traversal after a root", `${ROOT}/../${ROOT}`],
  ["upper-case hex", ROOT.toUpperCase()],
  ["a trailing slash", `${ROOT}/`],
  ["an empty segment", `${ROOT}//0123456789abcdef`],
  ["percent-encoded dots", "%2e%2e%2f%2e%2e"],
  ["a query string", `${ROOT}?skip=1`],
  ["a fragment", `${ROOT}#x`],
  ["surrounding spaces", ` ${ROOT} `],
  ["unicode digits", "０１２３４５６７８９abcdef0123456789abcdef01234567"],
  ["oversized", HUGE],
];

type Inputs = Record<string, unknown>;
type Checker = (
  inputs: Inputs,
) => Promise<{ failures?: Array<{ property: string; reason: string }> }>;

interface ResourceCase {
  type: string;
  check: Checker;
  valid: Inputs;
  /** Field path → the bad values it must refuse. */
  fields: Record<string, Array<[string, unknown]>>;
}

const stringField = (extra: Array<[string, unknown]> = []): Array<[string, unknown]> => [
  ...WRONG_TYPES,
  ...extra,
];
const required: Array<[string, unknown]> = [
  ["empty", ""],
  ["null", null],
];

const RESOURCES: ResourceCase[] = [
  {
    type: "Group",
    check: (inputs) => runtime.group.check({}, inputs),
    valid: { parentUid: ROOT, name: "team", description: "" },
    fields: {
      parentUid: stringField([...required, ...BAD_GROUP_UIDS]),
      name: stringField([...required, ...BAD_NAMES, ["oversized", HUGE]]),
      description: stringField([["oversized", HUGE]]),
      adoptUid: stringField([
        ...BAD_GROUP_UIDS,
        ["a root (not a child)", ROOT],
        ["a child of another parent", `${ROOT.replace("0", "f")}/0123456789abcdef`],
      ]),
    },
  },
  {
    type: "Identity",
    check: (inputs) => runtime.identity.check({}, inputs),
    valid: {
      parentUid: ROOT,
      name: "ci-bot",
      description: "",
      claimMatch: { issuer: "https://token.actions.example", subject: "repo:x:ref:main" },
    },
    fields: {
      parentUid: stringField([...required, ...BAD_GROUP_UIDS]),
      name: stringField([...required, ...BAD_NAMES, ["oversized", HUGE]]),
      description: stringField([["oversized", HUGE]]),
      claimMatch: [
        ["a string", "https://token.actions.example"],
        ["an array", []],
        ["a number", 7],
        ["null", null],
      ],
      "claimMatch.issuer": stringField([
        ...required,
        ["not a URL", "token.actions.example"],
        ["plain http off loopback", "http://token.actions.example"],
        ["another scheme", "ftp://token.actions.example"],
        ["a javascript URL", "javascript:alert(1)"],
        ["oversized", `https://x.example/${HUGE}`],
      ]),
      "claimMatch.subject": stringField([...required, ["oversized", HUGE]]),
    },
  },
  {
    type: "RoleBinding",
    check: (inputs) => runtime.binding.check({}, inputs),
    valid: { groupUid: ROOT, identityUid: CHILD, roleUid: ROLE },
    fields: {
      groupUid: stringField([...required, ...BAD_GROUP_UIDS]),
      identityUid: stringField([
        ...required,
        ...BAD_GROUP_UIDS,
        ["a root (identities are children)", ROOT],
      ]),
      roleUid: stringField([
        ...required,
        ...BAD_GROUP_UIDS,
        ["a role name instead of a uid", "viewer"],
      ]),
      adoptUid: stringField([...BAD_GROUP_UIDS, ["a root", ROOT]]),
    },
  },
];

/** `inputs` with the value at a dotted path replaced. */
function withField(valid: Inputs, field: string, value: unknown): Inputs {
  const [head, tail] = field.split(".");
  if (tail === undefined) return { ...valid, [head]: value };
  return { ...valid, [head]: { ...(valid[head] as Inputs), [tail]: value } };
}

describe("resource inputs: check refuses each bad value, naming the field", () => {
  // A valid create's check reads its parent group once: give it one that exists.
  let fixture: ProviderFixture;
  beforeAll(async () => {
    fixture = await startProviderFixture();
    await fixture.configureRuntime();
  });
  afterAll(() => fixture?.close());

  /** The valid inputs, placed in the fixture's root group instead of the made-up one. */
  const inRealRoot = (inputs: Inputs): Inputs =>
    JSON.parse(JSON.stringify(inputs).replaceAll(ROOT, fixture.rootGroupUid)) as Inputs;

  for (const resource of RESOURCES) {
    it(`${resource.type}: the valid inputs pass`, async () => {
      expect((await resource.check(inRealRoot(resource.valid))).failures ?? []).toEqual([]);
    });
    for (const [field, values] of Object.entries(resource.fields)) {
      it.each(values)(`${resource.type}.${field}: %s`, async (_what, value) => {
        const { failures = [] } = await resource.check(withField(resource.valid, field, value));
        expect(failures.length).toBeGreaterThan(0);
        // Every failure is about this field (or the object holding it), none about the others.
        for (const failure of failures) {
          // A member's failure is on its top-level input; one whose input is too long
          // to print (or secret) names no input, and its reason starts with the path.
          expect([field, field.split(".")[0], ""]).toContain(failure.property);
          if (failure.property !== field) expect(failure.reason.startsWith(field)).toBe(true);
          expect(failure.reason.length).toBeLessThanOrEqual(MAX_REASON_LENGTH);
          expect(failure.reason).not.toContain(HUGE.slice(0, 1000));
          expect(failure.reason).not.toContain(HUGE_UPPER.slice(0, 1000));
        }
      });
    }
  }
});

describe("lookup arguments: refused before any request, naming the lookup and the argument", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator();
  });
  afterAll(() => emu?.close());

  type Lookup = (args: Inputs, settings: { apiUrl: string; token: string }) => Promise<unknown>;
  const LOOKUPS: Array<{
    name: string;
    run: Lookup;
    valid: Inputs;
    fields: Record<string, Array<[string, unknown]>>;
  }> = [
    {
      name: "getRole",
      run: (args, settings) => getRole(args as never, { settings }),
      valid: { name: "viewer" },
      fields: { name: stringField([...required, ["oversized", HUGE]]) },
    },
    {
      name: "getRoles",
      run: (args, settings) => getRoles(args as never, { settings }),
      valid: {},
      fields: { name: stringField([["oversized", HUGE]]) },
    },
    {
      name: "getGroup",
      run: (args, settings) => getGroup(args as never, { settings }),
      valid: { name: "team", parentUid: ROOT },
      fields: {
        name: stringField([...required, ["oversized", HUGE]]),
        parentUid: stringField([...required, ...BAD_GROUP_UIDS]),
      },
    },
    {
      name: "getRepo",
      run: (args, settings) => getRepo(args as never, { settings }),
      valid: { name: "nginx" },
      fields: {
        name: stringField([...required, ["oversized", HUGE]]),
        groupUid: stringField(BAD_GROUP_UIDS),
      },
    },
    {
      name: "getRepos",
      run: (args, settings) => getRepos(args as never, { settings }),
      valid: {},
      fields: {
        name: stringField([["oversized", HUGE]]),
        groupUid: stringField(BAD_GROUP_UIDS),
      },
    },
  ];

  for (const lookup of LOOKUPS) {
    for (const [field, values] of Object.entries(lookup.fields)) {
      it.each(values)(`${lookup.name}.${field}: %s`, async (_what, value) => {
        await emu.clearRequests();
        const settings = { apiUrl: emu.url, token: emu.token };
        const error = await lookup.run({ ...lookup.valid, [field]: value }, settings).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(error, "the lookup must fail").toBeInstanceOf(Error);
        expect(error?.message).toContain(`${lookup.name}: ${field}`);
        expect(error?.message.length).toBeLessThanOrEqual(MAX_REASON_LENGTH);
        expect(await emu.requests()).toEqual([]);
      });
    }
  }

  it("an unknown role name says which name was looked for and that none exists", async () => {
    const settings = { apiUrl: emu.url, token: emu.token };
    await expect(getRole({ name: "no-such-role" }, { settings })).rejects.toThrow(
      'getRole: role named "no-such-role": found none',
    );
    // Role names are exact: a differently cased built-in is not found either.
    await expect(getRole({ name: "viewer " }, { settings })).rejects.toThrow(/found none/);
  });
});

// Through the engine and the real provider host (the field named in a check failure,
// before any write): tests/engine/bad-input-check-failures.test.ts.
