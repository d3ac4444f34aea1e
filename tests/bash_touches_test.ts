/**
 * Which project files a Bash command line touches: a table of real command lines, each with the
 * project paths it must yield (a trailing `/` marks a folder), run against a fixture project.
 * Every path the command names that exists in the project, or that it writes, counts; what is
 * outside the project, in the library, unknown until run time, or the project root as a whole
 * does not.
 */

import assert from "node:assert/strict";
import { envFrom } from "../src/core/env.ts";
import { mergedLibraryFiles, projectTouchesOfCommand } from "../src/inject/bash_paths.ts";
import { tempDir, writeTree } from "./helpers.ts";
import { skipOnWindows } from "./platform.ts";

const FIXTURE: Record<string, string> = {
  "_memory_library/tech.md": "global",
  "_memory_library/src/api/patterns.md": "api",
  "_memory_library/src/ui/patterns.md": "ui",
  "src/api/x.ts": "x",
  "src/api/billing/invoice.ts": "invoice",
  "src/api/billing/tax.ts": "tax",
  "src/ui/modal.tsx": "modal",
  "src/ui/button.tsx": "button",
  "src/ui/theme/dark.css": "dark",
  "src/old file.ts": "space",
  "scripts/migrate.py": "py",
  "scripts/deploy.sh": "sh",
  "tests/api_test.py": "t",
  "tests/ui/modal.test.ts": "t",
  "pkg/server/main.go": "go",
  "README.md": "readme",
  "docs/guide.md": "guide",
  "patches/fix.diff": "diff",
};

/** [command, paths it must yield, working folder relative to the project (root if absent)]. */
type Row = [string, string[], string?];

