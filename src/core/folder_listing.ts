/**
 * "Is NAME in folder DIR?" for several names of one folder from one listing of it.
 *
 * A probe that fails (a `stat` that throws NotFound) costs a cold hook about three successful
 * ones; one listing of a small folder costs less than one failing probe. A listing is only ever
 * used to skip a probe that would fail: a name it shows (or might show) is still probed as
 * before, so symlink handling, owner checks and file kinds stay the probe's. Where a listing
 * could disagree with a probe it answers "maybe": a folder that cannot be listed (searchable but
 * not readable, no permission), any entry outside ASCII (Unicode case folding and normalisation,
 * macOS, casefolded Linux folders) and a name that differs only in ASCII case (case-insensitive
 * file systems), on every system.
 *
 * @module
 */

/** One folder's listing as far as probes are concerned: its ASCII names in lower case. */
export interface ListedNames {
  /** The entries' names in ASCII lower case (entries outside ASCII excluded). */
  folded: ReadonlySet<string>;
  /** Some entry has a character outside ASCII: every name may be there. */
  odd: boolean;
}

/** A UTF-16 code unit outside ASCII (surrogates included). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The probe-relevant view of a folder's entry names (pure).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { listedNamesOf } from "./folder_listing.ts";
 * assert.deepEqual(listedNamesOf(["CLAUDE.md", "src"]), {
 *   folded: new Set(["claude.md", "src"]),
 *   odd: false,
 * });
 * assert.equal(listedNamesOf(["caf\u00e9"]).odd, true);
 * ```
 */
export function listedNamesOf(names: Iterable<string>): ListedNames {
  const folded = new Set<string>();
  let odd = false;
  for (const name of names) {
    if (NON_ASCII.test(name)) odd = true;
    else folded.add(name.toLowerCase());
  }
  return { folded, odd };
}

/**
 * Whether a probe of `relPath` (a name, or a path whose first segment is looked up) in a folder
 * listed as `listed` could find anything (pure): false only when no entry could answer it; `null`
 * (a folder that could not be listed) may hold anything.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { listedNamesOf, listingMayHold } from "./folder_listing.ts";
 * const listed = listedNamesOf(["claude.MD", ".github"]);
 * assert.ok(listingMayHold(listed, "CLAUDE.md"), "a case variant: probed");
 * assert.ok(listingMayHold(listed, ".github/instructions"));
 * assert.ok(!listingMayHold(listed, "AGENTS.md"));
 * assert.ok(!listingMayHold(listed, ".cursor/rules"));
 * assert.ok(listingMayHold(null, "AGENTS.md"), "not listable: probed");
 * assert.ok(listingMayHold(listedNamesOf(["AGENT\u017F.md"]), "AGENTS.md"), "outside ASCII");
 * ```
 */
export function listingMayHold(listed: ListedNames | null, relPath: string): boolean {
  if (listed === null || listed.odd) return true;
  const slash = relPath.search(/[\\/]/);
  const name = slash === -1 ? relPath : relPath.slice(0, slash);
  if (name === "" || name === "." || name === ".." || NON_ASCII.test(name)) return true;
  return listed.folded.has(name.toLowerCase());
}

/** Lists a folder's entry names; throws where it cannot. */
export type FolderLister = (dir: string) => Iterable<string>;

function readNames(dir: string): string[] {
  const names: string[] = [];
  for (const entry of Deno.readDirSync(dir)) names.push(entry.name);
  return names;
}

/**
 * The listings of one run (one touch): each folder listed at most once, when first asked about.
 * Made by the caller and passed down, never kept between runs (a folder changes between them).
 */
export interface FolderListings {
  /**
   * False only when `dir`'s listing shows that `dir/relPath` is not there (the probe of it would
   * fail); true when it may be (then probe it as before).
   */
  mayHold(dir: string, relPath: string): boolean;
}

/**
 * A fresh {@link FolderListings} for one run; `list` is the lister (tests pass one that throws).
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { folderListings } from "./folder_listing.ts";
 * const p = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${p}/AGENTS.md`, "- a");
 * const listings = folderListings();
 * assert.ok(listings.mayHold(p, "AGENTS.md"));
 * assert.ok(!listings.mayHold(p, "CLAUDE.md"));
 * assert.ok(listings.mayHold(`${p}/missing`, "CLAUDE.md"), "not listable: probe it");
 * const unlistable = folderListings(() => {
 *   throw new Deno.errors.PermissionDenied("no");
 * });
 * assert.ok(unlistable.mayHold(p, "CLAUDE.md"));
 * ```
 */
export function folderListings(list: FolderLister = readNames): FolderListings {
  const byFolder = new Map<string, ListedNames | null>();
  return {
    mayHold(dir, relPath) {
      let listed = byFolder.get(dir);
      if (listed === undefined) {
        try {
          listed = listedNamesOf(list(dir));
        } catch {
          listed = null;
        }
        byFolder.set(dir, listed);
      }
      return listingMayHold(listed, relPath);
    },
  };
}
