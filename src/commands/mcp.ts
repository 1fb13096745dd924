/**
 * `gate-ladder mcp`: a Model Context Protocol server on stdin/stdout for coding agents, built on the
 * official SDK (loaded here only, by a dynamic import: its own chunk, never on a push). Three tools, each
 * answered by this same CLI in a child process, so that a tool's answer is exactly the command's JSON
 * and nothing but the protocol ever reaches our stdout:
 *   judge_patch   → `judge --patch - --json [--base REV]`
 *   explain_order → `run --dry-run --json --base B --head H` (a patch is first made a commit on its base)
 *   report        → `report --json`
 * A tool that cannot answer is an MCP tool error (`isError`, with the message), never a crash.
 */
import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from '../util/node.js';
import { tmpdir } from '../util/node.js';
import { join } from 'node:path';
import { EXIT } from '../config/defaults.js';
import { repoInfo, resolveCommit } from '../git/git.js';
import { patchSnapshot } from '../git/worktree-snapshot.js';
import { mcpMsg } from '../replay/messages.js';
import { msg } from '../run/messages.js';

/** What one child run of this CLI gave. */
interface Child {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A tool's result: JSON text content and the same object as structured content, or an error with its message. */
type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

const err = (line: string) => process.stderr.write(`${line}\n`);

/** Serves until the client closes stdin; resolves to the exit code then. */
export async function mcpCommand(opts: { cwd: string }): Promise<number> {
  // The SDK and zod: CommonJS or ES, a bundled dynamic import may give only `default` (docs: the esbuild note).
  const [mcpMod, stdioMod, zodMod] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('zod'),
  ]);
  const McpServer = mcpMod.McpServer ?? (mcpMod as unknown as { default: typeof mcpMod }).default.McpServer;
  const StdioServerTransport =
    stdioMod.StdioServerTransport ?? (stdioMod as unknown as { default: typeof stdioMod }).default.StdioServerTransport;
  const z = zodMod.z ?? (zodMod as unknown as { default: typeof zodMod }).default.z;
  const version = typeof __GATE_LADDER_VERSION__ === 'string' ? __GATE_LADDER_VERSION__ : 'dev';
  const server = new McpServer({ name: 'gate-ladder', version });

  server.registerTool(
    'judge_patch',
    {
      title: 'Judge a patch',
      description:
        "Apply a patch (git diff text) in a throwaway worktree slot at `base` (default HEAD) and run the repository's gate-ladder tiers on it as a push would, cheapest first. Answers the verdict (pass, caught: the patch is wrong, error: the harness could not judge it; error_cause says whose fault), the deciding tier, the reason, the failed tests with file, line and message, each tier's seconds, and the next step. The user's working tree is never touched.",
      inputSchema: {
        patch: z.string().describe('The patch, as `git diff` prints it'),
        base: z.string().optional().describe('The commit it applies onto (default HEAD)'),
      },
    },
    async ({ patch, base }) => {
      // `--base=REV`, one word: a revision that starts with `-` stays a revision (and is refused as one), never an option.
      const child = await cli(opts.cwd, ['judge', '--patch', '-', '--json', ...(base !== undefined ? [`--base=${base}`] : [])], patch);
      const doc = parsed(child);
      if (doc === undefined) return failure(child);
      if (doc.judged === false) return errorResult(String(doc.message), doc);
      // A patch that does not apply says nothing of the code: an error the agent must act on.
      if (doc.applied === false) return errorResult(`${String(doc.reason)} ${String(doc.next)}`, doc);
      return result(doc);
    },
  );

  server.registerTool(
    'explain_order',
    {
      title: 'Explain the ladder for a change',
      description:
        'Which tiers would run for a change and in what order, which are skipped and why (t0-scope routing, hooks), without running any: what `gate-ladder run --dry-run --json` says. Give `patch` (git diff text, applied onto `base`, default HEAD), or `base` and `head` revisions.',
      inputSchema: {
        patch: z.string().optional().describe('A patch, as `git diff` prints it'),
        base: z.string().optional().describe('The base revision (with patch: where it applies; default HEAD)'),
        head: z.string().optional().describe('The head revision (without patch)'),
      },
    },
    async ({ patch, base, head }) => {
      if (patch !== undefined && head !== undefined) return errorResult(mcpMsg.patchAndHead());
      if (patch !== undefined && patch.trim() === '') return errorResult(mcpMsg.emptyPatch());
      const range = patch !== undefined ? planCommit(opts.cwd, patch, base) : { base, head };
      if ('problem' in range) return errorResult(range.problem);
      const args = ['run', '--dry-run', '--json'];
      if (range.base !== undefined) args.push(`--base=${range.base}`);
      if (range.head !== undefined) args.push(`--head=${range.head}`);
      const child = await cli(opts.cwd, args);
      const doc = parsed(child);
      if (doc === undefined) return failure(child);
      // A run that stopped before planning (a bad revision, a config that does not load): a tool error, with what it said.
      const problems = Array.isArray(doc.problems) ? doc.problems.map(String) : [];
      if (child.code !== 0 && Array.isArray(doc.targets) && doc.targets.length === 0)
        return errorResult(problems.join('\n') || mcpMsg.failed(child.code, child.stderr), doc);
      return result(doc);
    },
  );

  server.registerTool(
    'report',
    {
      title: "The ledger's figures",
      description:
        "Per tier: runs, catches, errors, median and total seconds, yield per second; what t0-scope saved; the order the ledger recommends: what `gate-ladder report --json` says. `hook` keeps one hook's rows (e.g. 'judge').",
      inputSchema: {
        hook: z.enum(['pre-push', 'pre-commit', 'manual', 'replay', 'seed', 'judge']).optional().describe("Only this hook's rows"),
      },
    },
    async ({ hook }) => {
      const child = await cli(opts.cwd, ['report', '--json', ...(hook !== undefined ? ['--hook', hook] : [])]);
      const doc = child.code === 0 ? parsed(child) : undefined;
      return doc === undefined ? failure(child) : result(doc);
    },
  );

  // The SDK's stdio reader closes the connection on a message over its limit (10 MiB by default): a larger patch
  // would end the server with no word. This one takes patches up to MAX_MESSAGE, and over it says why before it closes.
  // Each line is checked first (checkedLines): a blank line is skipped, a bad one answered with the request's id where it has one.
  const reply = (id: string | number | null, code: number, message: string) =>
    void transport.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as Parameters<typeof transport.send>[0]);
  const transport = new StdioServerTransport(checkedLines(process.stdin, reply, MAX_MESSAGE), process.stdout, {
    maxBufferSize: MAX_MESSAGE,
  });
  // A line that is not JSON, or not a JSON-RPC message, gets JSON-RPC's error reply (id null: no id could be read);
  // the SDK's transport only reports it. Set before connect, which chains its own handler after this one.
  transport.onerror = (e: Error) => {
    if (/exceeded maximum size/.test(e.message)) {
      const message = mcpMsg.tooLarge(MAX_MESSAGE);
      err(`gate-ladder mcp: ${message}`);
      reply(null, INVALID_REQUEST, message);
      return;
    }
    // What checkedLines let through and the SDK's schema still refused (a request's params of the wrong shape).
    const code = e instanceof SyntaxError ? PARSE_ERROR : e.name === 'ZodError' ? INVALID_REQUEST : undefined;
    if (code !== undefined) reply(null, code, code === PARSE_ERROR ? mcpMsg.parseError(e.message) : mcpMsg.invalidRequest());
  };
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  err(mcpMsg.serving(opts.cwd));
  await closed;
  await server.close().catch(() => {});
  return EXIT.pass;
}

