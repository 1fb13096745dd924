/**
 * `gate-ladder mcp` on the wire (issue 42): a line that is not JSON gets JSON-RPC's parse error (-32700,
 * id null), JSON that is no JSON-RPC message its invalid request (-32600), and the server goes on to answer
 * the next request. The packed CLI in a real repository, its stdin and stdout read line by line.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanEnv, withRepo } from '../helpers/repo.js';

const FILES = {
  'gate-ladder.config.mjs': `export default { tiers: [{ name: 't1', run: 'true', timeout: 30 }] };\n`,
};

test('a malformed line: a parse-error reply with id null; JSON that is no request: invalid request; the next request is answered', () =>
  withRepo({ files: FILES, install: false, pushInitial: false }, async (repo) => {
    const server = spawn(process.execPath, [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'mcp'], {
      cwd: repo.dir,
      env: cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    server.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const replies: Record<string, unknown>[] = [];
    const answered = new Promise<void>((resolve, reject) => {
      createInterface({ input: server.stdout }).on('line', (line) => {
        replies.push(JSON.parse(line) as Record<string, unknown>);
        // The server answers in order: once the initialize request (sent last) is answered, the lines before it were.
        if (replies.at(-1)!.id === 7) resolve();
      });
      server.on('exit', (code) => reject(new Error(`the server exited (${code}) after ${replies.length} replies: ${stderr}`)));
    });
    server.stdin.write('{"jsonrpc": "2.0", "id": 1, "method": \n');
    server.stdin.write('{"hello": "world"}\n');
    // Blank lines are no messages: no reply. A request whose method is no string: invalid, answered with its id.
    server.stdin.write('\n  \r\n');
    server.stdin.write('{"jsonrpc": "2.0", "id": 5, "meth');
    server.stdin.write('od": 42}\n');
    server.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    try {
      await answered;
    } finally {
      server.stdin.end();
    }
    assert.is(replies.length, 4, JSON.stringify(replies));
    const [parse, invalid, withId, init] = replies;
    assert.equal([withId!.id, (withId!.error as { code: number }).code], [5, -32600], JSON.stringify(withId));
    assert.equal([parse!.jsonrpc, parse!.id, (parse!.error as { code: number }).code], ['2.0', null, -32700], JSON.stringify(parse));
    assert.match((parse!.error as { message: string }).message, 'Parse error');
    assert.equal([invalid!.id, (invalid!.error as { code: number }).code], [null, -32600], JSON.stringify(invalid));
    assert.is(init!.id, 7);
    assert.is((init!.result as { serverInfo: { name: string } }).serverInfo.name, 'gate-ladder');
    await new Promise((resolve) => server.once('close', resolve));
  }));

test('explain_order: a patch with a head, or an empty patch, is a tool error saying what to give', () =>
  withRepo({ files: FILES, install: false, pushInitial: false }, async (repo) => {
    const server = spawn(process.execPath, [join(repo.dir, 'node_modules', 'gate-ladder', 'dist', 'cli.mjs'), 'mcp'], {
      cwd: repo.dir,
      env: cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const replies = new Map<number, Record<string, unknown>>();
    const answered = new Promise<void>((resolve) => {
      createInterface({ input: server.stdout }).on('line', (line) => {
        const r = JSON.parse(line) as Record<string, unknown>;
        replies.set(r.id as number, r);
        if (replies.has(2) && replies.has(3)) resolve();
      });
    });
    const send = (m: unknown) => server.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const diff = 'diff --git a/x.txt b/x.txt\nnew file mode 100644\n--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1 @@\n+x\n';
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'explain_order', arguments: { patch: diff, head: 'HEAD' } } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'explain_order', arguments: { patch: '  \n' } } });
    try {
      await answered;
    } finally {
      server.stdin.end();
    }
    const text = (id: number) => {
      const r = replies.get(id)!.result as { isError?: boolean; content: { text: string }[] };
      assert.ok(r.isError, JSON.stringify(r));
      return r.content[0]!.text;
    };
    assert.match(text(2), 'not both');
    assert.match(text(3), 'The patch is empty');
    await new Promise((resolve) => server.once('close', resolve));
  }));

test.run();
