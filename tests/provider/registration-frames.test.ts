/**
 * What the engine records of where a resource was declared (`sourcePosition`, and
 * `stackTrace`, stored with every resource): the program's line first, and no frame of
 * the package's classes. Reads the RegisterResource request `@pulumi/pulumi` sends, under
 * `runtime.setMocks`, with its own stack parsing (`Resource.stackTrace`), for the classes
 * of an installed copy (how the classes are compiled decides which frames exist).
 */
import * as pulumi from "@pulumi/pulumi";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsumerProject } from "../../harness/installed-package";

/** The classes as users get them: an installed copy of the built package. */
const project = createConsumerProject({ name: "registration-frames", requiredSubpaths: ["."] });
const { Group, IdentityProvider } = project.require(
  "pulumi-irm",
) as typeof import("../../provider/index");
type Group = InstanceType<typeof Group>;
type IdentityProvider = InstanceType<typeof IdentityProvider>;

interface Sent {
  type: string;
  sourcePosition?: string;
  frames: string[];
  inputs: Record<string, unknown>;
}

const sent: Sent[] = [];
const ROOT = "a".repeat(40);

beforeAll(async () => {
  const original = MockMonitor.prototype.registerResource;
  MockMonitor.prototype.registerResource = function (
    this: MockMonitor,
    req: never,
    callback: never,
  ) {
    const request = req as {
      getType(): string;
      getSourceposition(): { getUri(): string; getLine(): number } | undefined;
      getStacktrace(): { getFramesList(): Array<{ getPc(): { getUri(): string } | undefined }> };
      getObject(): { toJavaScript(): Record<string, unknown> } | undefined;
    };
    const position = request.getSourceposition();
    sent.push({
      type: request.getType(),
      sourcePosition: position ? `${position.getUri()}:${position.getLine()}` : undefined,
      frames: (request.getStacktrace()?.getFramesList() ?? []).map(
        (f) => f.getPc()?.getUri() ?? "",
      ),
      inputs: request.getObject()?.toJavaScript() ?? {},
    });
    return original.call(this, req, callback);
  } as typeof original;
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({
        id: `${ROOT}/made`,
        state: { ...args.inputs, uid: `${ROOT}/made` },
      }),
      call: () => ({}),
    },
    "registration-frames",
    "dev",
    false,
  );
});

afterAll(() => project.remove());

/** Named, so its frame parses (`at declare (file:line:column)`). */
function declare(): { group: Group; idp: IdentityProvider } {
  const group = new Group("frames", { parentUid: ROOT, name: "frames" });
  const idp = new IdentityProvider("frames-sso", {
    parentUid: ROOT,
    name: "sso",
    defaultRole: ROOT,
    oidc: { issuer: "https://login.example.com", clientId: "c" },
    clientSecret: "s3cret-frames",
  });
  return { group, idp };
}

describe("where a resource was declared", () => {
  it("is the program's line, with no frame of the package's classes", async () => {
    const { group } = declare();
    await new Promise<void>((resolve) => group.urn.apply(() => resolve()));
    const record = sent.find((s) => s.type === Group.__pulumiType);
    expect(record?.sourcePosition).toMatch(/registration-frames\.test\.ts:\d+$/);
    expect(record?.frames[0]).toMatch(/registration-frames\.test\.ts$/);
    expect(record?.frames.some((uri) => uri.includes("/node_modules/pulumi-irm/"))).toBe(false);
  });

  it("still registers each class's inputs: an IdentityProvider's client secret as a secret", async () => {
    const { idp } = declare();
    await new Promise<void>((resolve) => idp.urn.apply(() => resolve()));
    const record = sent.find((s) => s.type === IdentityProvider.__pulumiType);
    const secret = record?.inputs.clientSecret as Record<string, unknown> | undefined;
    expect(secret?.value).toBe("s3cret-frames");
    expect(secret?.[specialSigKey]).toBe(specialSecretSig);
    expect(record?.inputs.description).toBe("");
  });
});
