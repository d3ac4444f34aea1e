/**
 * End-to-end: Claude Code's auto memory, as the real CLI lays it out, reaches the library through
 * the Stop hook: with its body (the why), from a nested `team/` folder; the folder the project's
 * committed `.claude/settings.json` names with `autoMemoryDirectory` is synced only once the
 * person names it in their own settings.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { ClaudeRun } from "./harness.ts";
import { type ScriptedTurn, text, toolUse } from "./model_server.ts";
import { systemText } from "./requests.ts";
import { scenario } from "./scenario.ts";

const LIBRARY = {
  "_memory_library/tech.md": "# tech\n- builds run on Deno 2.\n",
  "src/app.ts": "export const A = 1;\n",
};

const done: ScriptedTurn = [text("Done.")];

function assertCompleted(run: ClaudeRun): void {
  assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
  assert.equal(run.result?.is_error, false, run.stdout);
  assert.equal(run.unscripted, 0, "the model was asked for more turns than scripted");
}

function memoryFile(name: string, description: string, type: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\nmetadata:\n  type: ${type}\n---\n\n${body}\n`;
}

scenario(
  "a memory the model writes during the turn is filed with its body, not only its description",
  async (open) => {
    const project = await open(LIBRARY);
    const memory = project.autoMemoryDir();
    const file = join(memory, "feedback_pnpm.md");
    const run = await project.run("Remember: always pnpm.", [
      [toolUse("Write", {
        file_path: file,
        content: memoryFile(
          "pnpm",
          "use pnpm",
          "feedback",
          "BODY-MARKER Always use pnpm, never npm.\n\n**Why:** the lockfile is pnpm-lock.yaml.",
        ),
      })],
      done,
    ]);
    assertCompleted(run);
    assert.ok(
      systemText(run.turns[0]!.body).includes(`${memory}/`),
      "the CLI uses a different auto-memory folder than the harness computed",
    );
    assert.ok(
      await Deno.stat(file).catch(() => null),
      "the model's Write did not create the memory",
    );
    const patterns = await project.read("_memory_library/patterns.md") ?? "";
    assert.match(
      patterns,
      /- pnpm: use pnpm\n {2}BODY-MARKER Always use pnpm, never npm\.\n {2}\*\*Why:\*\* the lockfile is pnpm-lock\.yaml\.\n/,
    );
  },
);

scenario("a team memory in memory/team/ is filed", async (open) => {
  const project = await open(LIBRARY);
  const team = join(project.autoMemoryDir(), "team");
  await Deno.mkdir(team, { recursive: true });
  await Deno.writeTextFile(
    join(team, "project_release.md"),
    memoryFile("release", "TEAM-MARKER releases go out on Tuesdays", "project", "Never Fridays."),
  );
  await Deno.writeTextFile(join(team, "MEMORY.md"), "- [release](project_release.md)\n");
  const run = await project.run("Hello.", [done]);
  assertCompleted(run);
  const product = await project.read("_memory_library/product.md") ?? "";
  assert.match(
    product,
    /- release: TEAM-MARKER releases go out on Tuesdays\n {2}Never Fridays\.\n/,
  );
  assert.doesNotMatch(product, /\[release\]\(project_release\.md\)/, "the index was filed");
});

scenario(
  "autoMemoryDirectory in the project's committed .claude/settings.json: the CLI uses it, the Librarian syncs it only on the person's word",
  async (open) => {
    const project = await open({
      ...LIBRARY,
      ".claude/settings.json": JSON.stringify({ autoMemoryDirectory: "~/team-memory" }) + "\n",
    });
    const custom = join(project.home, "team-memory");
    await Deno.mkdir(custom, { recursive: true });
    await Deno.writeTextFile(
      join(custom, "reference_dash.md"),
      memoryFile(
        "dashboards",
        "SETTINGS-MARKER Grafana is at grafana.internal",
        "reference",
        "Ask #ops.",
      ),
    );
    const run = await project.run("Hello.", [done]);
    assertCompleted(run);
    assert.ok(
      systemText(run.turns[0]!.body).includes(custom),
      "the CLI did not take autoMemoryDirectory from the project's settings",
    );
    assert.doesNotMatch(
      await project.read("_memory_library/tech.md") ?? "",
      /SETTINGS-MARKER/,
      "a cloned repository's settings chose what was copied into the library",
    );
    // The person's word: the same folder in their own settings.
    await Deno.mkdir(join(project.home, ".claude"), { recursive: true });
    await Deno.writeTextFile(
      join(project.home, ".claude", "settings.json"),
      JSON.stringify({ autoMemoryDirectory: "~/team-memory" }) + "\n",
    );
    assertCompleted(await project.run("Hello again.", [done]));
    const tech = await project.read("_memory_library/tech.md") ?? "";
    assert.match(
      tech,
      /- dashboards: SETTINGS-MARKER Grafana is at grafana\.internal\n {2}Ask #ops\.\n/,
    );
  },
);
