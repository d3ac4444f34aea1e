import assert from "node:assert/strict";
import {
  claudeDir,
  DEFAULT_BUDGET,
  envFrom,
  logFile,
  MAX_BUDGET,
  MIN_BUDGET,
  readBudget,
  stateDir,
} from "../src/core/env.ts";
import { appendLog, formatLogLine, LOG_ROTATE_BYTES, parseLogLine } from "../src/core/log.ts";
import { HookInputError, parseHookEvent } from "../src/core/hook_io.ts";
import { normalizePath } from "../src/core/paths.ts";
import { tempDir } from "./helpers.ts";

Deno.test("readBudget() defaults to 9,000 and clamps to Claude Code's cap", () => {
  assert.deepEqual(readBudget(envFrom({})), { budget: DEFAULT_BUDGET });
  assert.deepEqual(readBudget(envFrom({ LIBRARIAN_BUDGET: "5000" })), { budget: 5000 });
  assert.equal(readBudget(envFrom({ LIBRARIAN_BUDGET: "50000" })).budget, MAX_BUDGET);
  assert.ok(MAX_BUDGET < 10_000);
  assert.equal(readBudget(envFrom({ LIBRARIAN_BUDGET: "10" })).budget, MIN_BUDGET);
  const bad = readBudget(envFrom({ LIBRARIAN_BUDGET: "lots" }));
  assert.equal(bad.budget, DEFAULT_BUDGET);
  assert.match(bad.warning ?? "", /not a whole number/);
});

Deno.test("state, log and Claude folders follow the documented precedence", () => {
  const home = envFrom({ HOME: "/home/me" });
  assert.equal(claudeDir(home), "/home/me/.claude");
  assert.equal(stateDir(home), "/home/me/.claude/librarian");
  assert.equal(logFile(home), "/home/me/.claude/librarian.log");
  // One state folder however the hooks were wired: the plugin's data folder only without a home.
  assert.equal(
    stateDir(envFrom({ HOME: "/h", CLAUDE_PLUGIN_DATA: "/data/lib" })),
    normalizePath("/h/.claude/librarian"), // on Windows, /h is Git Bash's name for H:/
  );
  assert.equal(stateDir(envFrom({ CLAUDE_PLUGIN_DATA: "/data/lib" })), "/data/lib");
  assert.equal(stateDir(envFrom({ HOME: "/h", LIBRARIAN_STATE_DIR: "/s" })), normalizePath("/s"));
  assert.equal(logFile(envFrom({ HOME: "/h", LIBRARIAN_LOG: "off" })), undefined);
  assert.equal(logFile(envFrom({ HOME: "/h", LIBRARIAN_LOG: "/tmp/x.log" })), "/tmp/x.log");
  // A drive path is a home only on Windows: elsewhere it would name a folder `C:` in the working
  // folder (the user's project), and the state and log would be written there.
  assert.equal(
    claudeDir(envFrom({ USERPROFILE: "C:\\Users\\me" })),
    Deno.build.os === "windows" ? "C:/Users/me/.claude" : undefined,
  );
  assert.equal(stateDir(envFrom({ HOME: ".", CLAUDE_PLUGIN_DATA: "data" })), undefined);
  assert.equal(
    logFile(envFrom({ HOME: "/h", LIBRARIAN_LOG: "x.log" })),
    normalizePath("/h/.claude/librarian.log"), // on Windows, /h is Git Bash's name for H:/
  );
  assert.equal(stateDir(envFrom({})), undefined);
});

Deno.test("log lines round-trip through parseLogLine(), quoting values with spaces", () => {
  const line = formatLogLine(new Date("2026-11-30T06:00:00.000Z"), "inject", {
    event: "PreToolUse",
    file: "src/my file.ts",
    chars: 120,
    ms: 12.345,
    skipped: undefined,
  });
  assert.equal(
    line,
    '2026-11-30T06:00:00.000Z inject event=PreToolUse file="src/my file.ts" chars=120 ms=12.3',
  );
  assert.deepEqual(parseLogLine(line), {
    time: "2026-11-30T06:00:00.000Z",
    command: "inject",
    fields: { event: "PreToolUse", file: "src/my file.ts", chars: "120", ms: "12.3" },
  });
  assert.equal(parseLogLine("garbage"), null);
});

