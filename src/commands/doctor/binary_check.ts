/**
 * `librarian doctor`'s line about the compiled binary that runs: where it is, its SHA-256 and how
 * it got there (the launcher's `<binary>.origin` beside a fetched or hand-installed one, else the
 * plugin folder it shipped in).
 *
 * @module
 */

import { basenameOf, dirnameOf } from "../../core/mod.ts";

/** What is known of the running binary. */
export interface BinaryFacts {
  path: string;
  /** Lower-case hex SHA-256, or null when the file could not be read. */
  sha256: string | null;
  /** The first line of `<path>.origin` (`downloaded from <url>`, `installed by hand from <file>`). */
  origin: string | null;
}

/**
 * The doctor's sentence for the running binary (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { describeBinary } from "./binary_check.ts";
 *
 * assert.equal(
 *   describeBinary({ path: "/d/binaries/1.2.3/librarian-x", sha256: "ab", origin: "downloaded from https://h/x" }),
 *   "/d/binaries/1.2.3/librarian-x runs the hooks (sha256 ab), downloaded from https://h/x",
 * );
 * assert.equal(
 *   describeBinary({ path: "/p/bin/librarian-x", sha256: null, origin: null }),
 *   "/p/bin/librarian-x runs the hooks (sha256 unreadable), shipped in /p/bin (a per-platform zip or a local build)",
 * );
 * ```
 */
export function describeBinary(facts: BinaryFacts): string {
  const how = facts.origin ??
    `shipped in ${dirnameOf(facts.path)} (a per-platform zip or a local build)`;
  return `${facts.path} runs the hooks (sha256 ${facts.sha256 ?? "unreadable"}), ${how}`;
}

/**
 * Reads the facts of the binary at `path`: its SHA-256 and its origin file.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { binaryFacts } from "./binary_check.ts";
 *
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/librarian-x`, "abc");
 * Deno.writeTextFileSync(`${dir}/librarian-x.origin`, "installed by hand from /tmp/x\nsha256 ...\n");
 * const facts = await binaryFacts(`${dir}/librarian-x`);
 * assert.equal(facts.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * assert.equal(facts.origin, "installed by hand from /tmp/x");
 * ```
 */
export async function binaryFacts(path: string): Promise<BinaryFacts> {
  let sha256: string | null = null;
  try {
    const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(path));
    sha256 = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  } catch {
    sha256 = null;
  }
  let origin: string | null = null;
  try {
    const line = (await Deno.readTextFile(`${path}.origin`)).split("\n")[0]!.trim();
    origin = line === "" ? null : line;
  } catch {
    origin = null;
  }
  return { path: `${dirnameOf(path)}/${basenameOf(path)}`, sha256, origin };
}
