/**
 * A year of turns, through the real hooks (`bin/librarian stop` and `inject`, as Claude Code runs
 * them) in a git repository whose clock is fixed (commit dates, `LIBRARIAN_NOW`): each turn
 * creates a code file and files a learning about it in the same turn (uncommitted then); some
 * turns also edit an older file a little or rewrite one whole; files are committed in batches, some deleted, some
 * renamed, some edited by hand a line at a time. Afterwards every learning is sent on a first
 * touch of its folder, in the same machine's next session (the record made by the Stop hook, then
 * `HEAD` moved), in a fresh state folder, and in a teammate's fresh clone: a learning is marked
 * stale exactly when one of its cited files was deleted, renamed or rewritten whole by a later
 * turn (0 false marks, 0 unmarked stale learnings).
 *
 * 28 turns, one every thirteen days, by default (scaled down from 400 to keep the run short on a
 * loaded machine); `YEAR_TURNS=400` runs the full year (a turn every 0.9 days, about 8 minutes).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { learningsOf } from "../src/format/learnings.ts";
import { parseProvenance } from "../src/format/provenance.ts";
import { parseHookStdout, runLibrarian, tempDir } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const TURNS = Number(Deno.env.get("YEAR_TURNS") ?? 28);
/** The time between two turns: the turns spread over a year. */
const TURN_GAP = Math.floor(364 * 24 * 3600_000 / TURNS);
/** The code folders: four, and one more for every seven turns past 28 (a library file per folder
 * stays within one touch's budget, so every learning is sent whole on its folder's first touch). */
const FOLDERS = [
  "src/api",
  "src/ui",
  "lib/core",
  "tools",
  ...Array.from({ length: Math.max(0, Math.ceil((TURNS - 28) / 7)) }, (_, i) => `pkg/p${i}`),
];
const DAY = 24 * 3600_000;
const START = Date.UTC(2026, 0, 5);

