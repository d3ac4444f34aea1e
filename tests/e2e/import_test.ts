/**
 * End-to-end (issue 24): a monorepo's nested CLAUDE.md files and Cursor rules moved in with
 * `librarian init && librarian import --yes`, then a real Claude Code session that reads files in
 * several packages. No line of guidance reaches the model twice (Claude Code loads the handed-over
 * stubs, the Librarian sends the library once), and a manual Cursor rule's text is never sent.
 *
 * @module
 */

import assert from "node:assert/strict";
import { runLibrarian } from "../helpers.ts";
import { text, toolUse } from "./model_server.ts";
import { systemText, textsOf } from "./requests.ts";
import { scenario } from "./scenario.ts";

const PROJECT: Record<string, string> = {
  "CLAUDE.md": "# Monorepo\n- ROOT-GUIDE: use pnpm workspaces.\n@docs/conventions.md\n",
  "docs/conventions.md": "# Conventions\n- CONV-GUIDE: imperative commit subjects.\n",
  "packages/api/CLAUDE.md": "# API\n- API-GUIDE: handlers validate with zod.\n",
  "packages/api/src/handler.ts": "export const handler = 1;\n",
  "packages/web/CLAUDE.md": "# Web\n- WEB-GUIDE: components are functions.\n",
  "packages/web/src/App.tsx": "export const App = 1;\n",
  "packages/jobs/src/cron.ts": "export const cron = 1;\n",
  ".cursor/rules/release.mdc":
    "---\ndescription: How to cut a release\nalwaysApply: false\n---\n- RELEASE-RULE: tag, then push.\n",
  ".cursor/rules/api.mdc":
    "---\nglobs: packages/api/**\n---\n- API-RULE: errors are problem+json.\n",
};

const GUIDES = ["ROOT-GUIDE", "CONV-GUIDE", "API-GUIDE", "WEB-GUIDE", "API-RULE"];

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Imports (with `flags`), runs the session, and returns what the model saw in its last turn. */
async function session(open: Parameters<Parameters<typeof scenario>[1]>[0], flags: string[]) {
  const project = await open(PROJECT);
  await new Deno.Command("git", { args: ["init", "-q", project.root] }).output();
  const shell = { cwd: project.root, home: project.home };
  assert.equal((await runLibrarian(["init"], shell)).code, 0);
  const imported = await runLibrarian(["import", "--yes", ...flags], shell);
  assert.equal(imported.code, 0, imported.stderr + imported.stdout);
  const run = await project.run("Look at the handler, the app and the cron job.", [
    [toolUse("Read", { file_path: project.path("packages/api/src/handler.ts") })],
    [toolUse("Read", { file_path: project.path("packages/web/src/App.tsx") })],
    [toolUse("Read", { file_path: project.path("packages/jobs/src/cron.ts") })],
    [text("Done.")],
  ]);
  assert.equal(run.code, 0, run.stderr);
  const last = run.turns.at(-1)!.body;
  return { run, seen: [systemText(last), ...textsOf(last)].join("\n") };
}

scenario(
  "with --keep-originals the same session gets each CLAUDE.md's guidance twice (the control)",
  async (open) => {
    const { seen } = await session(open, ["--keep-originals"]);
    for (const guide of ["ROOT-GUIDE", "CONV-GUIDE", "API-GUIDE", "WEB-GUIDE"]) {
      assert.equal(occurrences(seen, guide), 2, `${guide}: natively and from the library`);
    }
  },
);

scenario(
  "after import --yes no line of guidance reaches the model twice, and a manual Cursor rule is never sent",
  async (open) => {
    const { run, seen } = await session(open, []);
    for (const guide of GUIDES) {
      assert.equal(occurrences(seen, guide), 1, `${guide} reached the model once`);
    }
    const everything = run.requests.map((r) => JSON.stringify(r.body)).join("\n");
    assert.equal(occurrences(everything, "RELEASE-RULE"), 0, "a manual rule's text is never sent");
    assert.match(seen, /How to cut a release/, "it is named with its description");
  },
);
