/**
 * A loopback stand-in for the models behind Codex CLI (OpenAI Responses API), Copilot CLI in
 * BYOK mode (Chat Completions) and Gemini CLI (Gemini API), playing one scripted turn, decided
 * from the conversation each request carries (so a CLI's retries and side requests do not
 * confuse it):
 *
 * 1. no tool result yet: read `notes/README.md` the agent's way (Codex: a shell `cat`; Copilot:
 *    `view`; Gemini: `read_file`);
 * 2. one result: edit it (Codex: `apply_patch`; Copilot: `edit`; Gemini: `replace`);
 * 3. two results: when the conversation holds the Librarian's nudge ("recorded no learning"),
 *    append a tagged learning to `_memory_library/.scratch.md` with the agent's shell tool;
 *    else end with {@link DONE_TEXT};
 * 4. more: end with {@link RECORDED_TEXT}.
 *
 * Every request is recorded. Streams close their connection at the end (Gemini waits for that).
 *
 * @module
 */

/** The learning the model appends to scratch when nudged. */
export const LEARNING =
  "## [TAG: notes/, type: conventions]\n- NOTES-LEARNED: the README stays one line.\n";
/** The final text of a turn that was not nudged. */
export const DONE_TEXT = "DONE-EDITING";
/** The final text after the learning was recorded. */
export const RECORDED_TEXT = "LEARNING-RECORDED";
/** The words of the Librarian's nudge the model reacts to. */
export const NUDGE_WORDS = "recorded no learning";

const OLD = "PROJECT-FILE-CONTENT: this is notes/README.md in the test project.";
const NEW = "PROJECT-FILE-CONTENT: edited by the mock.";
/** The project file the scenario reads and edits, and its first content. */
export const README = { path: "notes/README.md", text: `${OLD}\n` };

const SCRATCH_COMMAND = `printf '${
  LEARNING.replaceAll("\n", "\\n")
}' >> _memory_library/.scratch.md`;

/** One recorded request. */
export interface AgentRequest {
  path: string;
  body: Record<string, unknown>;
  /** True for a request of the agent's main loop (it offers tools), not a side request. */
  main: boolean;
}

/** The running server. */
export interface AgentModel extends AsyncDisposable {
  url: string;
  requests: AgentRequest[];
  /** The main-loop requests' bodies, as JSON text. */
  mainBodies(): string[];
}

type Step = { kind: "read" | "edit" | "scratch" } | { kind: "text"; text: string };

function step(results: number, nudged: boolean): Step {
  if (results === 0) return { kind: "read" };
  if (results === 1) return { kind: "edit" };
  if (results === 2) return nudged ? { kind: "scratch" } : { kind: "text", text: DONE_TEXT };
  return { kind: "text", text: RECORDED_TEXT };
}

function sse(events: string[]): Response {
  return new Response(events.join(""), {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "close",
    },
  });
}

const json = (value: unknown) =>
  new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });

let seq = 0;

// ---- OpenAI Responses (Codex CLI)
function responses(body: Record<string, unknown>, abs: string): Response {
  const input = Array.isArray(body.input) ? body.input as Record<string, unknown>[] : [];
  const results =
    input.filter((i) =>
      ["function_call_output", "custom_tool_call_output"].includes(String(i.type))
    ).length;
  const tools = (Array.isArray(body.tools) ? body.tools : []) as Record<string, unknown>[];
  const names = tools.map((t) => String(t.name));
  const shell = names.includes("exec_command") ? "exec_command" : "shell_command";
  const shellArgs = (cmd: string) => shell === "exec_command" ? { cmd } : { command: cmd };
  const s = step(results, JSON.stringify(input).includes(NUDGE_WORDS));
  const id = ++seq;
  let item: Record<string, unknown>;
  if (s.kind === "text") {
    item = {
      type: "message",
      role: "assistant",
      id: `msg_${id}`,
      status: "completed",
      content: [{ type: "output_text", text: s.text, annotations: [] }],
    };
  } else if (s.kind === "edit") {
    const patch =
      `*** Begin Patch\n*** Update File: ${README.path}\n@@\n-${OLD}\n+${NEW}\n*** End Patch\n`;
    const custom = tools.find((t) => t.name === "apply_patch")?.type === "custom";
    item = custom
      ? {
        type: "custom_tool_call",
        id: `ctc_${id}`,
        call_id: `call_${id}`,
        name: "apply_patch",
        input: patch,
        status: "completed",
      }
      : {
        type: "function_call",
        id: `fc_${id}`,
        call_id: `call_${id}`,
        name: "apply_patch",
        arguments: JSON.stringify({ input: patch }),
        status: "completed",
      };
  } else {
    const cmd = s.kind === "read" ? `cat ${README.path}` : SCRATCH_COMMAND;
    item = {
      type: "function_call",
      id: `fc_${id}`,
      call_id: `call_${id}`,
      name: shell,
      arguments: JSON.stringify({ ...shellArgs(cmd), workdir: abs }),
      status: "completed",
    };
  }
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  const rid = `resp_${id}`;
  const done = {
    id: rid,
    object: "response",
    status: "completed",
    model: body.model,
    output: [item],
    usage,
  };
  const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  return sse([
    ev("response.created", {
      type: "response.created",
      response: { id: rid, status: "in_progress", output: [] },
    }),
    ev("response.output_item.added", { type: "response.output_item.added", output_index: 0, item }),
    ev("response.output_item.done", { type: "response.output_item.done", output_index: 0, item }),
    ev("response.completed", { type: "response.completed", response: done }),
  ]);
}

