/**
 * The real import graph of `src/`, read from each module's syntax tree (`Deno.lint.runPlugin`,
 * available in `deno test`), and the layering rules checked on it (tests/layers_test.ts).
 *
 * Every way one module reaches another is an edge: `import` and `export ... from` (value or
 * type), `import("./x.ts")`, `typeof import("./x.ts")`, and `loadLater("x/y.ts")`
 * (src/core/load_later.ts), whose target is a path under `src/`. An `import()` or `loadLater()`
 * whose target is not a string literal hides an edge, so it is reported too.
 *
 * @module
 */

import { join } from "node:path";

/** How one module reaches another. */
export type EdgeKind = "static" | "type" | "dynamic" | "loadLater";

/** One edge: `from` and `to` are paths under `src/` (`core/paths.ts`), or `to` is external. */
export interface ImportEdge {
  from: string;
  /** A path under `src/`, or the specifier itself for anything else (`node:path`, `npm:x`). */
  to: string;
  kind: EdgeKind;
  /** Whether `to` is a module under `src/`. */
  local: boolean;
}

/** The graph: every module under `src/`, its edges, and the calls whose target is not literal. */
export interface ImportGraph {
  modules: string[];
  edges: ImportEdge[];
  /** `module: import(...)` or `module: loadLater(...)` with a target that is not a literal. */
  hidden: string[];
}

/** A module's path under `src/` for `specifier` written in `from`, or `null` when it leaves `src/`. */
function resolve(from: string, specifier: string): string | null {
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}

// The syntax tree's nodes, only as far as this reader looks at them.
interface Literal {
  type: string;
  value?: unknown;
}
interface Node {
  type: string;
  importKind?: string;
  exportKind?: string;
  source?: Literal | null;
  argument?: { literal?: Literal };
  callee?: { type: string; name?: string };
  arguments?: Literal[];
}

/** The edges written in one module's text (`path` is its path under `src/`). */
export function moduleEdges(path: string, text: string): { edges: ImportEdge[]; hidden: string[] } {
  const edges: ImportEdge[] = [];
  const hidden: string[] = [];
  const add = (specifier: unknown, kind: EdgeKind, what: string) => {
    if (typeof specifier !== "string") {
      hidden.push(`${path}: ${what} with a target that is not a string literal`);
      return;
    }
    const relative = kind === "loadLater" || specifier.startsWith(".");
    const to = kind === "loadLater" ? specifier : relative ? resolve(path, specifier) : null;
    if (relative && to === null) return; // a file outside src/ (hooks/hooks.json, deno.json)
    edges.push({ from: path, to: to ?? specifier, kind, local: to !== null });
  };
  const literal = (node: Literal | null | undefined) =>
    node?.type === "Literal" ? node.value : undefined;
  const plugin = {
    name: "import-graph",
    rules: {
      edges: {
        create() {
          return {
            ImportDeclaration(node: Node) {
              add(literal(node.source), node.importKind === "type" ? "type" : "static", "import");
            },
            ExportNamedDeclaration(node: Node) {
              if (node.source) {
                add(literal(node.source), node.exportKind === "type" ? "type" : "static", "export");
              }
            },
            ExportAllDeclaration(node: Node) {
              add(literal(node.source), node.exportKind === "type" ? "type" : "static", "export");
            },
            ImportExpression(node: Node) {
              add(literal(node.source), "dynamic", "import()");
            },
            TSImportType(node: Node) {
              add(literal(node.argument?.literal), "type", "typeof import()");
            },
            CallExpression(node: Node) {
              if (node.callee?.type === "Identifier" && node.callee.name === "loadLater") {
                add(literal(node.arguments?.[0]), "loadLater", "loadLater()");
              }
            },
          };
        },
      },
    },
  };
  Deno.lint.runPlugin(plugin as unknown as Deno.lint.Plugin, path, text);
  return { edges, hidden };
}

