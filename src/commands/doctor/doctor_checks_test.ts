/**
 * `doctor`'s pure checks (`src/commands/doctor/doctor_checks.ts`), in process: hooks wired twice are a
 * failure whose fix names the exact command for each settings file.
 */
import assert from "node:assert/strict";
import { doubleWiring } from "./doctor_checks.ts";
import type { HookWiring } from "../../setup/hooks_wiring.ts";

function wiring(settingsFiles: string[], enabled: boolean | null = true): HookWiring {
  return {
    wired: true,
    plugin: { ids: ["librarian@tools"], installPaths: ["/cache/librarian"], enabled },
    settings: settingsFiles.map((file) => ({ file, events: ["PreToolUse", "Stop"] })),
    unreadable: [],
  };
}

Deno.test("plugin plus settings hooks: a failure with one fix per settings file", () => {
  const check = doubleWiring(
    wiring([
      "/repo/.claude/settings.local.json",
      "/home/a/.claude/settings.json",
      "/repo/.claude/settings.json",
    ]),
    "/repo",
  );
  assert.equal(check?.status, "fail");
  assert.equal(check?.id, "hooks");
  assert.match(check!.message, /^wired twice: /);
  assert.ok(check!.fix!.includes("librarian setup-hooks --remove --project '/repo'"));
  assert.ok(check!.fix!.includes("librarian setup-hooks --remove --user"));
  assert.ok(
    check!.fix!.includes("delete the hooks that run librarian from /repo/.claude/settings.json"),
  );
  assert.ok(check!.fix!.endsWith("(or keep the settings and /plugin disable librarian@tools)"));
});

Deno.test("a project path with a quote is quoted for the shell in the fix", () => {
  const check = doubleWiring(wiring(["/it's/.claude/settings.local.json"]), "/it's");
  assert.ok(check!.fix!.includes("--project '/it'\\''s'"));
});

Deno.test("one way of wiring is no finding: plugin disabled, no plugin, or no settings hooks", () => {
  assert.equal(doubleWiring(wiring(["/repo/.claude/settings.json"], false), "/repo"), undefined);
  assert.equal(doubleWiring(wiring([]), "/repo"), undefined);
  const noPlugin = wiring(["/repo/.claude/settings.json"]);
  noPlugin.plugin.ids = [];
  assert.equal(doubleWiring(noPlugin, "/repo"), undefined);
});