Deno.test("a log value with controls, quotes, = or any white space is quoted, never raw", () => {
  const awkward = [
    "a\u0000b",
    "esc\u001b[31m",
    "del\u007f",
    "csi\u009b2J",
    "nbsp\u00a0x",
    "line\u2028sep",
    'say "hi"',
    "k=v",
    "tab\tx",
  ];
  for (const value of awkward) {
    const line = formatLogLine(new Date("2026-11-30T06:00:00.000Z"), "inject", { file: value });
    // deno-lint-ignore no-control-regex
    assert.ok(!/[\u0000-\u001f\u007f-\u009f]/.test(line), `raw control in ${JSON.stringify(line)}`);
    assert.ok(line.includes('file="'), `not quoted: ${JSON.stringify(line)}`);
    assert.equal(parseLogLine(line)?.fields.file, value);
  }
  const plain = formatLogLine(new Date(0), "inject", { sent: "a/b.md,c/é.md" });
  assert.ok(plain.endsWith(" sent=a/b.md,c/é.md"));
});

Deno.test("appendLog() creates a missing folder and rotates past 1 MiB", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/new/.claude/librarian.log`;
  assert.ok(await appendLog(path, "inject", { event: "X" }));
  await Deno.writeTextFile(path, "x".repeat(LOG_ROTATE_BYTES + 10));
  assert.ok(await appendLog(path, "inject", { event: "Y" }));
  assert.match(await Deno.readTextFile(path), /^\S+ inject event=Y\n$/);
  assert.ok((await Deno.stat(`${path}.1`)).size > LOG_ROTATE_BYTES);
  assert.equal(await appendLog(undefined, "inject", {}), false);
});

Deno.test("parseHookEvent() accepts compact, pretty and BOM-prefixed JSON", () => {
  const pretty =
    '{\n  "hook_event_name" : "PreToolUse",\n  "tool_input" : { "file_path" : "C:\\\\r\\\\a.ts" }\n}';
  const event = parseHookEvent("\uFEFF" + pretty);
  assert.equal(event.hook_event_name, "PreToolUse");
  assert.equal(event.tool_input?.file_path, "C:\\r\\a.ts");
});

Deno.test("parseHookEvent() rejects empty, non-JSON and non-object input with a reason", () => {
  for (
    const [input, reason] of [
      ["", /empty input/],
      ["not json", /not JSON/],
      ["[1,2]", /not a JSON object/],
      ['"str"', /not a JSON object/],
      ['{"tool_name":"Read"}', /no hook_event_name/],
    ] as const
  ) {
    assert.throws(
      () => parseHookEvent(input),
      (e: unknown) => e instanceof HookInputError && reason.test(e.message),
    );
  }
});

Deno.test("parseHookEvent() drops fields of the wrong type instead of trusting them", () => {
  const event = parseHookEvent('{"hook_event_name":"PreToolUse","session_id":5,"tool_input":[1]}');
  assert.equal(event.session_id, undefined);
  assert.equal(event.tool_input, undefined);
});

Deno.test("hashBytes() tells different contents apart, whatever their alignment", async () => {
  const { hashBytes } = await import("../src/core/hash.ts");
  const enc = new TextEncoder();
  const a = enc.encode("- learning one\n- learning two\n");
  const b = enc.encode("- learning one\n- learning twO\n");
  assert.notEqual(hashBytes(a), hashBytes(b));
  assert.equal(hashBytes(a), hashBytes(enc.encode("- learning one\n- learning two\n")));
  const shifted = new Uint8Array(a.length + 1);
  shifted.set(a, 1);
  assert.equal(hashBytes(shifted.subarray(1)), hashBytes(a), "an unaligned view hashes the same");
  assert.notEqual(hashBytes(new Uint8Array([1, 0, 0, 0])), hashBytes(new Uint8Array([1, 0, 0])));
  assert.match(hashBytes(new Uint8Array()), /^[0-9a-f]{16}$/);
});
