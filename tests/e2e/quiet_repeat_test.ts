/**
 * Quiet repeats with the real client (`src/inject/quiet_repeat.ts`): in one session, a Read that
 * finds everything already sent is answered from the record of the last such Read, and a library
 * file changed in the session is still sent at the next Read.
 *
 * @module
 */

import assert from "node:assert/strict";
import { action, text, toolUse } from "./model_server.ts";
import { hookContexts } from "./requests.ts";
import { SETTLED_MS } from "../../src/inject/walk_memo_format.ts";
import { scenario } from "./scenario.ts";

const LIBRARY: Record<string, string> = {
  "_memory_library/tech.md": "# tech\n- ROOT-TECH: builds run on Deno 2.\n",
  "_memory_library/.scratch.md": "",
  "_memory_library/pkg/shared.md": "# shared\n- PKG-SHARED: one lock per window.\n",
  "pkg/a.ts": "export const A = 1;\n",
};

/** Waits until what the last Read read has settled (3 s), as while a model thinks between calls. */
function settled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, SETTLED_MS + 500));
}

scenario(
  "a repeat Read with nothing changed is replayed from its record; a library file changed in the session is sent at the next Read",
  async (open) => {
    const project = await open(LIBRARY);
    const read = toolUse("Read", { file_path: project.path("pkg/a.ts") });
    const shared = project.path("_memory_library/pkg/shared.md");
    const append = () =>
      Deno.writeTextFile(shared, "- PKG-LATER: added in the session.\n", { append: true });
    const run = await project.run("Read a.ts a few times.", [
      [read],
      [action(settled), read], // decided: no record yet
      [action(settled), read],
      [read], // replayed
      [action(append), read], // the library file changed: sent
      [text("Done.")],
    ], { timeoutMs: 120_000 });
    assert.equal(run.code, 0, `claude exited ${run.code}; stderr: ${run.stderr}`);
    assert.equal(run.result?.is_error, false, run.stdout);
    const reads = (await project.log()).filter((r) =>
      r.command === "inject" && r.fields.event === "PreToolUse" && r.fields.tool === "Read"
    );
    const fields = JSON.stringify(reads.map((r) => r.fields));
    // the second Read may already be kept (or only the third: a Read that wrote, as the walk
    // memo learning, is not), so the third may be replayed; the fourth is
    assert.deepEqual(
      reads.map((r) => r.fields.result),
      ["injected", "all-sent", "all-sent", "all-sent", "injected"],
      fields,
    );
    assert.equal(reads[1]!.fields.replayed, undefined, fields);
    assert.equal(reads[3]!.fields.replayed, "true", fields);
    assert.equal(reads[4]!.fields.replayed, undefined, fields);
    const sent = hookContexts(run.turns.at(-1)?.body ?? null).map((c) => c.text).join("\n");
    assert.match(sent, /PKG-LATER/, "the changed file reached the model");
    assert.equal(sent.match(/PKG-SHARED/g)?.length, 2, "sent at the first Read, and changed");
  },
);
