/**
 * Three whole-repository fixtures of the shapes issue 33 names, each with a code tree, and the one
 * scripted session run on each (`tests/e2e/shapes_test.ts`):
 *
 * - **monorepo**: a pnpm monorepo with a large root `CLAUDE.md` and eleven nested ones at several
 *   levels (`apps/`, `packages/`, `packages/core/src/billing/`, ...);
 * - **app**: an app with a root `AGENTS.md` and no `CLAUDE.md`, `.claude/rules/*.md` with `paths:`
 *   and `.cursor/rules/*.mdc` with `globs:`;
 * - **codex**: a Codex-style monorepo (Rust workspace, TypeScript SDK) with nested `AGENTS.md` only.
 *
 * Every guidance line of every memory file is a sentence of its own (no two files share one), so a
 * line that reaches the model twice was sent twice. Each shape gets a couple of learnings in
 * `_memory_library/` after `librarian init && librarian import --yes` ({@link Shape.learnings}).
 *
 * @module
 */

/** The files of a tree, project-relative path → text. */
export type Tree = Record<string, string>;

/** The touches of the scripted session, project-relative files. */
export interface Plan {
  /** Read, then Edit (the client requires a Read before an Edit). */
  read: string;
  /** Bash `cat <file>`. */
  cat: string;
  /** Bash `sed -i '$a // touched' <file>`. */
  sedInPlace: string;
  /** Write of a new file. */
  write: string;
  /** Bash `grep -n <pattern> <file>` (the pattern occurs in the file). */
  grep: { pattern: string; file: string };
  /** Bash `grep -n no-such-text-7f3 <file>`: a grep that finds nothing. */
  grepNoMatch: string;
  /** Bash `cat <file>` run by a subagent. */
  subagentCat: string;
}

/** One fixture: its tree, its learnings, the session's touches. */
export interface Shape {
  /** A short name: `monorepo`, `app`, `codex`. */
  id: string;
  name: string;
  files: Tree;
  /** Library files written after `librarian init && librarian import --yes`. */
  learnings: Tree;
  plan: Plan;
}

/** A `.claude/settings.json` that lets the scripted session run Bash. */
const SETTINGS = JSON.stringify({ permissions: { allow: ["Bash"] } });

/** `n` guidance lines about `topic`, each unique to its file (`tag` makes them so). */
function bullets(tag: string, topic: string, items: readonly string[]): string {
  return items.map((item, i) => `- ${item} (${tag} ${topic} ${i + 1})`).join("\n");
}

/** A large root `CLAUDE.md`: many sections, as a real monorepo's grows to be. */
function largeRootClaude(): string {
  const sections = [
    ["Workspace", [
      "Use pnpm workspaces; never npm or yarn in this repository",
      "Run commands from the repository root with pnpm --filter <package>",
      "Node 20 is the only supported runtime; .nvmrc pins it",
      "Shared TypeScript settings live in tsconfig.base.json",
      "Every package builds with tsup and emits ESM only",
    ]],
    ["Testing", [
      "Unit tests use vitest and sit next to the code they test",
      "Integration tests need the docker compose stack running first",
      "Never mock the database client; use the test containers",
      "Snapshot files are reviewed like code, never updated blindly",
      "A failing flaky test gets an issue before it gets a retry",
    ]],
    ["Code style", [
      "Prefer named exports; default exports only for Next.js pages",
      "Errors are typed classes extending AppError with a code field",
      "Dates travel as ISO strings and are parsed with date-fns at the edge",
      "Money is integer cents everywhere, formatted only in the UI",
      "No barrel files inside packages; import from the module itself",
      "Keep functions under fifty lines; extract helpers into the same folder",
    ]],
    ["Git and reviews", [
      "Commit subjects are imperative and under seventy characters",
      "Every pull request names the package it changes in its title",
      "Changesets are required for anything under packages/",
      "Squash merges only; keep the branch history tidy before review",
    ]],
    ["Architecture", [
      "apps/ hold deployables; packages/ hold libraries they share",
      "apps never import from another app; share through packages/",
      "packages/core is framework free and has no I/O of its own",
      "packages/db owns every SQL statement and migration",
      "Feature flags are read through packages/core/flags only",
      "Background jobs live in apps/worker and talk to the API over HTTP",
    ]],
    ["Security", [
      "Secrets come from the environment through the config package",
      "Never log request bodies; the logger redacts known keys only",
      "Every API route checks the session before touching data",
      "Rate limits are configured per route in apps/api/src/limits.ts",
    ]],
    ["Performance", [
      "Database queries in loops are a review blocker; batch them",
      "Images go through the CDN loader, never straight from storage",
      "Bundle size is checked in CI; a regression over five percent fails",
    ]],
    ["Documentation", [
      "Public functions in packages/ carry a TSDoc comment with an example",
      "Architecture decisions are recorded in docs/adr with a number",
      "The changelog is generated; never edit CHANGELOG.md by hand",
    ]],
  ] as const;
  const body = sections.map(([title, items]) =>
    `## ${title}\n\n${
      items.map((item) => `- ${item}. (root ${title.toLowerCase()})`).join("\n")
    }\n\nWhen in doubt about ${title.toLowerCase()}, ask in the team channel before you change the convention; conventions in this section were agreed in review and apply to every package unless a nested CLAUDE.md says otherwise.\n`
  ).join("\n");
  return `# Acme platform\n\nThis is the Acme billing platform monorepo: two apps, four shared packages and tooling.\n\n${body}`;
}

