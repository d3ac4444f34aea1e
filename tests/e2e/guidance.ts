/**
 * Guidance lines and where they reached the model (pure): the lines of a project's memory files
 * (`CLAUDE.md`, `AGENTS.md`, `.claude/rules/*.md`, `.cursor/rules/*.mdc`, the library's files), the
 * memory files that apply to a touched path, and a request body cut into the texts before the first
 * tool call and those each tool call brought. Used by `shapes_test.ts` and
 * `scripts/measure_native.ts`.
 *
 * Lines are compared whole, trimmed: a memory line reached the model when a line of what it was
 * sent is that line. Blank and trivial lines (headings, fences, front matter, comments, lines under
 * {@link MIN_LINE} characters) are not guidance.
 *
 * @module
 */

/** The files of a tree, project-relative path → text. */
export type Tree = Record<string, string>;

/** The shortest line counted as guidance. */
export const MIN_LINE = 12;

/** The library folder. */
const LIBRARY = "_memory_library";

/** The text without its leading YAML front matter. */
function withoutFrontMatter(text: string): string {
  return text.replace(/^\uFEFF?---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/, "");
}

/** The guidance lines of one memory file, trimmed, in order (a line twice in it, twice). */
export function guidanceLines(text: string): string[] {
  let fenced = false;
  const out: string[] = [];
  for (const raw of withoutFrontMatter(text).split("\n")) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (line.length < MIN_LINE || /^#+\s/.test(line) || /^<!--/.test(line)) continue;
    if (/^[-*|=_`: ]+$/.test(line)) continue;
    out.push(line);
  }
  return out;
}

/** True for a path whose text is guidance for the model: a memory file or a library file. */
export function isMemoryFile(path: string): boolean {
  if (path.startsWith(`${LIBRARY}/`)) {
    return path.endsWith(".md") && !path.split("/").some((part) => part.startsWith("."));
  }
  return /(^|\/)(CLAUDE|AGENTS)\.md$/.test(path) || /^\.claude\/rules\/.+\.md$/.test(path) ||
    /^\.cursor\/rules\/.+\.mdc$/.test(path);
}

/** Every guidance line of the tree's memory files, with how many of them hold it. */
export function memoryLines(tree: Tree): Map<string, number> {
  const lines = new Map<string, number>();
  for (const [path, text] of Object.entries(tree)) {
    if (!isMemoryFile(path)) continue;
    for (const line of new Set(guidanceLines(text))) lines.set(line, (lines.get(line) ?? 0) + 1);
  }
  return lines;
}

/** A project-relative glob as a regular expression (`**`, `*`, `?`; no slash: any depth). */
function globRegex(glob: string): RegExp {
  let pattern = glob.trim().replace(/^["']|["']$/g, "").replace(/^\.?\//, "");
  if (!pattern.includes("/")) pattern = `**/${pattern}`;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** The globs of a rule's front matter (`paths:` or `globs:`, a list or comma separated). */
export function ruleGlobs(text: string): string[] {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
  const lines = front.split(/\r?\n/);
  const at = lines.findIndex((l) => /^(paths|globs)\s*:/.test(l));
  if (at < 0) return [];
  const inline = lines[at]!.replace(/^[a-z]+\s*:/, "").trim();
  const items: string[] = [];
  if (inline !== "") items.push(...inline.replace(/^\[|\]$/g, "").split(","));
  else {
    for (const line of lines.slice(at + 1)) {
      const item = /^\s+-\s+(.*)$/.exec(line);
      if (!item) break;
      items.push(item[1]!);
    }
  }
  return items.map((g) => g.trim().replace(/^["']|["']$/g, "")).filter((g) => g !== "");
}

/** True when a Cursor rule is always applied. */
function alwaysApplied(text: string): boolean {
  return /^---\r?\n[\s\S]*?^alwaysApply:\s*true\s*$[\s\S]*?^---/m.test(text);
}

/** The folders from the root (`""`) down to a file's folder. */
function foldersOf(relPath: string): string[] {
  const parts = relPath.split("/").slice(0, -1);
  return ["", ...parts.map((_, i) => parts.slice(0, i + 1).join("/"))];
}

/** Memory files that apply to a touched file, by kind. */
export interface Applicable {
  /** `CLAUDE.md` and `AGENTS.md` of the file's folder and every folder above it. */
  folder: string[];
  /** `.claude/rules/*.md` whose `paths:` cover it. */
  claudeRules: string[];
  /** `.cursor/rules/*.mdc` whose `globs:` cover it, or always applied. */
  cursorRules: string[];
  /** The library files of its mirror folder and every one above. */
  library: string[];
}

/** The memory files of `tree` that apply to the project-relative file `relPath`. */
export function applicable(tree: Tree, relPath: string): Applicable {
  const folders = foldersOf(relPath);
  const paths = Object.keys(tree).filter(isMemoryFile).sort();
  const folderOf = (p: string) => p.split("/").slice(0, -1).join("/");
  const covers = (text: string) => ruleGlobs(text).some((g) => globRegex(g).test(relPath));
  return {
    folder: paths.filter((p) =>
      /(^|\/)(CLAUDE|AGENTS)\.md$/.test(p) && !p.startsWith(".") &&
      !p.startsWith(`${LIBRARY}/`) && folders.includes(folderOf(p))
    ),
    claudeRules: paths.filter((p) => p.startsWith(".claude/rules/") && covers(tree[p]!)),
    cursorRules: paths.filter((p) =>
      p.startsWith(".cursor/rules/") && (covers(tree[p]!) || alwaysApplied(tree[p]!))
    ),
    library: paths.filter((p) =>
      p.startsWith(`${LIBRARY}/`) &&
      folders.map((f) => f === "" ? LIBRARY : `${LIBRARY}/${f}`).includes(folderOf(p))
    ),
  };
}

type Block = Record<string, unknown>;
type Message = { role?: unknown; content?: unknown };

function blocksOf(message: Message): Block[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  return Array.isArray(message.content) ? message.content as Block[] : [];
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b: Block) => (typeof b?.text === "string" ? b.text : "")).join("\n");
}

/** What one tool call brought: its result and the texts beside it. */
export interface StepTexts {
  /** The tool's name and input. */
  tool: string;
  input: Record<string, unknown>;
  /** The tool result's text. */
  result: string;
  /** True when the result is an error (a refused or failed call). */
  isError: boolean;
  /** Every other text the model received with it (the client's reminders, the hooks' contexts). */
  beside: string[];
}

/** A context window as the model received it, cut at its tool calls. */
export interface WindowTexts {
  /** The system prompt's texts. */
  system: string[];
  /** The texts before the first tool call. */
  start: string[];
  steps: StepTexts[];
}

/**
 * A request body cut at its tool calls: each assistant message with a `tool_use` starts a step
 * that holds everything up to the next assistant message.
 */
export function windowTexts(body: Record<string, unknown>): WindowTexts {
  const system = body.system;
  const start: string[] = [];
  const systemTexts: string[] = typeof system === "string"
    ? [system]
    : Array.isArray(system)
    ? system.map((b: Block) => typeof b?.text === "string" ? b.text : "")
    : [];
  const steps: StepTexts[] = [];
  let current: StepTexts | undefined;
  const messages = Array.isArray(body.messages) ? body.messages as Message[] : [];
  for (const message of messages) {
    if (message.role === "assistant") {
      const use = blocksOf(message).find((b) => b.type === "tool_use");
      current = use
        ? {
          tool: String(use.name),
          input: (use.input ?? {}) as Record<string, unknown>,
          result: "",
          isError: false,
          beside: [],
        }
        : undefined;
      if (current) steps.push(current);
      continue;
    }
    for (const block of blocksOf(message)) {
      if (block.type === "tool_result") {
        if (current) {
          current.result = resultText(block.content);
          current.isError = block.is_error === true;
        }
      } else if (typeof block.text === "string") {
        if (current) current.beside.push(block.text);
        else if (steps.length === 0) start.push(block.text);
      }
    }
  }
  return { system: systemTexts, start, steps };
}

/** Every trimmed line of `texts`, with how many times it occurs. */
export function lineCounts(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const raw of text.split("\n")) {
      const line = raw.trim();
      if (line !== "") counts.set(line, (counts.get(line) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * What a window sent the model up to and including step `k` (`-1`: the start only) besides the
 * tools' results (a held call's result, the hold's reason, is guidance): the system
 * prompt, the texts before the first tool call and those beside each result. A memory line quoted
 * by a file the model read (a code line a memory file also shows) is not guidance sent twice.
 */
export function guidanceThrough(window: WindowTexts, k: number): string[] {
  return [...window.system, ...window.start, ...window.steps.slice(0, k + 1).flatMap(guidanceOf)];
}

/** What a step brought besides the tool's result, and a call held by the Librarian's reason. */
function guidanceOf(step: StepTexts): string[] {
  return isHeld(step) ? [step.result, ...step.beside] : step.beside;
}

/** True for a call the Librarian held once (its result is the hold's reason). */
export function isHeld(step: StepTexts): boolean {
  return step.isError && /^(?:[A-Za-z]+:[A-Za-z]+ hook error: )?\[Librarian\]/.test(step.result);
}

/** The memory lines that reached the model more often than the memory files hold them. */
export function doubledLines(tree: Tree, texts: readonly string[]): string[] {
  const received = lineCounts(texts);
  return [...memoryLines(tree)].filter(([line, held]) =>
    (received.get(line) ?? 0) > Math.max(1, held)
  ).map(([line]) => line);
}

/** The guidance lines of `files` (paths of `tree`) that are not among `texts`. */
export function missingLines(
  tree: Tree,
  files: readonly string[],
  texts: readonly string[],
): { path: string; line: string }[] {
  const received = lineCounts(texts);
  return files.flatMap((path) =>
    guidanceLines(tree[path] ?? "").filter((line) => !received.has(line)).map((line) => ({
      path,
      line,
    }))
  );
}

/** The memory lines among `texts` (each once). */
export function memoryLinesIn(tree: Tree, texts: readonly string[]): Set<string> {
  const received = lineCounts(texts);
  return new Set([...memoryLines(tree).keys()].filter((line) => received.has(line)));
}

/** Characters of the texts beside each step's result (and of a held call's reason). */
export function charsPerStep(window: WindowTexts): number[] {
  return window.steps.map((s) => guidanceOf(s).reduce((n, t) => n + t.length, 0));
}