/** Runs git in `cwd` with the clock at `at` (ms): deterministic commits. */
async function gitAt(cwd: string, at: number, ...args: string[]): Promise<string> {
  const date = `${Math.floor(at / 1000)} +0000`;
  const out = await new Deno.Command("git", {
    args,
    cwd,
    env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, `git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return text;
}

function line(value: Record<string, unknown>): string {
  return JSON.stringify({ isSidechain: false, sessionId: "sess-year", ...value });
}

/** A turn's transcript: a prompt, then a Write of each of `files` (absolute), then a message. */
function transcript(turn: number, files: readonly string[]): string {
  const uses = files.map((file, i) => ({
    type: "tool_use",
    id: `toolu_${turn}_${i}`,
    name: "Write",
    input: { file_path: file, content: "x" },
  }));
  return [
    line({
      type: "user",
      promptId: `p${turn}`,
      message: { role: "user", content: `turn ${turn}` },
    }),
    line({ type: "assistant", message: { role: "assistant", content: uses } }),
    line({
      type: "user",
      message: {
        role: "user",
        content: uses.map((u) => ({ type: "tool_result", tool_use_id: u.id, content: "ok" })),
      },
    }),
    line({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "text", text: `Done with turn ${turn}.` }] },
    }),
  ].join("\n") + "\n";
}

/** A code file of `lines` lines. */
const code = (name: string, lines = 40) =>
  Array.from({ length: lines }, (_, i) => `export const ${name}_${i} = ${i};`).join("\n") + "\n";

Deno.test({
  name:
    "a year of turns: a learning is marked stale exactly when a cited file was deleted, renamed or rewritten since, in the same machine's sessions and a fresh clone's",
  ignore: skipOnWindows("needs git"),
  fn: async () => {
    await using dir = await tempDir();
    const root = join(dir.path, "proj");
    const lib = join(root, "_memory_library");
    await Deno.mkdir(lib, { recursive: true });
    await Deno.writeTextFile(join(lib, "tech.md"), "# Tech\n- The year test.\n");
    await Deno.writeTextFile(join(root, "README.md"), "a year\n");
    let clock = START;
    await gitAt(root, clock, "init", "-q", "-b", "main");
    await gitAt(root, clock, "config", "user.name", "Librarian Test");
    await gitAt(root, clock, "config", "user.email", "test@example.invalid");
    await gitAt(root, clock, "config", "commit.gpgsign", "false");
    const commit = async (message: string) => {
      await gitAt(root, clock, "add", "-A");
      await gitAt(root, clock, "commit", "-q", "--allow-empty", "-m", message);
    };
    await commit("start");
    const home = join(dir.path, "home");
    const env = { LIBRARIAN_NUDGE: "off", LIBRARIAN_LOG: "off", LIBRARIAN_HINT: "off" };
    const state = join(dir.path, "state");
    const transcriptPath = join(dir.path, "transcript.jsonl");
    /** Project-relative code file → what became of it. */
    const fate = new Map<string, "here" | "deleted" | "renamed">();
    const rewritten: string[] = []; // rewritten whole in a turn, not edited by hand since
    const rewrites = new Map<string, number[]>(); // file → the turns that rewrote it whole
    const alive = (folder: string) =>
      [...fate].filter(([f, s]) => s === "here" && f.startsWith(`${folder}/`)).map(([f]) => f);

    for (let turn = 0; turn < TURNS; turn++) {
      clock = START + turn * TURN_GAP;
      const folder = FOLDERS[turn % FOLDERS.length]!;
      const file = `${folder}/m${turn}.ts`;
      await Deno.mkdir(join(root, folder), { recursive: true });
      await Deno.writeTextFile(join(root, file), code(`m${turn}`, 40 + (turn % 3) * 40));
      fate.set(file, "here");
      const written = [file];
      const older = alive(folder).filter((f) => f !== file);
      if (turn % 6 === 5 && older.length > 0) {
        // the turn rewrites an older file whole: the learning saw the new version
        const other = older[0]!;
        await Deno.writeTextFile(join(root, other), code(`r${turn}`, 50));
        written.push(other);
        rewritten.push(other);
        rewrites.set(other, [...rewrites.get(other) ?? [], turn]);
      } else if (turn % 3 === 2 && older.length > 0) {
        // the turn also edits an older file a little: the learning cites both
        const other = older[(turn * 7) % older.length]!;
        await Deno.writeTextFile(join(root, other), `// touched in turn ${turn}\n`, {
          append: true,
        });
        written.push(other);
      }
      await Deno.writeTextFile(transcriptPath, transcript(turn, written.map((f) => join(root, f))));
      await Deno.writeTextFile(
        join(lib, ".scratch.md"),
        `## [TAG: ${folder}, type: patterns]\n- Module m${turn} of ${folder} keeps rule ${turn}.\n`,
      );
      const stop = await runLibrarian(["stop"], {
        cwd: root,
        home,
        env: {
          ...env,
          LIBRARIAN_STATE_DIR: state,
          LIBRARIAN_NOW: new Date(clock).toISOString(),
        },
        stdin: JSON.stringify({
          session_id: "sess-year",
          transcript_path: transcriptPath,
          cwd: root,
          hook_event_name: "Stop",
          stop_hook_active: false,
        }),
      });
      assert.equal(stop.code, 0, stop.stderr);
      const message = String(parseHookStdout(stop.stdout)?.systemMessage ?? "");
      assert.match(message, /1 learning → /, `turn ${turn}: ${message}`);
      clock += Math.floor(TURN_GAP / 2); // the turn's later commits, before the next turn
      if (turn % 4 === 3) await commit(`turns to ${turn}`);
      if (turn % 5 === 4) {
        // a hand edit of one line in a file filed about a while ago (not a rewrite)
        const older = alive(FOLDERS[(turn + 1) % FOLDERS.length]!);
        const again = rewritten.filter((f) => fate.get(f) === "here").at(-1);
        const target = again ?? older[turn % Math.max(1, older.length)];
        if (target) {
          await commit(`work to ${turn}`); // the turn's version is in git, then a line changes
          const path = join(root, target);
          const text = await Deno.readTextFile(path);
          await Deno.writeTextFile(path, text.replace(/ = 1;\n/, " = 100;\n"));
          rewritten.splice(0, rewritten.length);
          await commit(`tweak ${target}`);
        }
      }
      if (turn % 7 === 6) {
        const older = alive(FOLDERS[turn % FOLDERS.length]!).slice(0, -1);
        const gone = older[0];
        if (gone) {
          await Deno.remove(join(root, gone));
          await commit(`delete ${gone}`);
          fate.set(gone, "deleted");
        }
      }
      if (turn % 11 === 10) {
        const older = alive(FOLDERS[(turn + 2) % FOLDERS.length]!).slice(0, -1);
        const moved = older[older.length - 1];
        if (moved) {
          await commit(`before moving ${moved}`);
          await gitAt(root, clock, "mv", moved, moved.replace(/\.ts$/, "_renamed.ts"));
          await commit(`rename ${moved}`);
          fate.set(moved, "renamed");
        }
      }
    }
    // the last turns' files, committed after their learnings were filed; HEAD moves on
    clock += DAY;
    await commit("the rest");
    const counts = { deleted: 0, renamed: 0 };
    for (const s of fate.values()) if (s !== "here") counts[s]++;
    assert.ok(counts.deleted >= 4 && counts.renamed >= 2, JSON.stringify(counts));

    /** A session in project `at` with state folder `stateDir`: its start, then first touches. */
    const session = async (at: string, stateDir: string, id: string) => {
      let calls = 0;
      const run = async (event: Record<string, unknown>) => {
        const result = await runLibrarian(["inject"], {
          cwd: at,
          home,
          env: { ...env, LIBRARIAN_STATE_DIR: stateDir },
          stdin: JSON.stringify({ session_id: id, cwd: at, ...event }),
        });
        assert.equal(result.code, 0, result.stderr);
        const out = parseHookStdout(result.stdout) as
          | { hookSpecificOutput?: { additionalContext?: string } }
          | null;
        return out?.hookSpecificOutput?.additionalContext ?? "";
      };
      await run({ hook_event_name: "SessionStart", source: "startup" });
      return (folder: string) =>
        run({
          hook_event_name: "PreToolUse",
          tool_use_id: `toolu_${id}_${++calls}`,
          tool_name: "Read",
          tool_input: { file_path: join(at, folder, "new.ts") },
        });
    };

    /** Every learning's mark in the sessions of project `at` with state `stateDir`. */
    const check = async (at: string, stateDir: string, label: string) => {
      const wrong: string[] = [];
      const touch = await session(at, stateDir, label);
      let stale = 0;
      let fresh = 0;
      for (const folder of FOLDERS) {
        const text = await Deno.readTextFile(join(at, "_memory_library", folder, "patterns.md"));
        const sent = await touch(folder);
        for (const unit of learningsOf(text)) {
          const cited = parseProvenance(unit.provenance?.text ?? "")?.files ?? [];
          if (cited.length === 0) continue;
          const filed = Number(/Module m(\d+) /.exec(unit.lines[0]!)![1]);
          const rewrittenSince = (file: string) =>
            (rewrites.get(file) ?? []).some((turn) => turn > filed);
          const expected = cited.some((c) => fate.get(c) !== "here" || rewrittenSince(c));
          const first = unit.lines[0]!;
          const at = sent.indexOf(first);
          assert.ok(at >= 0, `${label}: ${folder}: '${first}' is sent`);
          const end = sent.indexOf("\n", at);
          const shown = sent.slice(at, end < 0 ? undefined : end);
          const mark = shown.indexOf(" (stale: ");
          if (expected) stale++;
          else fresh++;
          if (mark < 0 && expected) wrong.push(`${label}: unmarked: ${shown} [${cited.join(" ")}]`);
          // each reason true: deleted, renamed, or rewritten whole by a later turn
          const reasons = mark < 0 ? [] : shown.slice(mark + 9).split(/; | since /);
          for (const reason of reasons) {
            const [path, what] = reason.split(" ");
            if (what === undefined) continue;
            const fileFate = fate.get(path!);
            const right = what === "rewritten"
              ? fileFate === "here" && rewrittenSince(path!)
              : what === fileFate;
            if (!right) wrong.push(`${label}: false mark: ${shown} [${cited.join(" ")}]`);
          }
        }
      }
      assert.equal(stale + fresh, TURNS, `${label}: every learning checked`);
      assert.ok(stale >= 6, `${label}: ${stale} stale learnings`);
      return wrong;
    };

    // the same machine: the record the Stop hook kept, HEAD moved since
    const wrong = await check(root, state, "same-machine");
    // a cleared state folder on the same checkout
    wrong.push(...await check(root, join(dir.path, "state-cleared"), "cleared-state"));
    // a teammate's fresh clone, with a state folder of its own
    const clone = join(dir.path, "clone");
    await gitAt(dir.path, clock, "clone", "-q", root, clone);
    wrong.push(...await check(clone, join(dir.path, "state-clone"), "fresh-clone"));
    assert.deepEqual(wrong, [], "every mark true, every stale learning marked");
  },
});
