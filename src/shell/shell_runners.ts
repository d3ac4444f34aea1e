/**
 * The rules for commands that run code (pure): interpreters given a script (`python x.py`,
 * `node`, `deno run`, `bash`, `go run`), test runners and checkers given paths (`pytest`, `jest`,
 * `deno test`, `go test ./pkg/...`, `eslint`), and package managers' `test` scripts. See
 * `shell_commands.ts` for what a rule is.
 *
 * @module
 */

import { type CommandRule, type CommandUse, each, parseArgs, touches } from "./shell_commands.ts";
import { interpreter, runner, testPath } from "./shell_rules.ts";
import type { ShellWord } from "./shell_scan.ts";

const NONE: CommandUse = { touches: [] };
const SOURCE_FILE = /\.[cm]?[jt]sx?$/;

const PYTHON = interpreter({ short: "cmWXQ" }, ["c"]);
const PYTEST = runner({
  short: "kmpcoWnr",
  long: "rootdir junitxml cov maxfail tb deselect ignore",
});

/** `python x.py`, `python -m pytest tests/`, not `python -c` or another `-m` module. */
function python(args: ShellWord[], heredocs: string[]): CommandUse {
  const module = parseArgs(args, { short: "cmWXQ" }).values.get("m")?.[0]?.value;
  if (module === "pytest") {
    const at = args.findIndex((w) => w.value === "pytest" || w.value === "-mpytest");
    return PYTEST(args.slice(at + 1), heredocs);
  }
  return module === undefined ? PYTHON(args, heredocs) : NONE;
}

const NODE = {
  short: "rCep",
  long: "require import loader experimental-loader eval print input-type conditions",
};

/** `node x.js`, `node --test tests/`; not `node -e`. */
function node(args: ShellWord[], heredocs: string[]): CommandUse {
  if (parseArgs(args, NODE).flags.has("test")) return runner(NODE)(args, heredocs);
  return interpreter(NODE, ["e", "p", "eval", "print"])(args, heredocs);
}

const DENO = {
  short: "cL",
  long: "config import-map lock cert location seed log-level node-modules-dir env-file",
};

/** `deno run x.ts`, `deno x.ts`, `deno test|check|lint|fmt [paths]`. */
function deno(args: ShellWord[], heredocs: string[]): CommandUse {
  const sub = args[0]?.value ?? "";
  if (sub === "run") return interpreter(DENO, [])(args.slice(1), heredocs);
  if (["test", "bench", "check", "lint", "fmt", "doc", "coverage"].includes(sub)) {
    return runner(DENO)(args.slice(1), heredocs);
  }
  return SOURCE_FILE.test(sub) ? { touches: touches(args.slice(0, 1), "read") } : NONE;
}

/** `bun x.ts`, `bun run x.ts`, `bun test [paths]`, `bun test` scripts. */
function bun(args: ShellWord[], heredocs: string[]): CommandUse {
  const sub = args[0]?.value ?? "";
  if (sub === "test") return runner()(args.slice(1), heredocs);
  if (SOURCE_FILE.test(sub)) return { touches: touches(args.slice(0, 1), "read") };
  if (sub === "run" && SOURCE_FILE.test(args[1]?.value ?? "")) {
    return { touches: touches(args.slice(1, 2), "read") };
  }
  return packageManager(args, heredocs);
}

const GO = {
  long: "run bench count timeout tags coverprofile cpu parallel p o exec covermode coverpkg " +
    "benchtime skip ldflags gcflags mod C",
};

/** `go run x.go|./cmd/x`, `go test|vet|build [./pkg/...]`. */
function go(args: ShellWord[], heredocs: string[]): CommandUse {
  const sub = args[0]?.value ?? "";
  // go's long options take one dash: give them two for the parser
  const rest = args.slice(1).map((w) =>
    /^-[a-zA-Z]/.test(w.value ?? "") ? { value: `-${w.value}` } : w
  );
  if (sub === "run") {
    const positionals = parseArgs(rest, GO).positionals;
    const goFiles = positionals.filter((w) => w.value?.endsWith(".go"));
    const run = goFiles.length > 0 ? goFiles : positionals.slice(0, 1);
    return { touches: touches(run.map(testPath), "read") };
  }
  return ["test", "vet", "build"].includes(sub) ? runner(GO)(rest, heredocs) : NONE;
}

/**
 * `npm test`, `yarn test`, `pnpm run test`: the working folder, plus paths given after `--`;
 * `pnpm exec x`, `yarn dlx x`: runs `x`.
 */
function packageManager(args: ShellWord[], heredocs: string[]): CommandUse {
  const words = args.map((w) => w.value);
  const sub = words[0] === "run" || words[0] === "run-script" ? words[1] : words[0];
  if (sub === "exec" || sub === "dlx" || sub === "x") {
    return { touches: [], runs: args.slice(1).filter((w) => !w.value?.startsWith("-")) };
  }
  if (sub !== "test" && sub !== "t" && !sub?.startsWith("test:")) return NONE;
  const dash = words.indexOf("--");
  return runner()(dash >= 0 ? args.slice(dash + 1) : [], heredocs);
}

/** `uv run x`, `poetry run x`, `pipenv run x`: runs `x`. */
const runsAfterRun: CommandRule = (args) =>
  args[0]?.value === "run"
    ? { touches: [], runs: args.slice(1).filter((w) => !w.value?.startsWith("-")) }
    : NONE;

/** The rules for interpreters, runners and checkers, by command name. */
export const RUNNER_COMMANDS: Readonly<Record<string, CommandRule>> = {
  ...each("python python3 python2 pypy pypy3", python),
  ...each("node nodejs", node),
  deno,
  bun,
  go,
  ruby: interpreter({ short: "IrCE" }, ["e"]),
  php: interpreter({ short: "cdr" }, ["r"]),
  ...each("lua Rscript", interpreter({}, ["e"])),
  ...each("tsx ts-node esno vite-node source .", interpreter({}, [])),
  ...each("bash sh zsh dash ksh", interpreter({ short: "oO" }, [], true)),
  ...each("pytest py.test", PYTEST),
  jest: runner({ short: "ct", long: "config testNamePattern testPathPattern selectProjects" }),
  vitest: runner({ short: "ctr", long: "config root dir project reporter" }, [
    "run",
    "watch",
    "related",
    "bench",
  ]),
  mocha: runner({ short: "rtgfRj", long: "require timeout grep reporter config jobs" }),
  rspec: runner({ short: "rIeEf", long: "require example format tag" }),
  phpunit: runner({ short: "c", long: "configuration filter group" }),
  cargo: (args, heredocs) => args[0]?.value === "test" ? runner()([], heredocs) : NONE,
  eslint: runner({
    short: "cfo",
    long: "config ext format output-file rule parser plugin ignore-path ignore-pattern " +
      "max-warnings",
  }),
  prettier: runner({ long: "config ignore-path plugin parser log-level" }),
  tsc: runner({ short: "p", long: "project outDir target module lib" }),
  ...each("black isort flake8 pylint gofmt rustfmt", runner()),
  mypy: runner({ long: "config-file" }),
  ruff: runner({ long: "config select ignore target-version" }, ["check", "format"]),
  shellcheck: runner({ short: "esfS" }),
  ...each("npm yarn pnpm", packageManager),
  ...each("uv poetry pipenv", runsAfterRun),
};
