import assert from "node:assert/strict";
import {
  basenameOf,
  dirnameOf,
  isAbsolutePath,
  joinPath,
  normalizePath,
  relativeInside,
} from "./paths.ts";

Deno.test("normalizePath() turns backslashes into slashes and upper-cases the drive", () => {
  assert.equal(normalizePath("c:\\Repo\\src\\a.ts", "windows"), "C:/Repo/src/a.ts");
  assert.equal(normalizePath("C:\\Repo/src\\\\deep//a.ts", "windows"), "C:/Repo/src/deep/a.ts");
});

Deno.test("normalizePath() resolves . and .. segments and trailing slashes", () => {
  assert.equal(normalizePath("/repo/src/../lib/./a.ts", "linux"), "/repo/lib/a.ts");
  assert.equal(normalizePath("/repo/src/", "linux"), "/repo/src");
  assert.equal(normalizePath("/../..", "linux"), "/");
  assert.equal(normalizePath("C:\\..\\x", "windows"), "C:/x");
  assert.equal(normalizePath("a/../../b", "linux"), "../b");
});

Deno.test("normalizePath() reads Git Bash drive paths as Windows paths only on Windows", () => {
  assert.equal(normalizePath("/c/Users/me/repo", "windows"), "C:/Users/me/repo");
  assert.equal(normalizePath("/c/Users/me/repo", "linux"), "/c/Users/me/repo");
});

Deno.test("normalizePath() keeps UNC shares and brings Unicode to NFC", () => {
  assert.equal(normalizePath("\\\\server\\share\\repo", "windows"), "//server/share/repo");
  const nfd = "/repo/cafe\u0301/a.ts";
  assert.equal(normalizePath(nfd, "darwin"), "/repo/caf\u00e9/a.ts");
});

Deno.test("isAbsolutePath() knows POSIX and drive-letter forms", () => {
  assert.ok(isAbsolutePath("/x"));
  assert.ok(isAbsolutePath("C:/x"));
  assert.ok(!isAbsolutePath("x/y"));
  assert.ok(!isAbsolutePath("C:x"));
});

Deno.test("relativeInside() gives the path inside a parent, or null outside it", () => {
  assert.equal(relativeInside("/repo/src/a.ts", "/repo", "linux"), "src/a.ts");
  assert.equal(relativeInside("/repo", "/repo", "linux"), "");
  assert.equal(relativeInside("/repo-2/a.ts", "/repo", "linux"), null);
  assert.equal(relativeInside("/Repo/a.ts", "/repo", "linux"), null);
});

Deno.test("relativeInside() ignores case on Windows and macOS", () => {
  assert.equal(relativeInside("C:/REPO/Src/a.ts", "C:/repo", "windows"), "Src/a.ts");
  assert.equal(relativeInside("/Users/Me/Repo/a.ts", "/users/me/repo", "darwin"), "a.ts");
});

Deno.test("dirnameOf(), basenameOf() and joinPath() work on normal-form paths", () => {
  assert.equal(dirnameOf("/repo/src/a.ts"), "/repo/src");
  assert.equal(dirnameOf("/a.ts"), "/");
  assert.equal(dirnameOf("C:/a.ts"), "C:/");
  assert.equal(dirnameOf("a.ts"), "");
  assert.equal(basenameOf("/repo/src/a.ts"), "a.ts");
  assert.equal(joinPath("/repo", "", "src", "a.ts"), "/repo/src/a.ts");
  assert.equal(joinPath("C:/", "repo"), "C:/repo");
});