const TABLE: Row[] = [
  // reading
  ["cat src/api/x.ts", ["src/api/x.ts"]],
  ["cat /dev/null", []],
  ["head -n 20 src/ui/modal.tsx", ["src/ui/modal.tsx"]],
  ["head -5 src/ui/modal.tsx src/api/x.ts", ["src/ui/modal.tsx", "src/api/x.ts"]],
  ["tail -f -n 100 src/api/billing/invoice.ts", ["src/api/billing/invoice.ts"]],
  ["cat 'src/old file.ts'", ["src/old file.ts"]],
  ["cat src/old\\ file.ts", ["src/old file.ts"]],
  ['cat "src/ui/"modal.tsx', ["src/ui/modal.tsx"]],
  ["cat src/api/missing.ts", []],
  ["wc -l src/ui/*.tsx", ["src/ui/button.tsx", "src/ui/modal.tsx"]],
  ["cat src/ui/*.nothing", []],
  ["cat src/{api/x.ts,ui/modal.tsx}", ["src/api/x.ts", "src/ui/modal.tsx"]],
  ['cat "src/ui/*.tsx"', []],
  ["diff src/api/billing/invoice.ts src/api/billing/tax.ts", [
    "src/api/billing/invoice.ts",
    "src/api/billing/tax.ts",
  ]],
  ["less README.md", ["README.md"]],
  ["cat _memory_library/tech.md", []],
  ["cat $UNKNOWN/x.ts", []],
  ["cat $(git ls-files src/ui)", []],
  ["echo $(cat src/api/x.ts)", ["src/api/x.ts"]],
  ["cat ~/notes.txt", []],
  ["cat $PWD/src/api/x.ts", ["src/api/x.ts"]],
  ["jq .name src/api/x.ts", ["src/api/x.ts"]],
  // writing
  ["echo hi > src/ui/new.tsx", ["src/ui/new.tsx"]],
  ['echo "> x"', []],
  ["echo '> src/ui/modal.tsx'", []],
  ["echo hi >> src/api/x.ts 2>&1", ["src/api/x.ts"]],
  ["cmd > /dev/null 2>&1", []],
  ["cat > src/ui/modal.tsx <<'EOF'\nexport const x = 1;\nrm -rf src/api\nEOF", [
    "src/ui/modal.tsx",
  ]],
  ["cat <<EOF > docs/new.md\n> not a redirect\nEOF\ncat src/api/x.ts", [
    "docs/new.md",
    "src/api/x.ts",
  ]],
  ["echo x | tee -a src/api/log.txt /tmp/other.txt", ["src/api/log.txt"]],
  ["sed -i 's/a/b/' src/api/billing/invoice.ts", ["src/api/billing/invoice.ts"]],
  ["sed -i.bak -e 's/a/b/' src/ui/modal.tsx", ["src/ui/modal.tsx"]],
  ["sed -i '' 's/a/b/' src/ui/modal.tsx", ["src/ui/modal.tsx"]],
  ["sed -n '1,20p' src/api/x.ts", ["src/api/x.ts"]],
  ["sed 's/src\\/ui/x/' README.md", ["README.md"]],
  ["perl -pi -e 's/foo/bar/g' src/api/x.ts", ["src/api/x.ts"]],
  ["awk '{print $1}' src/api/x.ts", ["src/api/x.ts"]],
  ["mv src/api/x.ts src/api/y.ts", ["src/api/x.ts", "src/api/y.ts"]],
  ["mv src/ui/modal.tsx src/api/", ["src/ui/modal.tsx", "src/api/"]],
  ["cp -r src/ui /tmp/backup", ["src/ui/"]],
  ["cp -t docs README.md", ["README.md", "docs/"]],
  ["rm -rf src/api/billing", ["src/api/billing/"]],
  ["rm -f src/api/never-existed.ts", []],
  ["touch src/ui/theme/light.css", ["src/ui/theme/light.css"]],
  ["mkdir -p src/api/refunds/v2", ["src/api/refunds/v2/"]],
  ["chmod +x scripts/deploy.sh", ["scripts/deploy.sh"]],
  ["sort -o docs/sorted.txt README.md", ["README.md", "docs/sorted.txt"]],
  // git and patch
  ["git mv src/ui/button.tsx src/ui/Button.tsx", ["src/ui/button.tsx", "src/ui/Button.tsx"]],
  ["git rm --cached src/api/x.ts", ["src/api/x.ts"]],
  ["git checkout -- src/ui/modal.tsx", ["src/ui/modal.tsx"]],
  ["git checkout main", []],
  ["git restore --staged src/api/billing", ["src/api/billing/"]],
  ["git -C src/api restore x.ts", ["src/api/x.ts"]],
  ["git status && git diff", []],
  ["git diff HEAD~1 -- src/api/x.ts", ["src/api/x.ts"]],
  ["git diff main src/api/x.ts", []],
  ["git log --oneline -5 -- src/ui", ["src/ui/"]],
  ["git blame -L 1,20 src/api/x.ts", ["src/api/x.ts"]],
  ["git add -A && git commit -m 'touch src/api/x.ts'", []],
  ["git add src/ui/modal.tsx", ["src/ui/modal.tsx"]],
  ["patch -p1 < patches/fix.diff", ["patches/fix.diff"]],
  [
    "patch -p1 <<'EOF'\n--- a/src/api/x.ts\n+++ b/src/api/x.ts\n@@ -1 +1 @@\n-x\n+y\nEOF",
    ["src/api/x.ts"],
  ],
  // interpreters and runners
  ["python scripts/migrate.py --dry-run", ["scripts/migrate.py"]],
  ["python3 -c 'print(1)'", []],
  ["python -m pytest tests/api_test.py::test_total -q", ["tests/api_test.py"]],
  ["pytest tests/ui", ["tests/ui/"]],
  ["bash scripts/deploy.sh staging", ["scripts/deploy.sh"]],
  ["./scripts/deploy.sh", ["scripts/deploy.sh"]],
  ["sh -c 'cat src/api/x.ts'", ["src/api/x.ts"]],
  ["node --test tests/ui/modal.test.ts", ["tests/ui/modal.test.ts"]],
  ["deno run -A --config deno.json src/api/x.ts", ["src/api/x.ts"]],
  ["deno test tests/ui/", ["tests/ui/"]],
  ["go run ./pkg/server", ["pkg/server/"]],
  ["go test ./pkg/...", ["pkg/"]],
  ["npx vitest run tests/ui/modal.test.ts", ["tests/ui/modal.test.ts"]],
  ["npm test", []],
  ["npx tsc --noEmit", ["src/api/"], "src/api"],
  ["npm test", ["src/ui/"], "src/ui"],
  ["timeout 60 npx jest src/ui", ["src/ui/"]],
  ["sudo -u app cat src/api/x.ts", ["src/api/x.ts"]],
  ["FOO=1 BAR=$X python scripts/migrate.py", ["scripts/migrate.py"]],
  // searches and listings
  ["grep -rn foo src/ui", ["src/ui/"]],
  ["grep -rn foo /etc", []],
  ["grep -rn foo", []],
  ["grep -rn foo", ["src/api/"], "src/api"],
  ["grep -e foo -e bar src/api/x.ts src/ui", ["src/api/x.ts", "src/ui/"]],
  ["grep foo src/api/x.ts | head -3", ["src/api/x.ts"]],
  ["rg -n 'TODO' src/api --glob '*.ts'", ["src/api/"]],
  ["rg TODO", []],
  ["find src/ui -name '*.tsx'", ["src/ui/"]],
  ["find . -name '*.ts'", []],
  ["ls", []],
  ["ls -la", []],
  ["ls -la src/ui", ["src/ui/"]],
  ["ls", ["src/api/"], "src/api"],
  ["tree -L 2 src", ["src/"]],
  ["ls /tmp /etc /", []],
  // working folder
  ["cd src/api && cat x.ts", ["src/api/x.ts"]],
  ["cd src/api; sed -i 's/a/b/' billing/tax.ts", ["src/api/billing/tax.ts"]],
  ["cd src && cd ui && ls", ["src/ui/"]],
  ["(cd src/api && cat x.ts); cat README.md", ["src/api/x.ts", "README.md"]],
  ["cd src/api | cat x.ts", []],
  ["cd $SOMEWHERE && cat x.ts", []],
  ["cd - && cat x.ts", []],
  ["cd ../ui && cat modal.tsx", ["src/ui/modal.tsx"], "src/api"],
  ["cd /etc && cat passwd", []],
  ["pushd src/ui && cat modal.tsx && popd && cat src/api/x.ts", ["src/ui/modal.tsx"]],
  // control flow, several folders
  ["if [ -f src/api/x.ts ]; then cat src/api/x.ts; fi", ["src/api/x.ts"]],
  ['for f in src/ui/*.tsx; do cat "$f"; done', []],
  ["cat src/api/x.ts && cat src/ui/modal.tsx || cat docs/guide.md", [
    "src/api/x.ts",
    "src/ui/modal.tsx",
    "docs/guide.md",
  ]],
  ["cat src/api/x.ts src/api/x.ts ./src/api/x.ts", ["src/api/x.ts"]],
  // cannot be parsed: nothing
  ["cat 'src/api/x.ts", []],
  ["echo $(cat src/api/x.ts", []],
];