/** What a module keeps at its top level that two copies of it would not share. */
export interface ModuleState {
  /** Top-level `let`/`var` bindings, and `const` bindings made from a container (`new Map()`, `[]`, `{}`). */
  state: string[];
  /** Classes it declares (two copies make two classes, and `instanceof` tells them apart). */
  classes: string[];
  /** The names it checks with `instanceof`. */
  instanceOf: string[];
}

const CONTAINERS = new Set(["Map", "Set", "WeakMap", "WeakSet", "Array", "Object"]);

// More of the syntax tree, as far as moduleState looks at it.
interface Declarator {
  id: { type: string; name?: string };
  init?: { type: string; callee?: { type: string; name?: string } } | null;
}
interface Statement {
  type: string;
  kind?: string;
  declarations?: Declarator[];
  declaration?: Statement | null;
  id?: { name?: string } | null;
}

/**
 * A module's top-level state and classes, and the names it checks with `instanceof`, from its
 * syntax tree (`path` is its path under `src/`).
 */
export function moduleState(path: string, text: string): ModuleState {
  const found: ModuleState = { state: [], classes: [], instanceOf: [] };
  const statement = (node: Statement) => {
    const declared = node.type.startsWith("Export") && node.declaration ? node.declaration : node;
    if (declared.type === "ClassDeclaration" && declared.id?.name) {
      found.classes.push(declared.id.name);
    }
    if (declared.type !== "VariableDeclaration") return;
    for (const declarator of declared.declarations ?? []) {
      const name = declarator.id.name ?? "(destructured)";
      const init = declarator.init;
      const container = init?.type === "ArrayExpression" || init?.type === "ObjectExpression" ||
        (init?.type === "NewExpression" && CONTAINERS.has(init.callee?.name ?? ""));
      if (declared.kind !== "const") found.state.push(`${declared.kind} ${name}`);
      else if (container) found.state.push(`const ${name} (a container)`);
    }
  };
  const plugin = {
    name: "module-state",
    rules: {
      state: {
        create() {
          return {
            Program(node: { body: Statement[] }) {
              node.body.forEach(statement);
            },
            BinaryExpression(node: { operator: string; right: { type: string; name?: string } }) {
              if (node.operator === "instanceof" && node.right.type === "Identifier") {
                found.instanceOf.push(node.right.name!);
              }
            },
          };
        },
      },
    },
  };
  Deno.lint.runPlugin(plugin as unknown as Deno.lint.Plugin, path, text);
  return found;
}

/**
 * The classes a module declares at its top level, each with the name it extends (`null` when it
 * extends nothing or something that is not a plain name).
 */
export function classHeritage(path: string, text: string): [string, string | null][] {
  const found: [string, string | null][] = [];
  const plugin = {
    name: "class-heritage",
    rules: {
      classes: {
        create() {
          return {
            ClassDeclaration(
              node: { id?: { name?: string }; superClass?: Literal & { name?: string } | null },
            ) {
              if (!node.id?.name) return;
              const parent = node.superClass?.type === "Identifier" ? node.superClass.name! : null;
              found.push([node.id.name, parent]);
            },
          };
        },
      },
    },
  };
  Deno.lint.runPlugin(plugin as unknown as Deno.lint.Plugin, path, text);
  return found;
}

/**
 * The modules `roots` reach through code edges (static, dynamic, `loadLater`; not type-only ones),
 * `roots` included.
 */
export function reachable(graph: ImportGraph, roots: readonly string[]): Set<string> {
  const next = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (!edge.local || edge.kind === "type") continue;
    next.set(edge.from, [...next.get(edge.from) ?? [], edge.to]);
  }
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const module = queue.pop()!;
    if (seen.has(module)) continue;
    seen.add(module);
    queue.push(...next.get(module) ?? []);
  }
  return seen;
}

