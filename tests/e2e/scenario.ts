/**
 * Registering an end-to-end scenario: the real Claude Code CLI (pinned, installed on first use),
 * this repository as its plugin, a scripted model on loopback. Shared by every `tests/e2e/*_test.ts`.
 *
 * Scenarios run only with `LIBRARIAN_E2E=1` (`deno task e2e`); `deno task test` lists them as
 * ignored. When the CLI cannot be installed, they are skipped with a warning, except in CI (`CI`
 * set), where every scenario fails with the reason.
 *
 * @module
 */

import type { LogRecord } from "../../src/core/log.ts";
import { e2eClaudeVersion, ensureClaudeCode } from "../../scripts/install_claude.ts";
import { REPO_ROOT } from "../helpers.ts";
import { createProject, type E2EProject } from "./harness.ts";
import { type HookDuration, hookDurations } from "./transcript.ts";

export const ENABLED = Deno.env.get("LIBRARIAN_E2E") === "1";
/** The plugin tree under test: this repository unless `LIBRARIAN_E2E_PLUGIN_DIR` names another. */
const PLUGIN_DIR = Deno.env.get("LIBRARIAN_E2E_PLUGIN_DIR") || REPO_ROOT;
const IN_CI = !["", "0", "false"].includes((Deno.env.get("CI") ?? "").trim().toLowerCase());

/** The Claude Code version under test (`LIBRARIAN_E2E_CLAUDE`: `current` by default, `oldest`). */
export const CLAUDE_VERSION: string = e2eClaudeVersion();

let claudeBin: string | null = null;
let installError = "";
if (ENABLED) {
  try {
    claudeBin = await ensureClaudeCode((line) => console.error(`e2e: ${line}`), CLAUDE_VERSION);
  } catch (error) {
    installError = error instanceof Error ? error.message : String(error);
    console.error(
      `e2e: the pinned Claude Code CLI (${CLAUDE_VERSION}) is not available: ${installError}\n` +
        (IN_CI
          ? "e2e: CI is set, so every scenario FAILS."
          : "e2e: SKIPPING the end-to-end suite (outside CI; in CI this is a failure)."),
    );
  }
}

/** Every hook log line of every scenario, for the timing summary. */
export const hookRecords: LogRecord[] = [];
/** Every hook run the client timed, in every scenario. */
export const clientDurations: HookDuration[] = [];

export type Open = (files: Record<string, string | Uint8Array>) => Promise<E2EProject>;

/** The pinned CLI's executable, or `null` when it is not installed (scenarios are then skipped). */
export function claudeBinary(): string | null {
  return claudeBin;
}

/** Options of a scenario. */
export interface ScenarioOptions {
  /** `null`: run the plugins installed under the project's HOME, not `--plugin-dir`. */
  pluginDir?: string | null;
}

/** Registers a scenario; `open` makes projects that are disposed (and their logs kept) after it. */
export function scenario(
  name: string,
  fn: (open: Open, t: Deno.TestContext) => Promise<void>,
  options: ScenarioOptions = {},
): void {
  Deno.test({
    name: `e2e (${CLAUDE_VERSION}): ${name}`,
    ignore: !ENABLED || (claudeBin === null && !IN_CI),
    async fn(t) {
      const bin = claudeBin;
      if (bin === null) {
        throw new Error(`the pinned Claude Code CLI could not be installed: ${installError}`);
      }
      const projects: E2EProject[] = [];
      try {
        await fn(async (files) => {
          const project = await createProject(
            bin,
            files,
            options.pluginDir === undefined ? PLUGIN_DIR : options.pluginDir,
          );
          projects.push(project);
          return project;
        }, t);
      } finally {
        for (const project of projects) {
          hookRecords.push(...await project.log());
          clientDurations.push(...hookDurations(await project.transcripts()));
          await project[Symbol.asyncDispose]();
        }
      }
    },
  });
}
