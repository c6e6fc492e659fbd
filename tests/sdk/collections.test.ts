/**
 * `sdk/collections.ts` is the one list of the client's collections: the client offers
 * exactly its entries, and the IAM names it exports are the API's collection names.
 */
import { afterAll, describe, expect, it } from "vitest";
import { IrmClient } from "../../sdk";
import { COLLECTIONS, IAM_COLLECTIONS } from "../../sdk/collections";

/** What a collection object was made with (`spec` is protected: read here only). */
function specOf(collection: object): { path: string; listKey: string } | undefined {
  return (collection as { spec?: { path: string; listKey: string } }).spec;
}

describe("the client's collections", () => {
  const client = new IrmClient({ baseUrl: "http://127.0.0.1:9", env: {} });

  it("offers one object per line of COLLECTIONS, of the class named there, and nothing else", () => {
    for (const [api, classes] of Object.entries(COLLECTIONS)) {
      const offered = (client as unknown as Record<string, Record<string, object>>)[api];
      expect(Object.keys(offered), api).toEqual(Object.keys(classes));
      for (const [name, Collection] of Object.entries(classes)) {
        expect(offered[name], `${api}.${name}`).toBeInstanceOf(Collection);
      }
    }
  });

  it("names the IAM v2beta1 collections as the API does (path segment and list key)", () => {
    expect(IAM_COLLECTIONS).toEqual([
      "groups",
      "identities",
      "roles",
      "roleBindings",
      "identityProviders",
      "groupInvites",
      "accountAssociations",
      "externalGroupRoleMappings",
    ]);
    for (const name of IAM_COLLECTIONS) {
      expect(specOf(client.iam[name]), name).toMatchObject({
        path: `/iam/v2beta1/${name}`,
        listKey: name,
      });
    }
  });

  it("keeps each collection's own methods typed (tsc checks the lines below)", () => {
    expect(client.iam.groups.update).toBeTypeOf("function");
    // @ts-expect-error group invites never change: their type has no `update`.
    expect(client.iam.groupInvites.update).toBeUndefined();
  });

  afterAll(() => client.close());
});