// ---- Chat Completions (Copilot CLI, BYOK)
function chat(body: Record<string, unknown>, abs: string): Response {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as Record<string, unknown>[];
  const id = ++seq;
  const model = String(body.model ?? "mock");
  let message: Record<string, unknown>;
  let finish = "tool_calls";
  if (!Array.isArray(body.tools) || body.tools.length === 0) {
    message = { role: "assistant", content: "mock title" };
    finish = "stop";
  } else {
    const results = messages.filter((m) => m.role === "tool").length;
    const s = step(results, JSON.stringify(messages).includes(NUDGE_WORDS));
    const call = (name: string, args: unknown) => ({
      role: "assistant",
      content: null,
      tool_calls: [{
        index: 0,
        id: `call_${id}`,
        type: "function",
        function: { name, arguments: JSON.stringify(args) },
      }],
    });
    const file = `${abs}/${README.path}`;
    if (s.kind === "text") {
      message = { role: "assistant", content: s.text };
      finish = "stop";
    } else if (s.kind === "read") message = call("view", { path: file });
    else if (s.kind === "edit") message = call("edit", { path: file, old_str: OLD, new_str: NEW });
    else message = call("bash", { command: SCRATCH_COMMAND, description: "record a learning" });
  }
  const chunk = (delta: unknown, finishReason: string | null, extra = {}) =>
    `data: ${
      JSON.stringify({
        id: `chatcmpl_${id}`,
        object: "chat.completion.chunk",
        created: 0,
        model,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
        ...extra,
      })
    }\n\n`;
  if (body.stream) {
    return sse([
      chunk(message, null),
      chunk({}, finish, { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }),
      "data: [DONE]\n\n",
    ]);
  }
  return json({
    id: `chatcmpl_${id}`,
    object: "chat.completion",
    created: 0,
    model,
    choices: [{ index: 0, message, finish_reason: finish }],
  });
}

// ---- Gemini API (Gemini CLI)
function gemini(path: string, body: Record<string, unknown>): Response {
  if (path.includes(":countTokens")) return json({ totalTokens: 42 });
  const contents = (Array.isArray(body.contents) ? body.contents : []) as {
    parts?: Record<string, unknown>[];
  }[];
  const config = (body.generationConfig ?? {}) as Record<string, unknown>;
  let parts: unknown[];
  if (
    config.responseJsonSchema || config.responseSchema ||
    config.responseMimeType === "application/json"
  ) {
    const schema = JSON.stringify(config.responseJsonSchema ?? config.responseSchema ?? {});
    const answer = schema.includes("next_speaker")
      ? { reasoning: "mock", next_speaker: "user" }
      : schema.includes("complexity_score")
      ? { complexity_reasoning: "mock", complexity_score: 10 }
      : { reasoning: "mock", model_choice: "flash" };
    parts = [{ text: JSON.stringify(answer) }];
  } else {
    const results = contents.flatMap((c) =>
      c.parts ?? []
    ).filter((p) => "functionResponse" in p).length;
    const s = step(results, JSON.stringify(contents).includes(NUDGE_WORDS));
    const call = (name: string, args: unknown) => [{ functionCall: { name, args } }];
    if (s.kind === "text") parts = [{ text: s.text }];
    else if (s.kind === "read") parts = call("read_file", { file_path: README.path });
    else if (s.kind === "edit") {
      parts = call("replace", {
        file_path: README.path,
        instruction: "edit",
        old_string: OLD,
        new_string: NEW,
      });
    } else {parts = call("run_shell_command", {
        command: SCRATCH_COMMAND,
        description: "record a learning",
      });}
  }
  const reply = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "mock",
  };
  return path.includes(":streamGenerateContent")
    ? sse([`data: ${JSON.stringify(reply)}\n\n`])
    : json(reply);
}

/** Starts the model on a free loopback port; `abs` is the project's absolute path. */
export function startAgentModel(abs: string): AgentModel {
  const requests: AgentRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    if (request.method === "GET") {
      return json({ object: "list", data: [{ id: "mock-model", object: "model" }], models: [] });
    }
    let body: Record<string, unknown> = {};
    try {
      body = await request.json();
    } catch {
      // not JSON: answered as an empty request
    }
    const path = url.pathname + url.search;
    const main = Array.isArray(body.tools) && body.tools.length > 0;
    requests.push({ path, body, main });
    if (url.pathname.endsWith("/responses")) return responses(body, abs);
    if (url.pathname.endsWith("/chat/completions")) return chat(body, abs);
    if (/:(stream)?[gG]enerateContent|:countTokens/.test(url.pathname)) return gemini(path, body);
    return json({ error: "not found" });
  });
  const port = (server.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mainBodies: () => requests.filter((r) => r.main).map((r) => JSON.stringify(r.body)),
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
