/**
 * A user who installs the package gets the gRPC face without Go: the packed files carry
 * the built descriptor set, and the installed emulator answers a gRPC call with it.
 */
import { Client, credentials, Metadata } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { descriptorFilePath } from "../../emulator/grpc/descriptors";
import { type ConsumerProject, createConsumerProject } from "../../harness/installed-package";

/** A checkout built without Go has no descriptor set to ship (a failure in CI). */
const built = descriptorFilePath() !== undefined || Boolean(process.env.CI);

interface InstalledEmulator {
  url: string;
  grpc: boolean;
  bootstrap: { grpcUrl?: string; token: string; rootGroupUid: string };
  close(): Promise<void>;
}

let project: ConsumerProject;
beforeAll(() => {
  if (!built) return;
  project = createConsumerProject({ name: "grpc-installed", requiredSubpaths: ["./emulator"] });
});
afterAll(() => project?.remove());

function unary(client: Client, path: string, token: string): Promise<Buffer> {
  const metadata = new Metadata();
  metadata.set("authorization", token);
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      path,
      (value: Buffer) => value,
      (value: Buffer) => value,
      Buffer.alloc(0),
      metadata,
      (error, value) => (error || !value ? reject(error) : resolve(value)),
    );
  });
}

describe.runIf(built)("the installed package's gRPC face", () => {
  it("ships the descriptor set and serves gRPC from it", async () => {
    expect(project.installedFiles).toContain("dist/emulator/grpc/descriptors.binpb");
    const { startEmulator } = project.require(`${project.packageName}/emulator`) as {
      startEmulator(options: { port: number }): Promise<InstalledEmulator>;
    };
    const emu = await startEmulator({ port: 0 });
    const client = new Client(new URL(emu.url).host, credentials.createInsecure());
    try {
      expect(emu.grpc).toBe(true);
      expect(emu.bootstrap.grpcUrl).toBe(emu.url);
      // ListGroups with an empty request: the bare token, as the platform's clients send it.
      const answer = await unary(
        client,
        "/chainguard.platform.iam.v2beta1.GroupsService/ListGroups",
        emu.bootstrap.token,
      );
      // The answer holds the root group's uid (a string field of the first group).
      expect(answer.includes(Buffer.from(emu.bootstrap.rootGroupUid))).toBe(true);
      await expect(
        unary(client, "/chainguard.platform.iam.v2beta1.GroupsService/ListGroups", ""),
      ).rejects.toMatchObject({ code: 16 });
    } finally {
      client.close();
      await emu.close();
    }
  });
});
