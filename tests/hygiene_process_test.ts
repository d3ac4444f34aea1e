/**
 * Months of use, through the real hooks (`bin/librarian stop` and `inject`, as Claude Code runs
 * them) in a git repository: 200 turns whose transcripts write code files and tag learnings (some
 * restated with other case or punctuation), with code files deleted and a folder renamed along
 * the way. Afterwards: no normalised duplicate is in the library; every learning whose cited code
 * files are all deleted is marked `stale` (or left out with LIBRARIAN_STALE=hide) wherever a touch
 * of its folder sends it; and the newest learning of every folder reaches the model on that
 * folder's first touch.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { learningsOf } from "../src/format/learnings.ts";
import { parseProvenance } from "../src/format/provenance.ts";
import { parseHookStdout, runLibrarian, tempDir } from "./helpers.ts";
import { commitAll, gitInit, gitOk } from "./cli_helpers.ts";
import { skipOnWindows } from "./platform.ts";

const TURNS = 200;
const FOLDERS = ["src/f0", "src/f1", "src/f2", "src/f3", "src/f4", "web/w5"];

function line(value: Record<string, unknown>): string {
  return JSON.stringify({ isSidechain: false, sessionId: "sess-months", ...value });
}

/** One turn's transcript: a prompt, a Write of `file`, a closing message (all unique per turn). */
function transcript(turn: number, file: string): string {
  const id = `toolu_${turn}`;
  return [
    line({
      type: "user",
      promptId: `p${turn}`,
      message: { role: "user", content: `turn ${turn}` },
    }),
    line({
      type: "assistant",
      message: {
        role: "assistant",
        content: [{
          type: "tool_use",
          id,
          name: "Write",
          input: { file_path: file, content: "x" },
        }],
      },
    }),
    line({
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
    }),
    line({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "text", text: `Done with turn ${turn}.` }] },
    }),
  ].join("\n") + "\n";
}

