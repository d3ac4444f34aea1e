/**
 * Stop-hook benchmark: the whole process through the launcher (`sh bin/librarian stop` with real
 * hook JSON on stdin) against a bare Deno start that only reads and parses the same JSON.
 *
 * - routing: 2,000 scratch entries (6,000 bullets) into 150 existing files (50 folders × 3 types),
 *   the library and scratch reset before every run (untimed); the turn (for provenance) is read
 *   from the same 2 MB transcript as below. Goal ≤ 15× a bare start (issue 35).
 * - idle turn: an empty scratch and no new auto memory, what almost every turn is. Its session
 *   has a 2 MB transcript whose last turn only read and answered, so the stop nudge reads the
 *   turn from the end of a real-sized transcript (as it does until the session's one nudge).
 *   Goal ≤ 1.15× a bare start (issue 35), also with 40 auto memories already synced.
 *
 * Run alone with `deno run -A scripts/bench_stop.ts`; `deno task bench` calls {@link benchStop}.
 *
 * @module
 */

import { join } from "node:path";
import { encodeProjectDir } from "../src/automemory/memory_locate.ts";
import {
  baselineCommand,
  type BenchRow,
  benchRow,
  compare,
  formatRows,
  hookEnv,
  launcherPath,
  type TimedCommand,
} from "./bench_util.ts";

/** Issue 35's goals (issue 11's, tightened), as multiples of a bare Deno start (medians of wall time). */
export const STOP_GOALS = { routing: 15, idle: 1.15 } as const;

const ENTRIES = 2_000;
const BULLETS_PER_ENTRY = 3;
const FOLDERS = 50;
const TYPES = ["patterns", "tech", "edge"] as const;

/** Scratch text with `ENTRIES` blocks spread over every folder × type. */
export function benchScratch(): string {
  let text = "";
  for (let i = 0; i < ENTRIES; i++) {
    const folder = `services/svc${i % FOLDERS}/src`;
    const type = TYPES[Math.floor(i / FOLDERS) % TYPES.length]!;
    text += `## [TAG: ${folder}, type: ${type}]\n`;
    for (let b = 0; b < BULLETS_PER_ENTRY; b++) {
      text += `- entry ${i} learning ${b}: keep the why, e.g. retries need jitter (${i * 7 + b})\n`;
    }
    text += "\n";
  }
  return text;
}

/** Writes the 150 target files with some earlier learnings, and the scratch (synchronous). */
function resetLibrary(lib: string, scratch: string): void {
  try {
    Deno.removeSync(lib, { recursive: true });
  } catch {
    // first run
  }
  for (let f = 0; f < FOLDERS; f++) {
    const dir = join(lib, "services", `svc${f}`, "src");
    Deno.mkdirSync(dir, { recursive: true });
    for (const type of TYPES) {
      const earlier = Array.from({ length: 20 }, (_, i) => `- earlier learning ${i} of ${f}`);
      Deno.writeTextFileSync(
        join(dir, `${type}.md`),
        `# ${type}\n\n## Learnings (2026-01-05)\n\n${earlier.join("\n")}\n`,
      );
    }
  }
  Deno.writeTextFileSync(join(lib, ".scratch.md"), scratch);
}

/** A 2 MB transcript: many earlier turns that wrote code, then a turn that only read. */
export function benchTranscript(cwd: string): string {
  const line = (type: string, content: unknown) =>
    JSON.stringify({ type, isSidechain: false, message: { role: type, content }, cwd });
  const lines: string[] = [];
  let turn = 0;
  const body = "x".repeat(2_000);
  while (lines.join("\n").length < 2_000_000 && turn < 10_000) {
    turn++;
    const file = `${cwd}/src/mod${turn % 50}/file.ts`;
    lines.push(line("user", `Prompt ${turn}.`));
    lines.push(
      line("assistant", [{
        type: "tool_use",
        id: `w${turn}`,
        name: "Write",
        input: { file_path: file, content: body },
      }]),
    );
    lines.push(line("user", [{ type: "tool_result", tool_use_id: `w${turn}`, content: "ok" }]));
    lines.push(line("assistant", [{ type: "text", text: `Turn ${turn} done.` }]));
  }
  lines.push(line("user", "What does the retry helper do?"));
  lines.push(
    line("assistant", [{
      type: "tool_use",
      id: "r",
      name: "Read",
      input: { file_path: `${cwd}/src/a.ts` },
    }]),
  );
  lines.push(line("user", [{ type: "tool_result", tool_use_id: "r", content: body }]));
  lines.push(line("assistant", [{ type: "text", text: LAST_MESSAGE }]));
  return lines.join("\n") + "\n";
}

