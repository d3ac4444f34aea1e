/**
 * A scripted stand-in for the Anthropic Messages API, on loopback, for end-to-end tests.
 *
 * The Claude Code CLI is pointed at it with `ANTHROPIC_BASE_URL`. Every request is recorded.
 * Main-loop requests (the ones that carry the `tools` array) are answered with the next scripted
 * assistant turn, streamed as server-sent events; anything else (title generation, quota probes,
 * token counting) gets a short valid reply and does not consume a turn.
 *
 * @module
 */

/** A text block the scripted model says. */
export interface TextBlock {
  type: "text";
  text: string;
}

/** A tool call the scripted model makes. */
export interface ToolUseBlock {
  type: "tool_use";
  name: string;
  input: Record<string, unknown>;
}

/**
 * Something the server does when the turn is asked for, before it answers (e.g. a teammate edits
 * a library file between two tool calls). It is not part of the reply.
 */
export interface ActionBlock {
  type: "action";
  run: () => void | Promise<void>;
}

/** One block of a scripted assistant turn. */
export type ScriptedBlock = TextBlock | ToolUseBlock | ActionBlock;

/** One scripted assistant turn: it stops with `tool_use` when it holds a tool call, else `end_turn`. */
export type ScriptedTurn = ScriptedBlock[];

/** A text block, for scripts. */
export function text(value: string): TextBlock {
  return { type: "text", text: value };
}

/** A tool call, for scripts. */
export function toolUse(name: string, input: Record<string, unknown>): ToolUseBlock {
  return { type: "tool_use", name, input };
}

/** An action run before the turn is answered, for scripts. */
export function action(run: () => void | Promise<void>): ActionBlock {
  return { type: "action", run };
}

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages?beta=true`. */
  path: string;
  /** The parsed JSON body, or `null` when there was none or it was not JSON. */
  body: Record<string, unknown> | null;
  /** True when the request was a main-loop turn (it carried `tools`) and consumed a script turn. */
  isTurn: boolean;
  /** The 0-based index of the script turn it was answered with (turns only). */
  turnIndex?: number;
}

/** A running scripted server. */
export interface ModelServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`, for `ANTHROPIC_BASE_URL`. */
  url: string;
  /** Every request so far, in arrival order. */
  requests: RecordedRequest[];
  /** Appends turns to the script (each main-loop request takes the next one). */
  script(turns: ScriptedTurn[]): void;
  /**
   * A script of its own for the requests `match` picks (a subagent's, found by a marker in its
   * messages): they take its turns, every other request the main script's.
   */
  route(match: (body: Record<string, unknown> | null) => boolean, turns: ScriptedTurn[]): void;
  /** How many scripted turns have not been asked for yet. */
  remaining(): number;
  /** Main-loop requests that found the script empty (answered with a closing text turn). */
  unscripted(): number;
  close(): Promise<void>;
}

const encoder = new TextEncoder();

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

let messageCounter = 0;

function messageId(): string {
  return `msg_e2e_${Date.now().toString(36)}_${(messageCounter++).toString(36)}`;
}

function toolUseId(): string {
  return `toolu_e2e_${Date.now().toString(36)}_${(messageCounter++).toString(36)}`;
}

function modelOf(body: Record<string, unknown> | null): string {
  return typeof body?.model === "string" ? body.model : "claude-sonnet-4-5";
}

const USAGE = { input_tokens: 10, output_tokens: 5 };

/** The blocks of a turn that the model says (actions left out). */
export type ReplyBlock = TextBlock | ToolUseBlock;

function replyBlocks(turn: ScriptedTurn): ReplyBlock[] {
  return turn.filter((b): b is ReplyBlock => b.type !== "action");
}