/** A nested `CLAUDE.md` for `folder`, with a few lines of its own. */
function nestedClaude(folder: string, title: string, items: readonly string[]): string {
  return `# ${title}\n\n${bullets(folder, "claude", items)}\n`;
}

/** (a) A monorepo with many nested `CLAUDE.md` files and one large root `CLAUDE.md`. */
export function monorepoShape(): Shape {
  const files: Tree = {
    ".claude/settings.json": SETTINGS,
    "package.json": JSON.stringify(
      { name: "acme-platform", private: true, packageManager: "pnpm@9.1.0" },
      null,
      2,
    ) + "\n",
    "pnpm-workspace.yaml": "packages:\n  - apps/*\n  - packages/*\n  - tools/*\n",
    "tsconfig.base.json": JSON.stringify({ compilerOptions: { strict: true } }, null, 2) + "\n",
    "CLAUDE.md": largeRootClaude(),
    "apps/web/CLAUDE.md": nestedClaude("apps/web", "Web app", [
      "The web app is Next.js with the app router; no pages directory",
      "Server components by default; add use client only for interactivity",
      "Data fetching goes through the typed API client in src/lib/api.ts",
    ]),
    "apps/web/package.json": '{ "name": "@acme/web" }\n',
    "apps/web/src/app/page.tsx":
      'import { InvoiceList } from "../components/InvoiceList";\n\nexport default function Page() {\n  return <InvoiceList />;\n}\n',
    "apps/web/src/components/CLAUDE.md": nestedClaude("apps/web/src/components", "Components", [
      "One component per file, named like the file",
      "Styling is Tailwind only; no CSS modules in new components",
      "Every interactive component has a story in the same folder",
    ]),
    "apps/web/src/components/InvoiceList.tsx":
      'export function InvoiceList() {\n  return <ul className="divide-y" />;\n}\n',
    "apps/web/src/components/Button.tsx":
      "export function Button(props: { label: string }) {\n  return <button>{props.label}</button>;\n}\n",
    "apps/api/CLAUDE.md": nestedClaude("apps/api", "API", [
      "The API is Fastify with zod schemas for every route",
      "Handlers return problem+json errors through the reply helper",
      "OpenAPI is generated from the schemas; never edit openapi.json",
    ]),
    "apps/api/src/server.ts":
      'import Fastify from "fastify";\n\nexport const server = Fastify({ logger: true });\n',
    "apps/api/src/routes/CLAUDE.md": nestedClaude("apps/api/src/routes", "Routes", [
      "One file per resource; the file exports a Fastify plugin",
      "Route paths are plural nouns; actions are sub-resources",
      "Pagination uses cursor parameters named after and limit",
    ]),
    "apps/api/src/routes/invoices.ts":
      'import type { FastifyInstance } from "fastify";\n\nexport async function invoices(app: FastifyInstance) {\n  app.get("/invoices", async () => []);\n}\n',
    "apps/worker/CLAUDE.md": nestedClaude("apps/worker", "Worker", [
      "Jobs are idempotent; a retried job must not charge twice",
      "Queue names are kebab-case and declared in src/queues.ts",
    ]),
    "apps/worker/src/queues.ts":
      'export const QUEUES = ["send-invoice", "sync-ledger"] as const;\n',
    "packages/core/CLAUDE.md": nestedClaude("packages/core", "Core", [
      "Core is pure TypeScript: no fetch, no fs, no process.env",
      "Every exported function has a unit test in the same folder",
    ]),
    "packages/core/src/index.ts": 'export * from "./billing/invoice";\n',
    "packages/core/src/billing/CLAUDE.md": nestedClaude("packages/core/src/billing", "Billing", [
      "Totals are rounded once, at the invoice total, half to even",
      "Tax rates come from the rates table, never from constants",
      "Credit notes are negative invoices linked to their original",
    ]),
    "packages/core/src/billing/invoice.ts":
      "export interface Invoice {\n  id: string;\n  totalCents: number;\n}\n\nexport function total(lines: number[]): number {\n  return lines.reduce((a, b) => a + b, 0);\n}\n",
    "packages/core/src/billing/tax.ts":
      "export function taxCents(amount: number, rate: number): number {\n  return Math.round(amount * rate);\n}\n",
    "packages/db/CLAUDE.md": nestedClaude("packages/db", "Database", [
      "Drizzle is the only query builder; raw SQL lives in sql/ files",
      "Every table has created_at and updated_at columns",
      "Run pnpm --filter @acme/db generate after a schema change",
    ]),
    "packages/db/src/client.ts":
      'import { drizzle } from "drizzle-orm/node-postgres";\n\nexport const db = drizzle(process.env.DATABASE_URL!);\n',
    "packages/db/migrations/CLAUDE.md": nestedClaude("packages/db/migrations", "Migrations", [
      "Migrations are forward only; a mistake is fixed by a new migration",
      "Never rename a column in one step; add, backfill, then drop",
    ]),
    "packages/db/migrations/0001_init.sql":
      "CREATE TABLE invoices (\n  id uuid PRIMARY KEY,\n  total_cents bigint NOT NULL\n);\n",
    "packages/ui/CLAUDE.md": nestedClaude("packages/ui", "UI kit", [
      "The UI kit wraps Radix primitives and exports no business logic",
      "Tokens come from src/theme.ts; no hard-coded colours",
    ]),
    "packages/ui/src/theme.ts": 'export const theme = { primary: "#0f62fe" } as const;\n',
    "tools/scripts/CLAUDE.md": nestedClaude("tools/scripts", "Scripts", [
      "Scripts run with tsx and take --dry-run before they write",
    ]),
    "tools/scripts/seed.ts": 'console.log("seeding");\n',
  };
  return {
    id: "monorepo",
    name: "monorepo (12 CLAUDE.md)",
    files,
    learnings: {
      "_memory_library/packages/db/edge.md":
        "# packages/db edge cases\n\n## Learnings (2026-11-20)\n- The invoices table is partitioned by month; queries must name the month range. (library packages/db learning)\n",
      "_memory_library/apps/api/src/routes/patterns.md":
        "# apps/api/src/routes patterns\n\n## Learnings (2026-11-21)\n- The invoices route streams CSV exports; keep the handler free of buffering. (library routes learning)\n",
    },
    plan: {
      read: "apps/web/src/components/InvoiceList.tsx",
      cat: "packages/core/src/billing/invoice.ts",
      sedInPlace: "packages/db/migrations/0001_init.sql",
      write: "apps/worker/src/retry.ts",
      grep: { pattern: "FastifyInstance", file: "apps/api/src/routes/invoices.ts" },
      grepNoMatch: "tools/scripts/seed.ts",
      subagentCat: "packages/ui/src/theme.ts",
    },
  };
}