Deno.test({
  name:
    "months of turns: no learning twice, stale ones marked where a touch sends them, newest first-touch",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    await using dir = await tempDir();
    const root = join(dir.path, "proj");
    const lib = join(root, "_memory_library");
    await Deno.mkdir(lib, { recursive: true });
    await Deno.writeTextFile(join(root, "README.md"), "months\n");
    await gitInit(root);
    await commitAll(root, "start");
    const home = join(dir.path, "home");
    const env = {
      LIBRARIAN_STATE_DIR: join(dir.path, "state"),
      LIBRARIAN_NUDGE: "off",
      LIBRARIAN_SESSION_START: "off",
      LIBRARIAN_LOG: "off",
    };
    const transcriptPath = join(dir.path, "transcript.jsonl");
    const folderNow = new Map(FOLDERS.map((f) => [f, f]));
    const said = new Map<string, string[]>(); // folder → learnings filed there
    const deleted: string[] = [];
    let restated = 0;
    let known = 0;
    for (let turn = 0; turn < TURNS; turn++) {
      const folder = folderNow.get(FOLDERS[turn % FOLDERS.length]!)!;
      const file = `${folder}/m${turn}.ts`;
      await Deno.mkdir(join(root, folder), { recursive: true });
      await Deno.writeTextFile(join(root, file), `export const m${turn} = ${turn};\n`);
      await Deno.writeTextFile(transcriptPath, transcript(turn, join(root, file)));
      const mine = said.get(folder) ?? [];
      const learning = `Module m${turn} of ${folder} keeps rule ${turn} (${
        "why ".repeat(turn % 5)
      }it matters).`;
      let scratch = `## [TAG: ${folder}, type: patterns]\n- ${learning}\n`;
      if (turn % 7 === 6 && mine.length > 0) {
        // the same learning again, weeks later, in other words' clothing
        const old = mine[(turn * 13) % mine.length]!;
        scratch += `\n## [TAG: ${folder}, type: patterns]\n* ${
          old.toUpperCase().replace(/\.$/, "!!")
        }\n`;
        restated++;
      }
      mine.push(learning);
      said.set(folder, mine);
      await Deno.writeTextFile(join(lib, ".scratch.md"), scratch);
      const day = new Date(Date.UTC(2026, 5, 1) + turn * 12 * 3600_000).toISOString();
      const stop = await runLibrarian(["stop"], {
        cwd: root,
        home,
        env: { ...env, LIBRARIAN_NOW: day },
        stdin: JSON.stringify({
          session_id: "sess-months",
          transcript_path: transcriptPath,
          cwd: root,
          hook_event_name: "Stop",
          stop_hook_active: false,
        }),
      });
      assert.equal(stop.code, 0, stop.stderr);
      const message = String(parseHookStdout(stop.stdout)?.systemMessage ?? "");
      assert.match(message, /1 learning → /, `turn ${turn}: ${message}`);
      if (/already known/.test(message)) known++;
      if (turn % 20 === 19) await commitAll(root, `turn ${turn}`);
      if (turn % 23 === 22) {
        // a code file goes, one filed about some turns ago
        const gone = `${folder}/m${turn - 18}.ts`;
        if (folder === folderNow.get(FOLDERS[(turn - 18) % FOLDERS.length]!)) {
          await gitOk(root, "rm", "-q", gone);
          await commitAll(root, `delete ${gone}`);
          deleted.push(gone);
        }
      }
      if (turn === 120) {
        await gitOk(root, "mv", "src/f4", "src/g4"); // a folder renamed
        await commitAll(root, "rename f4");
        folderNow.set("src/f4", "src/g4");
      }
    }
    assert.ok(deleted.length >= 5, `deleted ${deleted.length}`);
    assert.equal(known, restated, "every restatement was recognised as already known");

    // 1. no normalised duplicate anywhere in the library
    const files: { relPath: string; text: string }[] = [];
    for (const folder of [...FOLDERS, "src/g4"]) {
      const path = join(lib, folder, "patterns.md");
      try {
        files.push({ relPath: `${folder}/patterns.md`, text: await Deno.readTextFile(path) });
      } catch {
        // a folder never filed into
      }
    }
    const keys = files.flatMap((f) => learningsOf(f.text).map((u) => u.key)).filter((k) =>
      k !== ""
    );
    assert.equal(keys.length, TURNS, "one learning per turn, none twice");
    assert.equal(new Set(keys).size, keys.length);

    // 2. and 3. a first touch of each folder whose code is still there
    const touch = async (folder: string, session: string, stale?: string) => {
      const result = await runLibrarian(["inject"], {
        cwd: root,
        home,
        env: { ...env, ...(stale ? { LIBRARIAN_STALE: stale } : {}) },
        stdin: JSON.stringify({
          session_id: session,
          cwd: root,
          hook_event_name: "PreToolUse",
          tool_name: "Read",
          tool_input: { file_path: join(root, folder, "new.ts") },
        }),
      });
      assert.equal(result.code, 0, result.stderr);
      const out = parseHookStdout(result.stdout) as
        | { hookSpecificOutput?: { additionalContext?: string } }
        | null;
      return out?.hookSpecificOutput?.additionalContext ?? "";
    };
    let marked = 0;
    for (const file of files) {
      const folder = file.relPath.slice(0, file.relPath.lastIndexOf("/"));
      if (folder === "src/f4") continue; // its code folder was renamed: lint reports the folder
      const sent = await touch(folder, `first-${folder.replace("/", "-")}`);
      const units = learningsOf(file.text);
      const newest = units[units.length - 1]!;
      assert.ok(
        sent.includes(newest.lines[0]!),
        `${folder}: the newest learning reaches the model`,
      );
      for (const unit of units) {
        const cited = parseProvenance(unit.provenance?.text ?? "")?.files ?? [];
        const gone = cited.length > 0 && cited.every((c) => deleted.includes(c));
        const first = unit.lines[0]!;
        const at = sent.indexOf(first);
        if (at < 0) continue; // cut by the budget: not sent at all
        const shown = sent.slice(
          at,
          sent.indexOf("\n", at) < 0 ? undefined : sent.indexOf("\n", at),
        );
        if (gone) {
          assert.match(shown, / \(stale: \S+ deleted since [0-9a-f]{7}\)$/, `${folder}: ${first}`);
          marked++;
        } else assert.doesNotMatch(shown, /\(stale:/, `${folder}: ${first}`);
      }
      if (folder === "src/f0") {
        const hidden = await touch(folder, "hide-f0", "hide");
        assert.doesNotMatch(hidden, /\(stale:/);
        assert.match(hidden, /\d+ stale learnings? left out/);
      }
    }
    assert.ok(marked >= 3, `stale learnings seen marked: ${marked}`);
  },
});