/** The server-sent events for one assistant turn, in the order the CLI expects. */
export function turnEvents(turn: ReplyBlock[], model: string): string {
  const hasTool = turn.some((b) => b.type === "tool_use");
  const parts: string[] = [
    sse("message_start", {
      type: "message_start",
      message: {
        id: messageId(),
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: USAGE.input_tokens, output_tokens: 1 },
      },
    }),
  ];
  turn.forEach((block, index) => {
    if (block.type === "text") {
      parts.push(
        sse("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "text", text: "" },
        }),
        sse("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "text_delta", text: block.text },
        }),
      );
    } else {
      parts.push(
        sse("content_block_start", {
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: toolUseId(), name: block.name, input: {} },
        }),
        sse("content_block_delta", {
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        }),
      );
    }
    parts.push(sse("content_block_stop", { type: "content_block_stop", index }));
  });
  parts.push(
    sse("message_delta", {
      type: "message_delta",
      delta: { stop_reason: hasTool ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: USAGE.output_tokens },
    }),
    sse("message_stop", { type: "message_stop" }),
  );
  return parts.join("");
}

/** A whole assistant message as JSON, for a request that did not ask to stream. */
function turnMessage(turn: ReplyBlock[], model: string): Record<string, unknown> {
  const hasTool = turn.some((b) => b.type === "tool_use");
  return {
    id: messageId(),
    type: "message",
    role: "assistant",
    model,
    content: turn.map((b) =>
      b.type === "text" ? b : { type: "tool_use", id: toolUseId(), name: b.name, input: b.input }
    ),
    stop_reason: hasTool ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: USAGE,
  };
}

async function reply(turn: ScriptedTurn, body: Record<string, unknown> | null): Promise<Response> {
  for (const block of turn) if (block.type === "action") await block.run();
  const model = modelOf(body);
  const blocks = replyBlocks(turn);
  if (body?.stream === true) {
    return new Response(encoder.encode(turnEvents(blocks, model)), {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  }
  return Response.json(turnMessage(blocks, model));
}

/** The turn given when the script has run out, so a run ends instead of hanging. */
export const CLOSING_TURN: ScriptedTurn = [text("Done.")];

/**
 * Starts the scripted server on `127.0.0.1` with a free port.
 *
 * @example
 * ```ts
 * await using server = startModelServer([[toolUse("Read", { file_path: "/p/a.ts" })], [text("ok")]]);
 * // run the CLI with ANTHROPIC_BASE_URL=server.url, then inspect server.requests
 * ```
 */
export function startModelServer(turns: ScriptedTurn[] = []): ModelServer {
  const queue: ScriptedTurn[] = [...turns];
  const routes: {
    match: (body: Record<string, unknown> | null) => boolean;
    queue: ScriptedTurn[];
  }[] = [];
  const requests: RecordedRequest[] = [];
  let turnCount = 0;
  let unscriptedCount = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      const raw = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
      let body: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = raw ? JSON.parse(raw) : null;
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
          body = parsed as Record<string, unknown>;
        }
      } catch {
        body = null;
      }
      const record: RecordedRequest = {
        method: request.method,
        path: url.pathname + url.search,
        body,
        isTurn: false,
      };
      requests.push(record);
      if (request.method !== "POST") return Response.json({});
      if (url.pathname.endsWith("/count_tokens")) return Response.json({ input_tokens: 100 });
      if (!url.pathname.endsWith("/v1/messages")) return Response.json({});
      if (!Array.isArray(body?.tools)) return await reply([text("ok")], body);
      record.isTurn = true;
      record.turnIndex = turnCount++;
      const route = routes.find((r) => r.queue.length > 0 && r.match(body));
      const next = route ? route.queue.shift() : queue.shift();
      if (next === undefined) unscriptedCount++;
      return await reply(next ?? CLOSING_TURN, body);
    },
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.shutdown();
  };
  return {
    url,
    requests,
    script: (more) => queue.push(...more),
    route: (match, more) => void routes.push({ match, queue: [...more] }),
    remaining: () => queue.length,
    unscripted: () => unscriptedCount,
    close,
    [Symbol.asyncDispose]: close,
  };
}
