import assert from "node:assert/strict";
import { checkTagPath, checkTagPathFully, checkTagType, tagTarget } from "./tag_rules.ts";

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
    ["src/api//", /empty segment/],
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

Deno.test("a trailing slash is forgiven: 'src/api/' files into src/api", () => {
  assert.deepEqual(checkTagPath("src/api/"), { ok: true, value: ["src", "api"] });
  assert.equal(tagTarget("global/", "tech").ok, true);
  assert.equal(checkTagPath("/").ok, false);
});

Deno.test("a tag path is NFC-normalised (the folder is compared by its NFC spelling)", () => {
  const nfd = "src/cafe\u0301";
  assert.deepEqual(checkTagPath(nfd), { ok: true, value: ["src", "caf\u00e9"] });
});

Deno.test("a path that NFKC would change is rejected, with the plain spelling", () => {
  const check = checkTagPath("\uff53\uff52\uff43/api"); // fullwidth "src"
  assert.equal(check.ok, false);
  if (!check.ok) assert.match(check.reason, /full-width or compatibility.*write 'src\/api'/);
  for (const path of ["src/\ufb01les", "x\u00b2/api", "src/\u2460"]) {
    assert.equal(checkTagPath(path).ok, false, path);
  }
});

Deno.test("a segment mixing look-alike scripts is rejected", () => {
  const cyrillicA = "src/\u0430pi"; // Cyrillic a + Latin "pi"
  const check = checkTagPath(cyrillicA);
  assert.equal(check.ok, false);
  if (!check.ok) assert.match(check.reason, /mixes Cyrillic and Latin letters; write 'api'/);
  assert.equal(checkTagPath("src/\u03bfrders").ok, false, "Greek omicron in a Latin word");
});

Deno.test("a segment written only in look-alike letters of another script is rejected", () => {
  const check = checkTagPath("src/\u0430\u0440\u0456"); // Cyrillic "api"
  assert.equal(check.ok, false);
  if (!check.ok) assert.match(check.reason, /looks like the Latin 'api'/);
});

Deno.test("separator look-alikes and mixed digit systems are rejected", () => {
  for (
    const path of ["src\u2215api", "src\u2044api", "a\u2236b", "v1\u0662", "src\u29f8api"]
  ) {
    assert.equal(checkTagPath(path).ok, false, path);
  }
});

Deno.test("real names in one script, or CJK with Latin, are accepted", () => {
  for (
    const path of [
      "docs/\u0434\u043e\u043a\u0443\u043c\u0435\u043d\u0442\u044b", // документы
      "src/\u03b1\u03c1\u03c7\u03b5\u03af\u03b1", // αρχεία
      "src/api\u65e5\u672c\u8a9e\u30c6\u30b9\u30c8", // api日本語テスト
      "src/\ud55c\uad6dv2", // 한국v2
      "src/caf\u00e9",
      "src/na\u00efve-stra\u00dfe",
    ]
  ) {
    assert.equal(checkTagPath(path).ok, true, path);
  }
});

Deno.test("'./global' files into a code folder literally named global, not the root", () => {
  assert.deepEqual(tagTarget("./global", "tech"), {
    ok: true,
    value: { folder: ["global"], name: "tech", relPath: "global/tech.md" },
  });
  assert.deepEqual(checkTagPath("./global/"), { ok: true, value: ["global"] });
  assert.deepEqual(checkTagPath("global/api"), { ok: true, value: ["global", "api"] });
  assert.equal(checkTagPath("./src").ok, false, "'./' is only the way to say 'the folder global'");
  assert.equal(checkTagPath("./").ok, false);
});

Deno.test("the shortcut for plain ASCII paths gives exactly what every rule gives", async () => {
  const fc = (await import("fast-check")).default;
  // ASCII paths built from the characters that matter to the rules: dots, slashes, spaces, `~`,
  // device names (`con`, `nul`, `lpt1`), `global`, and letters of both cases.
  const piece = fc.constantFrom(
    "a",
    "Z",
    "9",
    "_",
    "-",
    ".",
    "..",
    "/",
    " ",
    "~",
    "con",
    "NUL",
    "lpt1",
    "PrN",
    "aux",
    "Com0",
    "LPT9",
    "coM",
    "lpt",
    "global",
    "src",
    ":",
    "\\",
    "a".repeat(256),
  );
  const path = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));
  const deep = fc.integer({ min: 60, max: 70 }).map((n) => Array(n).fill("d").join("/"));
  fc.assert(
    fc.property(fc.oneof(path, deep), (p) => {
      assert.deepEqual(checkTagPath(p), checkTagPathFully(p));
    }),
    { numRuns: 3000 },
  );
});
