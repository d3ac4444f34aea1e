/**
 * How commands find the library and what they say when there is none (`src/cli/locate_library.ts`).
 */
import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import { LibrarianError } from "../src/core/errors.ts";
import {
  describeFoundBy,
  librarianPathProblem,
  libraryJson,
  locateLibrary,
  noLibraryError,
  noLibraryMessage,
} from "../src/cli/locate_library.ts";
import { tempDir } from "./helpers.ts";

Deno.test("LIBRARIAN_PATH: unset or an existing folder is fine; anything else says why it is ignored", async () => {
  await using dir = await tempDir();
  Deno.writeTextFileSync(`${dir.path}/file`, "");
  assert.equal(await librarianPathProblem(envFrom({})), undefined);
  assert.equal(await librarianPathProblem(envFrom({ LIBRARIAN_PATH: "  " })), undefined);
  assert.equal(await librarianPathProblem(envFrom({ LIBRARIAN_PATH: dir.path })), undefined);
  assert.equal(
    await librarianPathProblem(envFrom({ LIBRARIAN_PATH: "notes" })),
    'LIBRARIAN_PATH="notes" is not an absolute path, so it is ignored',
  );
  assert.match(
    (await librarianPathProblem(envFrom({ LIBRARIAN_PATH: `${dir.path}/file` })))!,
    /is not a folder, so it is ignored$/,
  );
  assert.match(
    (await librarianPathProblem(envFrom({ LIBRARIAN_PATH: `${dir.path}/gone` })))!,
    /does not exist, so it is ignored$/,
  );
});

Deno.test("a library above the folder is found as the hooks would find it", async () => {
  await using dir = await tempDir();
  Deno.mkdirSync(`${dir.path}/_memory_library`);
  Deno.mkdirSync(`${dir.path}/src/deep`, { recursive: true });
  const { library, envProblem } = await locateLibrary(envFrom({}), `${dir.path}/src/deep`);
  assert.equal(library?.root, `${dir.path}/_memory_library`);
  assert.equal(envProblem, undefined);
  assert.deepEqual(libraryJson(library!), {
    root: `${dir.path}/_memory_library`,
    projectRoot: dir.path,
    foundBy: "cwd",
  });
  assert.equal(describeFoundBy(library!), "above the current folder");
});

Deno.test("an unusable LIBRARIAN_PATH is reported beside the library found without it", async () => {
  await using dir = await tempDir();
  Deno.mkdirSync(`${dir.path}/_memory_library`);
  const found = await locateLibrary(envFrom({ LIBRARIAN_PATH: "relative" }), dir.path);
  assert.equal(found.library?.root, `${dir.path}/_memory_library`);
  assert.match(found.envProblem!, /not an absolute path/);
});

Deno.test("no library: exit 1, a message that says what to run, and JSON details", () => {
  const plain = noLibraryMessage("/repo");
  assert.match(
    plain,
    /LIBRARIAN_PATH is not set, and there is no _memory_library\/ folder in \/repo/,
  );
  assert.match(plain, /Run 'librarian init'/);
  const withProblem = noLibraryMessage("/repo", {
    envProblem: 'LIBRARIAN_PATH="x" is not an absolute path',
  });
  assert.ok(withProblem.includes('LIBRARIAN_PATH="x" is not an absolute path, and there is no'));
  const error = noLibraryError("/repo", {}, { findings: [] });
  assert.ok(error instanceof LibrarianError);
  assert.equal(error.exitCode, 1);
  assert.equal(error.message, plain);
  assert.deepEqual(error.details, { library: null, findings: [] });
});

Deno.test("every way of finding a library has words", () => {
  const base = { root: "/r/_memory_library", projectRoot: "/r" };
  assert.deepEqual(
    (["LIBRARIAN_PATH", "CLAUDE_PROJECT_DIR", "file", "cwd"] as const).map((foundBy) =>
      describeFoundBy({ ...base, foundBy })
    ),
    [
      "from LIBRARIAN_PATH",
      "above CLAUDE_PROJECT_DIR",
      "above the file",
      "above the current folder",
    ],
  );
});
