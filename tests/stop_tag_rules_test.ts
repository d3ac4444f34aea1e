import assert from "node:assert/strict";
import { checkTagPath, checkTagType, tagTarget } from "../src/filing/tag_rules.ts";

Deno.test("'global' files into the library root, other paths into their folder", () => {
  assert.deepEqual(tagTarget("global", "tech"), {
    ok: true,
    value: { folder: [], name: "tech", relPath: "tech.md" },
  });
  assert.deepEqual(tagTarget("models/launch/btbi", "edge"), {
    ok: true,
    value: {
      folder: ["models", "launch", "btbi"],
      name: "edge",
      relPath: "models/launch/btbi/edge.md",
    },
  });
});

Deno.test("every escaping or unsafe path form is rejected with a reason", () => {
  const cases: ReadonlyArray<[string, RegExp]> = [
    ["", /empty/],
    ["/etc", /absolute/],
    ["//server/share", /absolute/],
    ["C:/Users/x", /drive letter/],
    ["c:relative", /drive letter/],
    ["src\\api", /backslash/],
    ["..", /'\.\.' segment/],
    ["../../x", /'\.\.' segment/],
    ["src/../../x", /'\.\.' segment/],
    [".", /'\.' segment/],
    ["src/./api", /'\.' segment/],
    ["src//api", /empty segment/],
    ["src/api/", /empty segment/],
    [".git", /starts with '\.'/],
    ["src/.hidden/x", /starts with '\.'/],
    ["src/a:stream", /':'/],
    ["src/what?", /'\?'/],
    ["src/con", /device name/],
    ["src/trailing.", /dot or space/],
    ["src/ leading", /starts with a space/],
    ["src/a\u0000b", /control character/],
  ];
  for (const [path, reason] of cases) {
    const check = checkTagPath(path);
    assert.equal(check.ok, false, `accepted ${JSON.stringify(path)}`);
    if (!check.ok) {
      assert.match(check.reason, reason, path);
      assert.ok(!check.reason.includes("\n"), "one line");
    }
  }
});

Deno.test("a type must be a plain file-name stem", () => {
  for (const type of ["patterns", "tech", "edge-cases", "snake_case", "v2"]) {
    assert.ok(checkTagType(type).ok, type);
  }
  const cases: ReadonlyArray<[string, RegExp]> = [
    ["", /empty/],
    ["../../z", /not a plain file name/],
    ["a/b", /not a plain file name/],
    ["a b", /not a plain file name/],
    [".hidden", /not a plain file name/],
    ["patterns.md", /extension \(write 'patterns'\)/],
    ["nul", /device name/],
  ];
  for (const [type, reason] of cases) {
    const check = checkTagType(type);
    assert.equal(check.ok, false, `accepted ${JSON.stringify(type)}`);
    if (!check.ok) assert.match(check.reason, reason, type);
  }
});

Deno.test("folder names with spaces and non-ASCII letters are fine", () => {
  assert.deepEqual(checkTagPath("docs/Read Me/größe"), {
    ok: true,
    value: ["docs", "Read Me", "größe"],
  });
});
