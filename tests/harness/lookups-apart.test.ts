/**
 * `lookupsApart` (`harness/request-names.ts`) tells the program's lookups (Lists: a GET
 * of a collection with a query) from what the resources read, for every collection
 * spelling the API uses.
 */
import { describe, expect, it } from "vitest";
import { lookupsApart } from "../../harness/request-names";

describe("lookupsApart", () => {
  it("counts a List of any collection as a lookup, camel-cased and v1 ones included", () => {
    const lookups = [
      "GET /iam/v2beta1/roles?name=viewer&page_size=200 200",
      "GET /iam/v2beta1/roleBindings?uidp.children_of=ROOT 200",
      "GET /iam/v2beta1/identityProviders?name=sso 200",
      "GET /registry/v1/tags?uidp.children_of=ROOT 200",
    ];
    const resources = [
      "GET /iam/v2beta1/groups/ROOT 200",
      "GET /iam/v2beta1/roleBindings/ROOT/0123456789abcdef 200",
      "POST /iam/v2beta1/groups/ROOT 200",
    ];
    expect(lookupsApart([...lookups, ...resources])).toEqual({ lookups, resources });
  });
});
