/**
 * `librarian doctor`'s Codex CLI check: Codex installs the plugin's hooks unchanged from this
 * marketplace, but runs a plugin's hooks only once the user has trusted them (`/hooks` in the
 * Codex TUI), and again after every plugin update; until then `codex exec` skips them without a
 * word. The trust is kept in `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`) as one
 * `[hooks.state."<plugin>:hooks/hooks.json:<event>:<group>:<handler>"]` table per hook.
 *
 * A trust entry whose hash no longer matches (the plugin was updated) cannot be told from here
 * without Codex itself; the check says so.
 *
 * @module
 */

import { type EnvReader, homeDir, joinPath, readTextIfExists } from "../../core/mod.ts";
import { type Check, ok, warn } from "./check.ts";

/**
 * The Codex trust keys of the plugin's hooks (`hooks/hooks.json`), without the plugin id:
 * `tests/codex_check_test.ts` keeps this list equal to that file.
 */
export const CODEX_HOOK_KEYS: readonly string[] = [
  "pre_tool_use:0:0",
  "pre_tool_use:1:0",
  "post_tool_use:0:0",
  "post_tool_use:0:1",
  "user_prompt_submit:0:0",
  "session_start:0:0",
  "session_start:0:1",
  "subagent_start:0:0",
  "subagent_stop:0:0",
  "stop:0:0",
];

/** What Codex's configuration says about the Librarian plugin. */
export interface CodexTrust {
  /** The enabled plugin ids named `librarian@<marketplace>`. */
  plugins: string[];
  /** Per plugin id, the hook keys (of {@link CODEX_HOOK_KEYS}) with no trust entry. */
  untrusted: Record<string, string[]>;
}

/**
 * Reads the Librarian's plugins and their hooks' trust from `config.toml` text (pure; a line
 * scan of the table headers and their `enabled` / `trusted_hash` keys, no TOML parser).
 *
 * @example Usage
 * ```ts
 * import { codexTrustOf } from "./codex_check.ts";
 * import assert from "node:assert/strict";
 *
 * const config = '[plugins."librarian@mkt"]\nenabled = true\n\n' +
 *   '[hooks.state."librarian@mkt:hooks/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:a"\n';
 * const trust = codexTrustOf(config);
 * assert.deepEqual(trust.plugins, ["librarian@mkt"]);
 * assert.equal(trust.untrusted["librarian@mkt"]!.includes("stop:0:0"), false);
 * assert.equal(trust.untrusted["librarian@mkt"]!.includes("pre_tool_use:0:0"), true);
 * ```
 */
export function codexTrustOf(config: string): CodexTrust {
  const enabled = new Set<string>();
  const trusted = new Set<string>();
  let table: { kind: "plugin" | "hook"; id: string } | undefined;
  for (const raw of config.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    const header = /^\[\s*(plugins|hooks\.state)\s*\.\s*"([^"]+)"\s*\]$/.exec(line);
    if (header) {
      table = { kind: header[1] === "plugins" ? "plugin" : "hook", id: header[2]! };
      continue;
    }
    if (line.startsWith("[")) {
      table = undefined;
      continue;
    }
    if (table?.kind === "plugin" && /^enabled\s*=\s*true$/.test(line)) enabled.add(table.id);
    if (table?.kind === "hook" && /^trusted_hash\s*=\s*"[^"]+"$/.test(line)) trusted.add(table.id);
  }
  const plugins = [...enabled].filter((id) => /^librarian@/.test(id)).sort();
  const untrusted: Record<string, string[]> = {};
  for (const id of plugins) {
    untrusted[id] = CODEX_HOOK_KEYS.filter((key) => !trusted.has(`${id}:hooks/hooks.json:${key}`));
  }
  return { plugins, untrusted };
}

const TRUST_FIX = "start Codex, type /hooks and trust the Librarian's hooks (needed again after " +
  "every plugin update); for one run, 'codex exec --dangerously-bypass-hook-trust' runs them";

/**
 * The check for `librarian doctor`: nothing when Codex has no Librarian plugin enabled.
 *
 * @example Usage
 * ```ts
 * import { codexCheck } from "./codex_check.ts";
 * import { envFrom } from "../../core/env.ts";
 * import assert from "node:assert/strict";
 *
 * const home = Deno.makeTempDirSync();
 * assert.equal(codexCheck(envFrom({ CODEX_HOME: home })), undefined);
 * Deno.writeTextFileSync(`${home}/config.toml`, '[plugins."librarian@mkt"]\nenabled = true\n');
 * assert.equal(codexCheck(envFrom({ CODEX_HOME: home }))?.status, "warn");
 * ```
 */
export function codexCheck(env: EnvReader): Check | undefined {
  const home = env("CODEX_HOME")?.trim() ||
    (homeDir(env) === undefined ? undefined : joinPath(homeDir(env)!, ".codex"));
  if (home === undefined) return undefined;
  const config = readTextIfExists(joinPath(home, "config.toml"));
  if (config === null) return undefined;
  const trust = codexTrustOf(config);
  if (trust.plugins.length === 0) return undefined;
  const missing = trust.plugins.filter((id) => trust.untrusted[id]!.length > 0);
  if (missing.length > 0) {
    const counts = missing.map((id) =>
      `${id}: ${trust.untrusted[id]!.length} of ${CODEX_HOOK_KEYS.length} hooks not trusted`
    );
    return warn(
      "codex",
      `Codex CLI has the plugin installed but skips hooks it has not trusted (${
        counts.join("; ")
      })`,
      TRUST_FIX,
    );
  }
  return ok(
    "codex",
    `Codex CLI trusts the plugin's hooks (${trust.plugins.join(", ")}); after a plugin update ` +
      "it skips them until trusted again in /hooks",
  );
}
