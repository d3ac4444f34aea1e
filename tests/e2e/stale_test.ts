/**
 * End-to-end scenario for stale learnings (issue 26): a learning whose cited code file was deleted
 * since it was filed reaches the real client marked `stale` on its first line, with the reason,
 * while a learning about code that is still there arrives unmarked. The Stop hook of one session
 * keeps the stale record (it consults git); the next session's touch reads it (no git call).
 * The real CLI (pinned) against the scripted model; runs with `LIBRARIAN_E2E=1`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { text, toolUse } from "./model_server.ts";
import { hookContexts } from "./requests.ts";
import { scenario } from "./scenario.ts";

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

scenario(
  "a learning whose cited file was deleted since it was filed is sent marked stale with the reason; one about code still there is not",
  async (open) => {
    const project = await open({
      "src/api/tax.ts": "export const RATE = 0.2;\n",
      "src/api/invoice.ts": "export const TOTAL = 1;\n",
      "_memory_library/src/api/edge.md": "# edge\n\n## Learnings (2026-11-01)\n\n" +
        "<!-- librarian: 2026-11-01 src/api/tax.ts -->\n" +
        "- TAX-LEARNING: the rate table is read once at start-up.\n\n" +
        "<!-- librarian: 2026-11-01 src/api/invoice.ts -->\n" +
        "- INVOICE-LEARNING: totals are integer cents.\n",
    });
    await git(project.root, "init", "-q");
    await git(project.root, "add", "-A");
    await git(project.root, "commit", "-qm", "start");
    await Deno.remove(project.path("src/api/tax.ts"));
    await git(project.root, "commit", "-qam", "tax.ts goes");

    // one turn ends: its Stop hook keeps the stale record
    const first = await project.run("Hello.", [[text("Hi.")]]);
    assert.equal(first.code, 0, first.stderr);

    const run = await project.run("Look at the invoice.", [
      [toolUse("Read", { file_path: project.path("src/api/invoice.ts") })],
      [text("Done.")],
    ]);
    assert.equal(run.code, 0, run.stderr);
    const contexts = hookContexts(run.turns.at(-1)!.body).map((c) => c.text).join("\n");
    assert.match(
      contexts,
      /- TAX-LEARNING: the rate table is read once at start-up\. \(stale: src\/api\/tax\.ts deleted( since [0-9a-f]{7})?\)\n/,
    );
    assert.match(contexts, /- INVOICE-LEARNING: totals are integer cents\.(\n|$)/);
    assert.doesNotMatch(contexts, /INVOICE-LEARNING[^\n]*stale/);
  },
);
