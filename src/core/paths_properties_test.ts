/**
 * core/paths against Node's own path module (posix and win32) on generated paths: the same normal
 * form, and the same answer to "where is this inside that folder". `node:path` is used here only,
 * never on a hook path.
 */
import assert from "node:assert/strict";
import { posix, win32 } from "node:path";
import fc from "fast-check";
import { normalizePath, relativeInside } from "./paths.ts";

/** Segments with the awkward cases: dots, empty ones, case pairs, non-ASCII letters. */
const SEGMENT = fc.constantFrom(
  "a",
  "b",
  "A",
  "B",
  "src",
  "Src",
  "é",
  "日本",
  "..",
  ".",
  "",
  "a.b",
);
const ASCII_SEGMENT = fc.constantFrom("a", "b", "A", "B", "src", "Src", "..", ".", "", "x.ts");

// A leading `//` is left out: the normal form keeps it as a UNC share on every OS, by design.
const posixPath = fc.array(SEGMENT, { maxLength: 8 }).filter((s) => s[0] !== "")
  .map((s) => `/${s.join("/")}`);
const winPath = (segment: fc.Arbitrary<string>) =>
  fc.tuple(fc.constantFrom("c", "C", "d"), fc.array(segment, { maxLength: 8 }), fc.boolean())
    .map(([drive, segments, back]) =>
      `${drive}:${back ? "\\" : "/"}${segments.join(back ? "\\" : "/")}`
    );

/** Node's normal form, brought to ours: no trailing slash (but the root's), `/`, upper drive. */
function nodeNormalWin(path: string): string {
  let p = win32.normalize(path).replaceAll("\\", "/");
  p = p[0]!.toUpperCase() + p.slice(1);
  return p.length > 3 && p.endsWith("/") ? p.slice(0, -1) : p;
}

function nodeNormalPosix(path: string): string {
  const p = posix.normalize(path);
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}

/** Node's relative path when `child` is inside `parent`, else null. */
function nodeInside(rel: string, isAbs: (p: string) => boolean): string | null {
  if (rel === "..") return null;
  if (rel.startsWith("../") || rel.startsWith("..\\") || isAbs(rel)) return null;
  return rel.replaceAll("\\", "/");
}

Deno.test("normalizePath() agrees with node:path posix.normalize on Linux paths (property)", () => {
  fc.assert(
    fc.property(posixPath, (path) => {
      assert.equal(normalizePath(path, "linux"), nodeNormalPosix(path));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("normalizePath() agrees with node:path win32.normalize on drive paths (property)", () => {
  fc.assert(
    fc.property(winPath(SEGMENT), (path) => {
      assert.equal(normalizePath(path, "windows"), nodeNormalWin(path));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("relativeInside() agrees with node:path posix.relative, case-sensitive (property)", () => {
  fc.assert(
    fc.property(posixPath, posixPath, (a, b) => {
      const child = normalizePath(a, "linux");
      const parent = normalizePath(b, "linux");
      const expected = nodeInside(posix.relative(parent, child), posix.isAbsolute);
      assert.equal(relativeInside(child, parent, "linux"), expected);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("relativeInside() agrees with node:path win32.relative, ignoring case (property)", () => {
  fc.assert(
    fc.property(winPath(ASCII_SEGMENT), winPath(ASCII_SEGMENT), (a, b) => {
      const child = normalizePath(a, "windows");
      const parent = normalizePath(b, "windows");
      const expected = nodeInside(win32.relative(parent, child), win32.isAbsolute);
      assert.equal(relativeInside(child, parent, "windows"), expected, `${child} in ${parent}`);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("relativeInside() compares whole segments: a fold that changes length shifts nothing", () => {
  // 'İ' lower-cases to two code units: slicing a lower-cased string by its length cut 's' off 'src'
  assert.equal(
    relativeInside("/Users/İlker/repo/src/a.ts", "/Users/İlker/repo", "darwin"),
    "src/a.ts",
  );
  assert.equal(relativeInside("C:/İ/src/a.ts", "c:/İ", "windows"), "src/a.ts");
  assert.equal(relativeInside("/users/σας/x", "/USERS/ΣΑΣ", "darwin"), "x", "final sigma folds");
  assert.equal(relativeInside("/Users/İlker/x", "/Users/ilker", "linux"), null);
  assert.equal(relativeInside("/repo-2/a", "/repo", "darwin"), null);
  assert.equal(relativeInside("/REPO/a", "/repo", "linux"), null, "Linux: case counts");
});
