/**
 * Provider methods of `Repo`: a registry repository and its README, which the API keeps
 * as a sub-resource of its own (`<uid>/readme`). A create is one POST, plus one PATCH of
 * the README when the program declares one; an update is one PATCH with exactly the
 * changed repo fields, and one PATCH of the README only when it changed; a read is the
 * repo's GET and its README's.
 */
import type { IrmClient, Repo, RepoMaskPath, RepoUpdate } from "../../sdk/index";
import { checkRepoInputs, parentOf } from "../checks";
import type { RepoInputs, RepoOutputs } from "../shapes/index";
import { canonical, type FieldSpec, maskedFields, pick, sameField } from "./common";
import { namedObjectHandler, type ObjectApi } from "./object-handler";

export type { RepoInputs, RepoOutputs } from "../shapes/index";

/** What one request (or two) answered: the repo, its README, or both. */
export interface RepoAnswer {
  repo?: Repo;
  readme?: string;
}

/** The PATCH bodies of an update: the repo's masked fields, and the README if masked. */
interface RepoPatch {
  fields: RepoUpdate;
  readme?: string;
}

const REPO_FIELDS = ["name", "description", "catalogTier", "aliases"] as const;

const UPDATABLE: ReadonlyArray<FieldSpec<RepoInputs, RepoOutputs>> = [
  sameField("name"),
  sameField("description"),
  sameField("catalogTier"),
  {
    path: "aliases",
    fromInputs: (inputs) => canonical(inputs.aliases),
    fromOutputs: (outputs) => canonical(outputs.aliases),
  },
  sameField("readme"),
];

/**
 * State from an answer; what the answer lacks (the repo after a README-only update, the
 * README after a repo-only one) stays as `previous` has it.
 */
export function repoOutputs(answer: RepoAnswer, previous?: RepoOutputs): RepoOutputs {
  const { repo } = answer;
  const readme = answer.readme ?? previous?.readme ?? "";
  if (repo === undefined) {
    if (previous === undefined) throw new Error("a repo's state needs the repo's answer");
    return {
      ...pick(previous, [...REPO_FIELDS, "uid", "parentUid", "createTime", "updateTime"]),
      readme,
    };
  }
  return {
    uid: repo.uid,
    parentUid: parentOf(repo.uid) ?? "",
    name: repo.name,
    description: repo.description ?? "",
    catalogTier: repo.catalogTier || "CATALOG_TIER_UNSPECIFIED",
    aliases: [...(repo.aliases ?? [])],
    readme,
    createTime: repo.createTime,
    updateTime: repo.updateTime ?? repo.createTime,
  };
}

function repoInputsFrom(outputs: RepoOutputs): RepoInputs {
  return pick(outputs, ["parentUid", ...REPO_FIELDS, "readme"]);
}

function patchBody(inputs: RepoInputs, mask: readonly string[]): RepoPatch {
  return {
    fields: maskedFields(inputs, mask, REPO_FIELDS) as RepoUpdate,
    readme: mask.includes("readme") ? inputs.readme : undefined,
  };
}

/** The repos collection seen as one object per repo with its README. */
function repoApi(client: IrmClient): ObjectApi<RepoAnswer, RepoPatch, string> & {
  list(params: { childrenOf: string; name: string; pageSize: number }): Promise<{
    items: RepoAnswer[];
  }>;
} {
  const repos = client.registry.repos;
  const withReadme = async (repo: Repo): Promise<RepoAnswer> => ({
    repo,
    readme: (await repos.getReadme(repo.uid)).content,
  });
  return {
    // The repo first: its NOT_FOUND is the one that says the repo is gone.
    get: async (uid) => withReadme(await repos.get(uid)),
    async update(uid, body, { updateMask }) {
      const repoMask = updateMask.filter((path) => path !== "readme") as RepoMaskPath[];
      const answer: RepoAnswer = {};
      if (repoMask.length > 0) {
        answer.repo = await repos.update(uid, body.fields, { updateMask: repoMask });
      }
      if (updateMask.includes("readme")) {
        answer.readme = (await repos.updateReadme(uid, body.readme ?? "")).content;
      }
      return answer;
    },
    delete: (uid) => repos.delete(uid),
    isGone: (error, uid) => repos.isGone(error, uid),
    // The namesakes a lost create may have made, each with its README to compare.
    async list(params) {
      const page = await repos.list(params);
      return { items: await Promise.all(page.items.map(withReadme)) };
    },
  };
}

/**
 * One POST, then the README's PATCH when one is declared. Should that PATCH fail, the
 * repo just made is deleted again before the error is reported: nothing half-made
 * stays behind (a later run would find its name taken).
 */
async function createRepo(client: IrmClient, inputs: RepoInputs): Promise<RepoAnswer> {
  const repos = client.registry.repos;
  const repo = await repos.create(inputs.parentUid, {
    name: inputs.name,
    description: inputs.description,
    catalogTier: inputs.catalogTier as Repo["catalogTier"],
    aliases: inputs.aliases,
  });
  if (inputs.readme === "") return { repo, readme: "" };
  try {
    return { repo, readme: (await repos.updateReadme(repo.uid, inputs.readme)).content };
  } catch (error) {
    await repos.delete(repo.uid).catch(() => undefined);
    throw error;
  }
}

export const repoHandler = namedObjectHandler(repoApi, {
  kind: "repo",
  updatable: UPDATABLE,
  check: checkRepoInputs,
  outputs: repoOutputs,
  inputsFrom: repoInputsFrom,
  patchBody,
  create: createRepo,
  describe: (inputs) => `repo ${JSON.stringify(inputs.name)} under ${inputs.parentUid}`,
});