/** A `.claude/rules` rule with `paths:`. */
function claudeRule(name: string, paths: readonly string[], items: readonly string[]): string {
  return `---\npaths:\n${paths.map((p) => `  - "${p}"`).join("\n")}\n---\n\n# ${name}\n\n${
    bullets(name, "rule", items)
  }\n`;
}

/** A Cursor rule with `globs:` (or always applied). */
function cursorRule(
  name: string,
  front: string,
  items: readonly string[],
): string {
  return `---\n${front}\n---\n\n# ${name}\n\n${bullets(name, "cursor", items)}\n`;
}

/** (b) An app with a root `AGENTS.md` (no `CLAUDE.md`), `.claude/rules` and Cursor rules. */
export function appShape(): Shape {
  const files: Tree = {
    ".claude/settings.json": SETTINGS,
    "package.json": '{ "name": "storefront", "private": true }\n',
    "AGENTS.md":
      `# Storefront\n\nA Next.js storefront with a tRPC server and Prisma.\n\n## Commands\n\n${
        bullets("root", "agents", [
          "Install with pnpm install; the lockfile is committed",
          "Start the dev server with pnpm dev on port 3000",
          "Run pnpm test before every commit; CI runs the same",
          "Format with pnpm format; lint errors fail the build",
        ])
      }\n\n## Conventions\n\n${
        bullets("root", "conventions", [
          "Prices are integer cents from the server to the checkout page",
          "Feature folders under src/features own their components and hooks",
          "Environment variables are validated in src/env.ts at start",
        ])
      }\n`,
    ".claude/rules/server.md": claudeRule("server", ["src/server/**"], [
      "Every tRPC procedure validates its input with zod",
      "Procedures that write use the protectedProcedure builder",
    ]),
    ".claude/rules/prisma.md": claudeRule("prisma", ["prisma/**"], [
      "Edit schema.prisma, then run pnpm prisma migrate dev --name <change>",
      "Relations are named in both directions; no implicit many-to-many",
    ]),
    ".claude/rules/components.md": claudeRule("components", ["src/components/**/*.tsx"], [
      "Components take a className prop and merge it with cn()",
      "Icons come from lucide-react; no inline SVG",
    ]),
    ".claude/rules/env.md": claudeRule("env", ["src/env.ts"], [
      "A new variable is added to the schema and to .env.example together",
    ]),
    ".cursor/rules/payments.mdc": cursorRule(
      "payments",
      "description: Payment provider rules\nglobs: src/server/payments/**\nalwaysApply: false",
      [
        "Stripe calls go through src/server/payments/stripe.ts only",
        "Webhook handlers verify the signature before reading the body",
      ],
    ),
    ".cursor/rules/testing.mdc": cursorRule(
      "testing",
      "description: Test rules\nglobs: **/*.test.ts\nalwaysApply: false",
      [
        "Tests build data with the factories in test/factories",
        "No network in unit tests; msw handles HTTP",
      ],
    ),
    ".cursor/rules/checkout.mdc": cursorRule(
      "checkout",
      "globs: src/features/checkout/**",
      [
        "The checkout flow keeps its state in the URL, never in local storage",
      ],
    ),
    "src/env.ts":
      'import { z } from "zod";\n\nexport const env = z.object({ DATABASE_URL: z.string() }).parse(process.env);\n',
    "src/server/trpc.ts":
      'import { initTRPC } from "@trpc/server";\n\nexport const t = initTRPC.create();\n',
    "src/server/routers/cart.ts":
      'import { t } from "../trpc";\n\nexport const cartRouter = t.router({});\n',
    "src/server/payments/stripe.ts":
      'import Stripe from "stripe";\n\nexport const stripe = new Stripe(process.env.STRIPE_KEY!);\n',
    "src/server/payments/webhook.ts":
      'import { stripe } from "./stripe";\n\nexport function verify(sig: string) {\n  return stripe.webhooks !== undefined && sig !== "";\n}\n',
    "src/server/payments/webhook.test.ts":
      'import { verify } from "./webhook";\n\ntest("rejects an empty signature", () => {\n  expect(verify("")).toBe(false);\n});\n',
    "src/components/ProductCard.tsx":
      "export function ProductCard(props: { name: string }) {\n  return <article>{props.name}</article>;\n}\n",
    "src/features/checkout/Checkout.tsx": "export function Checkout() {\n  return <form />;\n}\n",
    "src/features/checkout/useCart.ts": "export function useCart() {\n  return [];\n}\n",
    "prisma/schema.prisma":
      "model Product {\n  id    String @id\n  name  String\n  priceCents Int\n}\n",
    "test/factories/product.ts":
      'export const product = () => ({ id: "p1", name: "Mug", priceCents: 1200 });\n',
  };
  return {
    id: "app",
    name: "app (AGENTS.md + .claude/rules + Cursor rules)",
    files,
    learnings: {
      "_memory_library/src/server/payments/edge.md":
        "# src/server/payments edge cases\n\n## Learnings (2026-11-20)\n- Stripe retries a webhook for three days; the handler must be idempotent per event id. (library payments learning)\n",
      "_memory_library/prisma/patterns.md":
        "# prisma patterns\n\n## Learnings (2026-11-21)\n- Seed data lives in prisma/seed.ts and runs after every reset. (library prisma learning)\n",
    },
    plan: {
      read: "src/components/ProductCard.tsx",
      cat: "src/server/payments/webhook.test.ts",
      sedInPlace: "prisma/schema.prisma",
      write: "src/features/checkout/Summary.tsx",
      grep: { pattern: "stripe", file: "src/server/payments/stripe.ts" },
      grepNoMatch: "src/env.ts",
      subagentCat: "src/server/routers/cart.ts",
    },
  };
}