async function fixtureProject() {
  const dir = await tempDir("librarian-bash-");
  const root = dir.path; // already the real, normal-form path
  await writeTree(root, FIXTURE);
  return { dir, root };
}

Deno.test("bash touches: each command line yields exactly its project paths", async (t) => {
  assert.ok(TABLE.length >= 60, "the spec covers at least 60 command lines");
  const { dir, root } = await fixtureProject();
  await using _ = dir;
  const env = envFrom({ HOME: "/home/someone-else" });
  for (const [command, expected, cwd] of TABLE) {
    await t.step(`${cwd ? `(in ${cwd}) ` : ""}${JSON.stringify(command)}`, () => {
      const result = projectTouchesOfCommand(command, cwd ? `${root}/${cwd}` : root, env);
      const got = result.ok ? result.touches.map((p) => p.relPath + (p.folder ? "/" : "")) : [];
      assert.deepEqual(got, expected);
    });
  }
});

Deno.test("bash touches: a command that cannot be parsed says why", () => {
  const result = projectTouchesOfCommand("cat 'src/api/x.ts", "/repo", envFrom({}));
  assert.deepEqual(result, { ok: false, reason: "unterminated single quote" });
});

Deno.test("bash touches: thousands of named files cost a bounded number of look-ups", async () => {
  const { dir, root } = await fixtureProject();
  await using _ = dir;
  const names = Array.from({ length: 5000 }, (_, i) => `src/ui/f${i}.tsx`).join(" ");
  const result = projectTouchesOfCommand(`cat ${names} src/api/x.ts`, root, envFrom({}));
  assert.ok(result.ok);
  assert.equal(result.truncated, true);
  assert.deepEqual(result.touches, []); // the look-up budget ran out before any of them existed
});

