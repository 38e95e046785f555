/**
 * `planwise plan --mcp-tool …` as shipped: the CLI built by the project's own esbuild.mjs in a
 * staging folder, in its own process, with the MCP client in its own bundle (dist/cli/mcp.js),
 * a real stdio MCP server from the workspace's `.mcp.json`, and the scripted model. The allowed
 * read-only tool is called and its answer reaches the model; the transcript names server and tool.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { stagedBuild } from '../support/stagedBuild';
import { NO_RETRIES, useCliScene } from './cliHarness';

const SERVER = resolve(__dirname, '../fixtures/mcp/server.mjs');

describe('the built CLI with an MCP tool', function () {
  this.timeout(120_000);
  let stage: string;
  const { setup } = useCliScene();
  before(async () => {
    stage = await stagedBuild('planwise-cli-mcp-');
  });
  after(() => rmSync(stage, { recursive: true, force: true }));

  it('plan --mcp-tool: the read-only tool runs, its answer reaches the model, the line names it', async () => {
    const { server, ws, args } = await setup(
      [
        sse.toolTurn([
          { name: 'mcp_gloss_lookup', args: { term: 'plan' } },
          { name: 'mcp_gloss_write_note', args: { text: 'no' } },
        ]),
        sse.textTurn(planResponse(samplePlan())),
      ],
      {
        'README.md': '# demo\n',
        '.mcp.json': JSON.stringify({
          mcpServers: { gloss: { command: process.execPath, args: [SERVER, 'canary.txt'] } },
        }),
      },
    );
    const r = await new Promise<{ code: number; out: string; err: string }>((res) =>
      execFile(
        process.execPath,
        [
          join(stage, 'dist/cli.cjs'),
          'plan',
          '--non-interactive',
          '--mcp-tool',
          'gloss/*',
          ...args,
          'add a greeting helper',
        ],
        { env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...NO_RETRIES } },
        (e, out, err) => res({ code: e ? Number((e as { code?: number }).code ?? -1) : 0, out, err }),
      ),
    );
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    assert.match(r.out, /✓ Called MCP gloss › lookup with `\{"term":"plan"\}`/);
    const tools = (server.requests[0]!.body.tools ?? []).map((t) => t.function.name);
    assert.ok(tools.includes('mcp_gloss_lookup') && !tools.includes('mcp_gloss_write_note'), tools.join(', '));
    const results = server.requests[1]!.body.messages.filter((m) => m['role'] === 'tool').map((m) => m['content']);
    assert.equal(results[0], 'A plan has five sections.');
    assert.match(String(results[1]), /unknown tool 'mcp_gloss_write_note'/);
    assert.ok(!existsSync(join(ws.root, 'canary.txt')), 'the writing tool never ran');
  });
});