declare const __GATE_LADDER_VERSION__: string | undefined;

/** The largest message (a patch and its envelope) the server reads: 256 MiB. */
const MAX_MESSAGE = 256 * 1024 * 1024;

/** JSON-RPC 2.0's codes: a line that is not JSON; JSON that is not a request. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * The client's stdin, line by line, as the SDK's transport reads it, less what is not a message: a blank
 * line is skipped (the SDK answered it as a parse error); a line that is not JSON is answered -32700, and
 * JSON that is not a JSON-RPC 2.0 message -32600 with its `id` when it has one (JSON-RPC 2.0, 5.1). A
 * line longer than `max` goes through whole, for the transport to refuse as before.
 */
function checkedLines(input: Readable, reply: (id: string | number | null, code: number, message: string) => void, max: number): Readable {
  const lines = new PassThrough();
  let parts: Buffer[] = [];
  let size = 0;
  let passing = false;
  input.on('data', (chunk: Buffer) => {
    let from = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, nl + 1);
      from = nl + 1;
      if (passing) {
        lines.write(piece);
        passing = false;
        continue;
      }
      const line = parts.length === 0 ? piece : Buffer.concat([...parts, piece]);
      parts = [];
      size = 0;
      if (isMessage(line.toString('utf8'), reply)) lines.write(line);
    }
    const rest = chunk.subarray(from);
    if (rest.length === 0) return;
    if (passing) lines.write(rest);
    else if ((size += rest.length) > max) {
      lines.write(Buffer.concat([...parts, rest]));
      parts = [];
      size = 0;
      passing = true;
    } else parts.push(rest);
  });
  input.on('end', () => lines.end());
  input.on('error', (e) => lines.destroy(e));
  return lines;
}