Deno.test("bash touches: a 1 MB here-document is read as data, not as commands", async () => {
  const { dir, root } = await fixtureProject();
  await using _ = dir;
  const body = "cat src/ui/modal.tsx > src/api/x.ts\n".repeat(30_000);
  const command = `cat > docs/big.md <<'EOF'\n${body}EOF\ncat src/api/x.ts`;
  assert.ok(command.length > 1_000_000);
  const result = projectTouchesOfCommand(command, root, envFrom({}));
  assert.ok(result.ok);
  assert.deepEqual(result.touches.map((p) => p.relPath), ["docs/big.md", "src/api/x.ts"]);
});

Deno.test("bash touches: a NUL character or a lone surrogate names nothing and throws nothing", async () => {
  const { dir, root } = await fixtureProject();
  await using _ = dir;
  for (const command of ["cat src/api/x.ts\0evil", "cat \ud800src/api/x.ts", "cat 'a\0b'"]) {
    const result = projectTouchesOfCommand(command, root, envFrom({}));
    assert.ok(!result.ok || result.touches.every((p) => !p.relPath.includes("\0")));
  }
});

Deno.test("merged library files: deeper folders first, then in the order touched, each file once", async () => {
  const { dir, root } = await fixtureProject();
  await using _ = dir;
  await writeTree(root, {
    "_memory_library/src/patterns.md": "src",
    "_memory_library/src/api/billing/edge.md": "b",
  });
  const found = projectTouchesOfCommand(
    "cat src/ui/modal.tsx src/api/billing/tax.ts src/api/x.ts",
    root,
    envFrom({}),
  );
  assert.ok(found.ok);
  const library = found.touches[0]!.library;
  assert.deepEqual(mergedLibraryFiles(library, found.touches).map((f) => f.relPath), [
    "src/api/billing/edge.md",
    "src/ui/patterns.md",
    "src/api/patterns.md",
    "src/patterns.md",
    "tech.md",
  ]);
});

Deno.test("bash touches: `..` after a link goes up from the link's target, as the kernel does", {
  ignore: skipOnWindows("makes symbolic links to folders"),
}, async () => {
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "proj/_memory_library/tech.md": "global",
    "proj/_memory_library/src/patterns.md": "src",
    "proj/_memory_library/lib/patterns.md": "lib",
    "proj/src/secret.ts": "in the project, not what is read",
    "proj/src/x.ts": "x",
    "proj/lib/deep/y.ts": "y",
    "proj/lib/x.ts": "what is read",
    "outside/deep/z.ts": "z",
    "outside/secret.ts": "outside the project",
  });
  const root = Deno.realPathSync(`${dir.path}/proj`);
  Deno.symlinkSync(`${root}/lib/deep`, `${root}/src/inner`);
  Deno.symlinkSync(Deno.realPathSync(`${dir.path}/outside/deep`), `${root}/src/away`);
  const env = envFrom({ HOME: "/home/someone-else" });
  const touched = (command: string, cwd = root) => {
    const result = projectTouchesOfCommand(command, cwd, env);
    return result.ok ? result.touches.map((p) => p.relPath + (p.folder ? "/" : "")) : [];
  };
  // the kernel: src/inner/.. is lib/, not src/
  assert.deepEqual(touched("cat src/inner/../x.ts"), ["lib/x.ts"]);
  assert.deepEqual(touched("cat ../x.ts", `${root}/src/inner`), ["lib/x.ts"]);
  assert.deepEqual(touched("ls src/inner/.."), ["lib/"]);
  assert.deepEqual(touched("cat src/inner/../*.ts"), ["lib/x.ts"]);
  // a `..` that leaves the project through a link names nothing of the project's
  assert.deepEqual(touched("cat src/away/../secret.ts"), []);
  assert.deepEqual(touched("cat src/away/../s*.ts"), []);
  // `cd` is logical, as Bash's is: `cd src/inner/..` is src/
  assert.deepEqual(touched("cd src/inner/.. && cat x.ts"), ["src/x.ts"]);
});