/** (c) A Codex-style monorepo: nested `AGENTS.md` only. */
export function codexShape(): Shape {
  const agents = (folder: string, title: string, items: readonly string[]) =>
    `# ${title}\n\n${bullets(folder, "agents", items)}\n`;
  const files: Tree = {
    ".claude/settings.json": SETTINGS,
    "AGENTS.md": `# Rust/codex-rs and the TypeScript SDK\n\n${
      bullets("root", "agents", [
        "The Rust workspace lives in codex-rs; the TypeScript SDK in sdk/typescript",
        "Run just fmt and just fix before you finish a change",
        "Never add a dependency without asking; the audit is manual",
        "Tests that need the network are marked and skipped in CI",
      ])
    }\n`,
    "codex-rs/AGENTS.md": agents("codex-rs", "codex-rs", [
      "Crate names are prefixed codex-; the folder drops the prefix",
      "Inline format! arguments when possible",
      "Use pretty_assertions::assert_eq in tests",
    ]),
    "codex-rs/Cargo.toml": '[workspace]\nmembers = ["core", "tui", "exec"]\n',
    "codex-rs/core/AGENTS.md": agents("codex-rs/core", "core", [
      "core never prints; it returns events the front ends render",
      "Sandbox policies are enforced in core/src/sandbox, not by callers",
    ]),
    "codex-rs/core/Cargo.toml": '[package]\nname = "codex-core"\nversion = "0.1.0"\n',
    "codex-rs/core/src/lib.rs": "pub mod sandbox;\npub mod config;\n",
    "codex-rs/core/src/config.rs":
      'pub struct Config {\n    pub model: String,\n}\n\npub fn default_model() -> &\'static str {\n    "gpt"\n}\n',
    "codex-rs/core/src/sandbox/AGENTS.md": agents("codex-rs/core/src/sandbox", "sandbox", [
      "Every new sandbox rule gets a test that runs the denied command",
      "Seatbelt and Landlock policies change together or not at all",
    ]),
    "codex-rs/core/src/sandbox/mod.rs":
      "pub fn is_allowed(cmd: &str) -> bool {\n    !cmd.is_empty()\n}\n",
    "codex-rs/tui/AGENTS.md": agents("codex-rs/tui", "tui", [
      "Use ratatui Stylize helpers instead of building Style by hand",
      "Snapshot tests cover every rendered widget; update them with cargo insta",
    ]),
    "codex-rs/tui/src/app.rs": "pub struct App {\n    pub running: bool,\n}\n",
    "codex-rs/cli/AGENTS.md": agents("codex-rs/cli", "cli", [
      "Subcommands are clap derive structs, one file per subcommand",
    ]),
    "codex-rs/cli/src/main.rs": "fn main() {\n    codex_cli::run();\n}\n",
    "codex-rs/exec/src/main.rs": 'fn main() {\n    println!("exec");\n}\n',
    "sdk/typescript/AGENTS.md": agents("sdk/typescript", "TypeScript SDK", [
      "The SDK spawns the codex binary and speaks JSON lines with it",
      "Public types are exported from src/index.ts and nowhere else",
    ]),
    "sdk/typescript/package.json": '{ "name": "@openai/codex-sdk" }\n',
    "sdk/typescript/src/index.ts": 'export { Codex } from "./codex";\n',
    "sdk/typescript/src/codex.ts": "export class Codex {\n  run(): void {}\n}\n",
    "docs/config.md": "# Config\n\nSee codex-rs/core/src/config.rs.\n",
  };
  return {
    id: "codex",
    name: "codex (nested AGENTS.md)",
    files,
    learnings: {
      "_memory_library/codex-rs/core/src/sandbox/edge.md":
        "# codex-rs/core/src/sandbox edge cases\n\n## Learnings (2026-11-20)\n- An empty command is allowed by is_allowed only for the login shell probe. (library sandbox learning)\n",
      "_memory_library/codex-rs/tui/patterns.md":
        "# codex-rs/tui patterns\n\n## Learnings (2026-11-21)\n- The App struct is rebuilt on resize; keep it cheap to construct. (library tui learning)\n",
    },
    plan: {
      read: "sdk/typescript/src/codex.ts",
      cat: "codex-rs/core/src/config.rs",
      sedInPlace: "codex-rs/core/src/sandbox/mod.rs",
      write: "codex-rs/tui/src/status.rs",
      grep: { pattern: "fn main", file: "codex-rs/exec/src/main.rs" },
      grepNoMatch: "codex-rs/cli/src/main.rs",
      subagentCat: "codex-rs/tui/src/app.rs",
    },
  };
}

/** The three shapes, in the order the tests run them. */
export const SHAPES: readonly (() => Shape)[] = [monorepoShape, appShape, codexShape];