const LAST_MESSAGE = "Done. I tagged two learnings in the scratch file.";

function stopEvent(cwd: string): string {
  return JSON.stringify({
    session_id: "bench-session",
    transcript_path: join(cwd, "transcript.jsonl"),
    cwd,
    permission_mode: "default",
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: LAST_MESSAGE,
  });
}

function stopCommand(
  project: string,
  env: Record<string, string>,
  before?: () => void,
): TimedCommand {
  const event = stopEvent(project);
  return {
    cmd: "sh",
    args: [launcherPath(), "stop"],
    stdin: () => {
      before?.();
      return event;
    },
    env,
    cwd: project,
  };
}

/** Runs the stop benchmark and returns its rows. */
export async function benchStop(runs = { routing: 8, idle: 25 }): Promise<BenchRow[]> {
  const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "librarian-bench-stop-" }));
  try {
    const home = join(tmp, "home");
    await Deno.mkdir(join(home, ".claude"), { recursive: true });
    // a Deno cache of its own: the shared one is also used by other processes with other V8
    // flags, whose runs discard the hook's cached code (the bare start has one of its own too)
    const env = { ...hookEnv(home), DENO_DIR: join(tmp, "deno") };
    const rows: BenchRow[] = [];

    // (a) routing 2,000 entries into 150 files.
    const busy = join(tmp, "busy");
    const busyLib = join(busy, "_memory_library");
    const scratch = benchScratch();
    const routing = stopCommand(busy, env, () => resetLibrary(busyLib, scratch));
    resetLibrary(busyLib, scratch);
    await Deno.writeTextFile(join(busy, "transcript.jsonl"), benchTranscript(busy));
    const a = await compare(routing, baselineCommand(stopEvent(busy), env), runs.routing, 2);
    const remaining = Deno.readTextFileSync(join(busyLib, ".scratch.md"));
    if (remaining.trim() !== "") throw new Error("routing benchmark: scratch was not emptied");
    rows.push(benchRow(
      `stop, route ${ENTRIES} entries (${ENTRIES * BULLETS_PER_ENTRY} bullets) into ${
        FOLDERS * TYPES.length
      } files`,
      a,
      STOP_GOALS.routing,
    ));

    // (b) an idle turn: empty scratch, no new auto memory.
    const idle = join(tmp, "idle");
    await Deno.mkdir(join(idle, "_memory_library"), { recursive: true });
    await Deno.writeTextFile(join(idle, "_memory_library", ".scratch.md"), "");
    await Deno.writeTextFile(join(idle, "transcript.jsonl"), benchTranscript(idle));
    const b = await compare(
      stopCommand(idle, env),
      baselineCommand(stopEvent(idle), env),
      runs.idle,
    );
    rows.push(
      benchRow(
        "stop, idle turn (empty scratch, no new auto memory; turn read from a 2 MB transcript)",
        b,
        STOP_GOALS.idle,
      ),
    );

    // (c) an idle turn with 40 auto memories already synced (10 in team/): the scan only.
    const remembered = join(tmp, "remembered");
    await Deno.mkdir(join(remembered, "_memory_library"), { recursive: true });
    await Deno.writeTextFile(join(remembered, "_memory_library", ".scratch.md"), "");
    const memory = join(home, ".claude", "projects", encodeProjectDir(remembered), "memory");
    await Deno.mkdir(join(memory, "team"), { recursive: true });
    for (let i = 0; i < 40; i++) {
      await Deno.writeTextFile(
        join(memory, i < 30 ? "" : "team", `feedback_${i}.md`),
        `---\nname: m${i}\ndescription: memory ${i}\ntype: feedback\n---\nWhy ${i}.\n`,
      );
    }
    const warm = new Deno.Command("sh", {
      args: [launcherPath(), "stop"],
      env,
      cwd: remembered,
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const writer = warm.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stopEvent(remembered)));
    await writer.close();
    await warm.status; // the first turn syncs and files them; the timed ones only scan
    const c = await compare(
      stopCommand(remembered, env),
      baselineCommand(stopEvent(remembered), env),
      runs.idle,
    );
    rows.push(
      benchRow("stop, idle turn with 40 synced auto memories (10 in team/)", c, STOP_GOALS.idle),
    );
    return rows;
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  console.log("stop: building the library and timing...");
  console.log(formatRows(await benchStop()));
}