/** Whether one line is a JSON-RPC 2.0 message to pass on; if not, answered (or, blank, skipped). */
function isMessage(text: string, reply: (id: string | number | null, code: number, message: string) => void): boolean {
  if (text.trim() === '') return false;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    reply(null, PARSE_ERROR, mcpMsg.parseError(e instanceof Error ? e.message : String(e)));
    return false;
  }
  const o = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : undefined;
  const id = typeof o?.id === 'string' || (typeof o?.id === 'number' && Number.isFinite(o.id)) ? o.id : null;
  const ok =
    o !== undefined &&
    o.jsonrpc === '2.0' &&
    (typeof o.method === 'string' ? o.id === undefined || id !== null : id !== null && ('result' in o || 'error' in o));
  if (!ok) reply(id, INVALID_REQUEST, mcpMsg.invalidRequest());
  return ok;
}

/** This CLI in a child process, in `cwd`, with `input` on its stdin; its stderr also passed on to ours. */
function cli(cwd: string, args: readonly string[], input = ''): Promise<Child> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [process.argv[1]!, ...args], { cwd, env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const errs: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      errs.push(c);
      process.stderr.write(c);
    });
    child.on('error', (e) => resolve({ code: null, stdout: '', stderr: e.message }));
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(errs).toString('utf8') }),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** The child's JSON document, when it printed one. */
function parsed(child: Child): Record<string, unknown> | undefined {
  try {
    const doc = JSON.parse(child.stdout) as unknown;
    return doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function result(doc: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(doc, null, 2) }], structuredContent: doc };
}

function errorResult(message: string, doc?: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: message }], ...(doc && { structuredContent: doc }), isError: true };
}

/** A child that printed no JSON: what it said on stderr is the message. */
function failure(child: Child): ToolResult {
  return errorResult(mcpMsg.failed(child.code, child.stderr));
}

/** A patch made a commit on its base, for a dry run of that range; or why it cannot be. */
function planCommit(cwd: string, patch: string, base: string | undefined): { base: string; head: string } | { problem: string } {
  const info = repoInfo(cwd);
  if (info === null) return { problem: msg.notRepo(cwd) };
  const at = resolveCommit(info.root, base ?? 'HEAD');
  if (at === null) return { problem: mcpMsg.badBase(base ?? 'HEAD') };
  const dir = mkdtempSync(join(tmpdir(), 'gl-mcp-'));
  try {
    const file = join(dir, 'patch.diff');
    writeFileSync(file, patch.endsWith('\n') ? patch : `${patch}\n`);
    const made = patchSnapshot(info.root, at, file);
    return made.kind === 'ok' ? { base: at, head: made.commit } : { problem: mcpMsg.notApplied(at, made.why) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
