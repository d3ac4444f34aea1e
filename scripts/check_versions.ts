/**
 * Release gate: the tag, `deno.json`, `.claude-plugin/plugin.json` and the marketplace entry agree.
 *
 * ```sh
 * deno run --allow-read --allow-env scripts/check_versions.ts [--tag v1.2.3]
 * ```
 *
 * The tag defaults to `GITHUB_REF_NAME` when the workflow runs on a tag. On GitHub Actions
 * (`GITHUB_REPOSITORY` set) the marketplace entry must also point at this repository, so a fork
 * cannot publish a marketplace that installs someone else's plugin. Exit 1 lists every problem.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** The branch the release workflow publishes the plugin tree (with binaries) to. */
export const RELEASE_BRANCH = "release";

/** The plugin's name in the manifest and the marketplace. */
export const PLUGIN_NAME = "librarian";

/** What the check compares. */
export interface ReleaseFacts {
  denoJson: Record<string, unknown>;
  pluginJson: Record<string, unknown>;
  marketplaceJson: Record<string, unknown>;
  /** The git tag being released (`v1.2.3`), when there is one. */
  tag?: string | undefined;
  /** `owner/name` of the repository publishing the release, when known. */
  repository?: string | undefined;
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Every disagreement between the release facts, as sentences; empty when all agree (pure). */
export function releaseProblems(facts: ReleaseFacts): string[] {
  const problems: string[] = [];
  const version = facts.denoJson.version;
  if (typeof version !== "string" || !SEMVER.test(version)) {
    problems.push(
      `deno.json "version" must be a semantic version such as 1.2.3, not ${
        JSON.stringify(version)
      }`,
    );
    return problems;
  }
  if (facts.pluginJson.name !== PLUGIN_NAME) {
    problems.push(`.claude-plugin/plugin.json "name" must be "${PLUGIN_NAME}"`);
  }
  if (facts.pluginJson.version !== version) {
    problems.push(
      `.claude-plugin/plugin.json version ${JSON.stringify(facts.pluginJson.version)} differs ` +
        `from deno.json's ${version}`,
    );
  }
  if (facts.tag !== undefined && facts.tag !== `v${version}`) {
    problems.push(`tag ${facts.tag} does not match deno.json's version (expected v${version})`);
  }
  const plugins = Array.isArray(facts.marketplaceJson.plugins) ? facts.marketplaceJson.plugins : [];
  const entry = plugins.find((p) => isObject(p) && p.name === PLUGIN_NAME);
  if (!isObject(entry)) {
    problems.push(`.claude-plugin/marketplace.json has no plugin named "${PLUGIN_NAME}"`);
    return problems;
  }
  if (entry.version !== undefined && entry.version !== version) {
    problems.push(
      `.claude-plugin/marketplace.json lists ${PLUGIN_NAME} ${JSON.stringify(entry.version)}, ` +
        `not ${version}`,
    );
  }
  const source = entry.source;
  if (!isObject(source) || source.source !== "github" || source.ref !== RELEASE_BRANCH) {
    problems.push(
      `.claude-plugin/marketplace.json must install ${PLUGIN_NAME} from the "${RELEASE_BRANCH}" ` +
        `branch: {"source": "github", "repo": "<owner>/<name>", "ref": "${RELEASE_BRANCH}"}`,
    );
  } else if (facts.repository !== undefined && source.repo !== facts.repository) {
    problems.push(
      `.claude-plugin/marketplace.json installs from ${JSON.stringify(source.repo)}, but this ` +
        `release is published to ${facts.repository}; set "repo" to "${facts.repository}"`,
    );
  }
  return problems;
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  const value = JSON.parse(await Deno.readTextFile(path));
  if (!isObject(value)) throw new Error(`${path} does not hold a JSON object`);
  return value;
}

/** Reads the facts from the repository at `root`. */
export async function readReleaseFacts(
  root: string,
  tag: string | undefined,
  repository: string | undefined,
): Promise<ReleaseFacts> {
  return {
    denoJson: await readJson(join(root, "deno.json")),
    pluginJson: await readJson(join(root, ".claude-plugin", "plugin.json")),
    marketplaceJson: await readJson(join(root, ".claude-plugin", "marketplace.json")),
    tag,
    repository,
  };
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { tag: { type: "string" } } });
  const refIsTag = Deno.env.get("GITHUB_REF_TYPE") === "tag";
  const tag = values.tag ?? (refIsTag ? Deno.env.get("GITHUB_REF_NAME") : undefined);
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const facts = await readReleaseFacts(root, tag, Deno.env.get("GITHUB_REPOSITORY") || undefined);
  const problems = releaseProblems(facts);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`check_versions: ${problem}`);
    Deno.exit(1);
  }
  console.log(
    `check_versions: ${tag ?? "(no tag)"}, deno.json, plugin.json and marketplace.json agree on ` +
      `${facts.denoJson.version}`,
  );
}
