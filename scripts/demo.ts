/**
 * `deno task demo`: a newcomer's first command.
 *
 * Builds a throwaway repository with a small memory library, runs the real hooks through
 * `bin/librarian` on a few events exactly as Claude Code would, and prints what the model
 * receives at each step. Nothing outside a temp folder is touched.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const LAUNCHER = join(REPO_ROOT, "bin", "librarian");
const useColor = Deno.stdout.isTerminal() && !Deno.env.get("NO_COLOR");
const bold = (s: string) => useColor ? `\x1b[1m${s}\x1b[0m` : s;
const dim = (s: string) => useColor ? `\x1b[2m${s}\x1b[0m` : s;

const SAMPLE: Record<string, string> = {
  "_memory_library/patterns.md":
    "# Patterns\n- Every handler returns a Result; never throw across the API boundary.\n",
  "_memory_library/tech.md":
    "# Tech\n- Deno 2, PostgreSQL 16. Run `deno task test` before pushing.\n",
  "_memory_library/src/api/patterns.md":
    "# API patterns\n- Validate input with the schema in src/api/schema.ts before touching the database.\n",
  "_memory_library/src/api/billing/edge.md":
    "# Billing edge cases\n- Invoices are in cents; the legacy importer sends euros as floats. Convert at the edge.\n",
  "_memory_library/src/ui/patterns.md": "# UI patterns\n- Components never fetch; pages do.\n",
  "_memory_library/.scratch.md": "",
  "src/api/billing/invoice.ts":
    "export function total(cents: number[]) {\n  return cents.reduce((a, b) => a + b, 0);\n}\n",
  "src/ui/button.tsx": "export const Button = () => null;\n",
};

async function hook(command: string, event: Record<string, unknown>, env: Record<string, string>) {
  const child = new Deno.Command("sh", {
    args: [LAUNCHER, command],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
    env,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(event)));
  await writer.close();
  const out = await child.output();
  return new TextDecoder().decode(out.stdout).trim();
}

function show(title: string, event: Record<string, unknown>, stdout: string): void {
  console.log(`\n${bold(`▶ ${title}`)}`);
  console.log(dim(`  stdin:  ${JSON.stringify(event)}`));
  if (stdout === "") {
    console.log(dim("  stdout: (nothing: the model already has everything for this path)"));
    return;
  }
  const parsed = JSON.parse(stdout) as {
    hookSpecificOutput?: { additionalContext?: string };
    systemMessage?: string;
  };
  if (parsed.systemMessage) console.log(`  shown to the user: ${parsed.systemMessage}`);
  const context = parsed.hookSpecificOutput?.additionalContext;
  if (context) {
    console.log(`  the model receives (${context.length} characters):`);
    for (const line of context.split("\n")) console.log(`  │ ${line}`);
  }
}

const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "librarian-demo-" }));
try {
  const project = join(tmp, "shop");
  for (const [rel, text] of Object.entries(SAMPLE)) {
    await Deno.mkdir(dirname(join(project, rel)), { recursive: true });
    await Deno.writeTextFile(join(project, rel), text);
  }
  const env = {
    ...Deno.env.toObject(),
    HOME: join(tmp, "home"),
    LIBRARIAN_LOG: join(tmp, "librarian.log"),
    CLAUDE_PROJECT_DIR: project,
  };
  delete (env as Record<string, string | undefined>).LIBRARIAN_PATH;
  console.log(bold("The Librarian demo"));
  console.log(`A sample repository at ${project} with this library:`);
  for (const rel of Object.keys(SAMPLE).filter((r) => r.startsWith("_memory_library/"))) {
    console.log(`  ${rel}`);
  }
  const session = { session_id: "demo-session", cwd: project };
  const steps: [string, string, Record<string, unknown>][] = [
    ["The user types a prompt: the model is reminded how to record learnings", "inject", {
      ...session,
      hook_event_name: "UserPromptSubmit",
      prompt: "Fix the invoice rounding bug",
    }],
    [
      "The model Reads src/api/billing/invoice.ts: the billing, api and global files arrive with it",
      "inject",
      {
        ...session,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(project, "src/api/billing/invoice.ts") },
      },
    ],
    ["The model Edits the same file: nothing new to send, so nothing is sent", "inject", {
      ...session,
      hook_event_name: "PreToolUse",
      tool_name: "Edit",
      tool_input: {
        file_path: join(project, "src/api/billing/invoice.ts"),
        old_string: "a",
        new_string: "b",
      },
    }],
    [
      "The model Writes a new file under src/ui: only the UI file is new to this session",
      "inject",
      {
        ...session,
        hook_event_name: "PreToolUse",
        tool_name: "Write",
        tool_input: { file_path: join(project, "src/ui/modal.tsx"), content: "" },
      },
    ],
  ];
  for (const [title, command, event] of steps) show(title, event, await hook(command, event, env));

  const scratch = join(project, "_memory_library/.scratch.md");
  await Deno.writeTextFile(
    scratch,
    "## [TAG: src/api/billing, type: edge]\n- Rounding happens once, at invoice total; line items stay exact (finance audit requirement).\n",
  );
  const stopEvent = { ...session, hook_event_name: "Stop", stop_hook_active: false };
  const stopOut = await hook("stop", stopEvent, env);
  console.log(
    `\n${
      bold("▶ The model tagged a learning in .scratch.md; the turn ends and the Stop hook files it")
    }`,
  );
  console.log(dim(`  stdout: ${stopOut || "(nothing)"}`));
  const edge = join(project, "_memory_library/src/api/billing/edge.md");
  console.log(`  ${edge} now reads:`);
  for (const line of (await Deno.readTextFile(edge)).trimEnd().split("\n")) {
    console.log(`  │ ${line}`);
  }

  console.log(`\n${bold("▶ The hook log")} (${env.LIBRARIAN_LOG}):`);
  for (const line of (await Deno.readTextFile(env.LIBRARIAN_LOG)).trimEnd().split("\n")) {
    console.log(dim(`  ${line}`));
  }
} finally {
  await Deno.remove(tmp, { recursive: true });
}
