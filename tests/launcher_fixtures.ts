/**
 * Fixtures for launcher tests: a copy of the plugin's launcher in a temp folder, and a PATH made of
 * chosen tools (a fake `uname`, a fake `deno`, or none), so the launcher's choices can be observed
 * without touching the repository's `bin/`.
 *
 * @module
 */

import { join } from "node:path";
import { LAUNCHER } from "./helpers.ts";

/** Real tools the launcher needs besides the ones a test fakes. */
const REAL_TOOLS = ["sh", "chmod", "uname"] as const;

function which(name: string): string {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":")) {
    const path = join(dir, name);
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not in this folder
    }
  }
  throw new Error(`test needs '${name}' on PATH`);
}

/** Writes an executable POSIX shell script. */
export async function writeScript(path: string, body: string, mode = 0o755): Promise<void> {
  await Deno.writeTextFile(path, `#!/bin/sh\n${body}\n`);
  await Deno.chmod(path, mode);
}

/**
 * A folder to use as the whole PATH: real `sh`, `chmod` and `uname` (and the `more` real tools
 * named), with `fakes` (name → script body) written over them. Without a `deno` fake there is no
 * deno on this PATH at all.
 */
export async function toolsDir(
  root: string,
  fakes: Record<string, string> = {},
  more: readonly string[] = [],
  name = "tools",
): Promise<string> {
  const dir = join(root, name);
  await Deno.mkdir(dir, { recursive: true });
  for (const name of [...REAL_TOOLS, ...more]) {
    if (!(name in fakes)) await Deno.symlink(which(name), join(dir, name), { type: "file" });
  }
  for (const [name, body] of Object.entries(fakes)) await writeScript(join(dir, name), body);
  return dir;
}

/** A fake `deno` that prints `FAKE-DENO` and then each argument on its own line. */
export const FAKE_DENO = `echo FAKE-DENO; for a in "$@"; do printf '%s\\n' "$a"; done`;

/** A fake `uname` that prints `output` whatever it is asked. */
export function fakeUname(output: string): string {
  return `echo '${output}'`;
}

/** Copies the launcher into `<root>/<pluginDir>/bin/librarian`; returns the plugin folder. */
export async function copyLauncher(root: string, pluginDir = "plugin"): Promise<string> {
  const plugin = join(root, pluginDir);
  await Deno.mkdir(join(plugin, "bin"), { recursive: true });
  await Deno.copyFile(LAUNCHER, join(plugin, "bin", "librarian"));
  return plugin;
}
