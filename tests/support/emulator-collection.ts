/**
 * What every IAM collection with a parent group answers alike (identity providers,
 * group invites, ...): a create refused leaves nothing in the group, an object blocks
 * its group's delete until it is deleted, and a page token holds only for its own query.
 */
import { expect } from "vitest";
import { failure, type Json, type Org } from "./emulator-org";

export interface Collection {
  o: Org;
  /** `/iam/v2beta1/<collection>` followed by `suffix`. */
  path(suffix?: string): string;
  /** The list answer's array, such as `identityProviders`. */
  listKey: string;
  /** The object in a group's "is not empty" refusal, such as `identity provider`. */
  noun: string;
}

/** Creates in `group`, expecting success; answers the object. */
export async function create(c: Collection, group: string, body: Json): Promise<Json> {
  const reply = await c.o.call<Json>("POST", c.path(`/${group}`), { body });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** A create in `group` refused with INVALID_ARGUMENT `message`, the group left empty; the reply's text. */
export async function expectCreateRefused(
  c: Collection,
  group: string,
  body: Json,
  message: string,
): Promise<string> {
  const reply = await c.o.call<Json>("POST", c.path(`/${group}`), { body });
  expect(failure(reply)).toEqual([400, `Invalid argument: ${message}`]);
  const listed = await c.o.call<Json>("GET", c.path(`?uidp.children_of=${group}`));
  expect(listed.body[c.listKey]).toEqual([]);
  return reply.text;
}

/**
 * `group`, holding `uid` and nothing else, cannot be deleted; `uid` then deletes, answers
 * NOT_FOUND after, and the group deletes.
 */
export async function expectBlocksGroupDelete(
  c: Collection,
  group: string,
  uid: string,
): Promise<void> {
  const blocked = await c.o.call("DELETE", `/iam/v2beta1/groups/${group}`);
  expect(failure(blocked)).toEqual([
    400,
    `Precondition failed: group ${group} is not empty: it still has 1 ${c.noun}`,
  ]);
  expect((await c.o.call("DELETE", c.path(`/${uid}`))).body).toEqual({});
  expect(failure(await c.o.call("GET", c.path(`/${uid}`)))).toEqual([404, `Not found: ${uid}`]);
  expect((await c.o.call("DELETE", `/iam/v2beta1/groups/${group}`)).status).toBe(200);
}

/** A page token of `group`'s children (two or more) is refused once `filter` is added. */
export async function expectPageTokenBound(
  c: Collection,
  group: string,
  filter: string,
): Promise<void> {
  const first = await c.o.call<Json>("GET", c.path(`?uidp.children_of=${group}&page_size=1`));
  const token = first.body.nextPageToken as string;
  expect(token).not.toBe("");
  const moved = await c.o.call(
    "GET",
    c.path(`?uidp.children_of=${group}&page_size=1&${filter}&page_token=${token}`),
  );
  expect(failure(moved)[1]).toMatch(/^Invalid argument: page_token: belongs to another query/);
}
