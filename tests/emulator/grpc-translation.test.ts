/**
 * The gRPC face's translation, call by call: a message becomes the HTTP request of its
 * method's rule, and JSON answers become messages (the Go client scenario judges the
 * whole; these pin the rules it relies on). Needs the built descriptor set.
 */
import { describe, expect, it } from "vitest";
import { descriptorFilePath, loadGrpcDefinitions } from "../../emulator/grpc/descriptors";
import { GrpcFace } from "../../emulator/grpc/face";
import { ProtoJson, timestampToJson } from "../../emulator/grpc/protojson";

const built = descriptorFilePath() !== undefined || Boolean(process.env.CI);
const IAM = "/chainguard.platform.iam.v2beta1";

describe.runIf(built)("gRPC translation", () => {
  const defs = loadGrpcDefinitions()!;
  const face = new GrpcFace(defs, async () => ({ kind: "drop" }));
  const json = new ProtoJson(defs);
  const method = (path: string) => defs.methods.get(path)!;
  const decoded = (path: string, object: Record<string, unknown>) => {
    const type = method(path).input;
    return type.decode(type.encode(type.fromObject(object)).finish()) as unknown as Record<
      string,
      unknown
    >;
  };

  it("an update: the uid in the path, the rest of the resource as the body, the mask as a query", async () => {
    const path = `${IAM}.GroupsService/UpdateGroup`;
    const call = face.callOf(
      method(path),
      decoded(path, {
        group: { uid: "a".repeat(40), name: "n", description: "d" },
        update_mask: { paths: ["description", "resource_limits"] },
      }),
      "Bearer t",
    );
    expect(call.method).toBe("PATCH");
    expect(call.rawPath).toBe(`/iam/v2beta1/groups/${"a".repeat(40)}`);
    expect(call.query).toBe("update_mask=description%2Cresource_limits");
    expect(call.authorization).toBe("Bearer t");
    expect((await call.readBody()).body).toEqual({ name: "n", description: "d" });
  });

  it("CreateGroup without a parent posts to the collection: a root organisation", async () => {
    const path = `${IAM}.GroupsService/CreateGroup`;
    const call = face.callOf(
      method(path),
      decoded(path, { group: { name: "new-org" } }),
      "Bearer t",
    );
    expect(call.method).toBe("POST");
    expect(call.rawPath.replace(/\/$/, "")).toBe("/iam/v2beta1/groups");
    expect((await call.readBody()).body).toEqual({ name: "new-org" });
  });

  it("a list: nested filters by proto name, zero values left out", () => {
    const path = `${IAM}.RoleBindingsService/ListRoleBindings`;
    const root = "b".repeat(40);
    const call = face.callOf(
      method(path),
      decoded(path, {
        uidp: { descendants_of: root },
        identity: `${root}/0123456789abcdef`,
        page_size: 0,
      }),
      undefined,
    );
    expect(call.method).toBe("GET");
    expect(call.rawPath).toBe("/iam/v2beta1/roleBindings");
    expect(new URLSearchParams(call.query).get("uidp.descendants_of")).toBe(root);
    expect(new URLSearchParams(call.query).get("identity")).toBe(`${root}/0123456789abcdef`);
    expect(new URLSearchParams(call.query).has("page_size")).toBe(false);
  });

  it("a multi-segment uid keeps its slashes in a ** variable", () => {
    const path = `${IAM}.GroupsService/GetGroup`;
    const uid = `${"c".repeat(40)}/0123456789abcdef`;
    expect(face.callOf(method(path), decoded(path, { uid }), undefined).rawPath).toBe(
      `/iam/v2beta1/groups/${uid}`,
    );
  });

  it("v1 lists: the v1 path of the rule, the v1 filter's fields by proto name", () => {
    const root = "d".repeat(40);
    const invites = "/chainguard.platform.iam.GroupInvites/List";
    const call = face.callOf(
      method(invites),
      decoded(invites, { group: root, key_id: "k1" }),
      undefined,
    );
    expect([call.method, call.rawPath]).toEqual(["GET", "/iam/v1/group_invites"]);
    expect(Object.fromEntries(new URLSearchParams(call.query))).toEqual({
      group: root,
      key_id: "k1",
    });
    const roles = "/chainguard.platform.iam.Roles/List";
    const byParent = face.callOf(
      method(roles),
      decoded(roles, { parent: "/", uidp: { children_of: root, in_root: false } }),
      undefined,
    );
    expect(byParent.rawPath).toBe("/iam/v1/roles");
    expect(Object.fromEntries(new URLSearchParams(byParent.query))).toEqual({
      parent: "/",
      "uidp.children_of": root,
    });
    const associations = "/chainguard.platform.iam.GroupAccountAssociations/List";
    expect(
      face.callOf(method(associations), decoded(associations, { group: root }), undefined).rawPath,
    ).toBe("/iam/v1/account_associations");
  });

  it("the token exchange takes its GET binding", () => {
    const path = "/chainguard.platform.oidc.SecurityTokenService/Exchange";
    const call = face.callOf(method(path), decoded(path, { aud: ["x"], identity: "i" }), undefined);
    expect(call.method).toBe("GET");
    expect(new URLSearchParams(call.query).getAll("aud")).toEqual(["x"]);
  });

  it("an answer naming every member of a oneof keeps the one that is set", () => {
    const type = defs.root.lookupType("chainguard.platform.iam.v2beta1.Identity");
    const message = json.fromJson(type, {
      uid: "u",
      claimMatch: { issuer: "https://issuer.example", issuerPattern: "", subject: "s" },
    });
    const back = type.toObject(type.decode(type.encode(message).finish()), { oneofs: true }) as {
      claim_match: { issuer?: string; issuer_pattern?: string; iss?: string };
    };
    expect(back.claim_match.issuer).toBe("https://issuer.example");
    expect(back.claim_match.issuer_pattern).toBeUndefined();
  });

  it("64-bit integers and map keys survive both ways", () => {
    const type = defs.root.lookupType("chainguard.platform.iam.v2beta1.AccountAssociation");
    const answer = {
      github: {
        appInstallations: {
          "9007199254740993": {
            installations: [{ installationId: "9007199254740995", name: "o" }],
          },
        },
      },
    };
    const message = json.fromJson(type, answer);
    const decoded = type.decode(type.encode(message).finish());
    expect(json.toJson(type, decoded as unknown as Record<string, unknown>)).toEqual(answer);
  });

  it("timestamps are RFC 3339 with 0, 3, 6 or 9 fraction digits", () => {
    expect(timestampToJson(0, 0)).toBe("1970-01-01T00:00:00Z");
    expect(timestampToJson(1, 500_000_000)).toBe("1970-01-01T00:00:01.500Z");
    expect(timestampToJson(1, 1_000)).toBe("1970-01-01T00:00:01.000001Z");
    expect(timestampToJson(1, 1)).toBe("1970-01-01T00:00:01.000000001Z");
  });
});