/** Reads the graph of every `.ts` module under `srcDir`, its unit tests (`*_test.ts`) aside. */
export async function readImportGraph(srcDir: string): Promise<ImportGraph> {
  const modules: string[] = [];
  async function list(rel: string): Promise<void> {
    for await (const entry of Deno.readDir(join(srcDir, rel))) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) await list(path);
      else if (path.endsWith(".ts") && !path.endsWith("_test.ts")) modules.push(path);
    }
  }
  await list("");
  modules.sort();
  const graph: ImportGraph = { modules, edges: [], hidden: [] };
  for (const module of modules) {
    const { edges, hidden } = moduleEdges(module, await Deno.readTextFile(join(srcDir, module)));
    graph.edges.push(...edges);
    graph.hidden.push(...hidden);
  }
  return graph;
}

/**
 * The layers, lowest first. Each is a list of units: a folder (`core/`) or a module (`main.ts`).
 * A module may import its own unit and any unit of a lower layer, never a higher one, nor another
 * unit of its own layer.
 */
export type Layers = readonly (readonly string[])[];

/** The unit (`core/`, `main.ts`) a module belongs to, or `null` when no layer holds it. */
export function unitOf(module: string, layers: Layers): string | null {
  for (const layer of layers) {
    for (const unit of layer) {
      if (unit.endsWith("/") ? module.startsWith(unit) : module === unit) return unit;
    }
  }
  return null;
}

/**
 * Everything wrong with a graph under a layering: one sentence each, none when it holds. An edge
 * listed in `allowed` (`from → to`, any kind) may go up a layer or to a sibling.
 */
export function layerViolations(
  graph: ImportGraph,
  layers: Layers,
  allowed: readonly string[] = [],
): string[] {
  const problems: string[] = [...graph.hidden];
  const rank = new Map<string, number>();
  layers.forEach((layer, index) => layer.forEach((unit) => rank.set(unit, index)));
  for (const module of graph.modules) {
    if (unitOf(module, layers) === null) problems.push(`${module} is in no layer`);
  }
  const known = new Set(graph.modules);
  for (const edge of graph.edges) {
    if (!edge.local) continue;
    if (!known.has(edge.to)) {
      problems.push(`${edge.from} → ${edge.to} (${edge.kind}): no such module under src/`);
      continue;
    }
    const from = unitOf(edge.from, layers);
    const to = unitOf(edge.to, layers);
    if (from === null || to === null || from === to) continue;
    if (allowed.includes(`${edge.from} → ${edge.to}`)) continue;
    if (rank.get(to)! > rank.get(from)!) {
      problems.push(
        `${edge.from} → ${edge.to} (${edge.kind}): ${from} imports ${to}, a higher layer`,
      );
    } else if (rank.get(to) === rank.get(from)) {
      problems.push(`${edge.from} → ${edge.to} (${edge.kind}): ${from} imports ${to}, its sibling`);
    }
  }
  for (const cycle of cycles(graph)) problems.push(`import cycle among ${cycle.join(", ")}`);
  return problems;
}

/** The module-level import cycles (every edge kind): each a set of modules that reach each other, sorted. */
export function cycles(graph: ImportGraph): string[][] {
  const next = new Map<string, string[]>(graph.modules.map((m) => [m, []]));
  for (const edge of graph.edges) {
    if (edge.local && edge.from !== edge.to) next.get(edge.from)?.push(edge.to);
  }
  // Tarjan's strongly connected components; each component of more than one module is a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (module: string) => {
    index.set(module, counter);
    low.set(module, counter++);
    stack.push(module);
    onStack.add(module);
    for (const to of next.get(module) ?? []) {
      if (!index.has(to)) {
        if (!next.has(to)) continue;
        visit(to);
        low.set(module, Math.min(low.get(module)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(module, Math.min(low.get(module)!, index.get(to)!));
    }
    if (low.get(module) === index.get(module)) {
      const component: string[] = [];
      let top: string;
      do {
        top = stack.pop()!;
        onStack.delete(top);
        component.push(top);
      } while (top !== module);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const module of graph.modules) if (!index.has(module)) visit(module);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
