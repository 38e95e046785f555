/**
 * MCP tools with a real stdio server built on the official SDK (test/fixtures/mcp/server.mjs:
 * `lookup` and `fail` declare themselves read-only, `write_note` does not and writes a canary
 * file), configured in the workspace's `.vscode/mcp.json`, reached through the real SDK client, and
 * the real openai SDK against the scripted server. Nothing is offered or started without the
 * person's allow-list; while planning only an allowed read-only tool is offered; the writing tool
 * never runs while planning and asks first while building.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { McpConfig } from '../../src/core/mcp/ports';
import { mcpToolNames, MAX_TOOL_NAME } from '../../src/core/mcp/names';
import type { SessionConfig } from '../../src/core/session/api';
import { SdkMcpClient } from '../../src/node/mcpClient';
import { sse, type RecordedRequest, type Script } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness, type HarnessOptions } from '../support/sessionHarness';

const SERVER = resolve(__dirname, '../fixtures/mcp/server.mjs');

function mcpJson(servers: Record<string, unknown>): string {
  return JSON.stringify({ servers }, null, 2);
}

const toolNames = (r: RecordedRequest) => (r.body.tools ?? []).map((t) => t.function.name);
const toolMessages = (r: RecordedRequest) =>
  r.body.messages.filter((m) => m['role'] === 'tool').map((m) => String(m['content']));

describe('MCP tools', () => {
  let h: Harness | undefined;
  let client: SdkMcpClient | undefined;
  afterEach(async () => {
    h?.session.dispose();
    await client?.close();
    await h?.close();
    h = undefined;
    client = undefined;
  });

  /** A harness whose workspace configures the fixture server as `gloss` (and any `extra` servers). */
  async function start(
    script: Script,
    mcp: McpConfig | undefined,
    opts: Partial<HarnessOptions> & { extra?: Record<string, unknown>; config?: Partial<SessionConfig> } = {},
  ) {
    const files = {
      'README.md': '# demo\n',
      'src/greet.ts': 'export const hello = 1;\n',
      '.vscode/mcp.json': mcpJson({
        // VS Code's format: `servers`, with `${workspaceFolder}` filled in.
        gloss: { type: 'stdio', command: process.execPath, args: [SERVER, '${workspaceFolder}/canary.txt'] },
        ...opts.extra,
      }),
    };
    const harness = await startHarness(script, {
      files,
      ...opts,
      config: { instructions: false, ...(mcp ? { mcp } : {}), ...opts.config },
      mcp: (ws) => (client = new SdkMcpClient({ root: ws.root, env: process.env })),
    });
    h = harness;
    return { h: harness, canary: join(harness.ws.root, 'canary.txt') };
  }

  it('without the allow-list: nothing is offered and no server is started', async () => {
    const { h, canary } = await start([sse.textTurn(planResponse(samplePlan()))], undefined, {
      config: { interactive: false },
    });
    await h.session.start('add a greeting helper');
    assert.ok(!toolNames(h.server.requests[0]!).some((n) => n.startsWith('mcp_')));
    assert.equal(existsSync(`${canary}.started`), false, 'the server was never started');
  });

  it('allow-listed: only the read-only tools are offered while planning; a call travels through the runloop', async () => {
    const { h, canary } = await start(
      [
        sse.toolTurn([
          { name: 'mcp_gloss_lookup', args: { term: 'gate' } },
          { name: 'mcp_gloss_write_note', args: { text: 'planned write' } },
          { name: 'mcp_gloss_fail', args: {} },
        ]),
        sse.textTurn(planResponse(samplePlan())),
      ],
      { planningTools: ['gloss/*'] },
      { config: { interactive: false } },
    );
    const stop = await h.session.start('add a greeting helper');
    assert.equal(stop.kind, 'awaiting_approval', 'planning went on to a plan');
    const [first, second] = h.server.requests;
    const mcpTools = toolNames(first!).filter((n) => n.startsWith('mcp_'));
    assert.deepEqual(mcpTools.sort(), ['mcp_gloss_fail', 'mcp_gloss_lookup']);
    const lookup = first!.body.tools!.find((t) => t.function.name === 'mcp_gloss_lookup')!;
    assert.deepEqual((lookup.function.parameters as { required?: string[] }).required, ['term']);
    assert.equal(JSON.stringify(second!.body.tools), JSON.stringify(first!.body.tools), 'the tool list is stable');

    const [looked, wrote, failed] = toolMessages(second!);
    assert.equal(looked, 'The read-only gate judges every shell command before it runs.');
    assert.match(wrote!, /unknown tool 'mcp_gloss_write_note'/);
    assert.match(failed!, /gloss\/fail failed: the glossary is offline/);
    assert.equal(existsSync(canary), false, 'the writing tool never ran');

    // The rows: the call named, with the engine's outcome.
    const calls = h.eventsOf('item.completed').filter((e) => e.item.kind === 'tool_call');
    assert.deepEqual(
      calls.map((e) => [e.item.tool!.name, e.item.verdict!.allowed]),
      [
        ['mcp_gloss_lookup', true],
        ['mcp_gloss_write_note', false],
        ['mcp_gloss_fail', true],
      ],
    );
    assert.equal(
      calls[0]!.item.tool!.title,
      'Called MCP gloss › lookup with `{"term":"gate"}`',
      'the row names the server and the tool',
    );
    const outcomes = h
      .eventsOf('item.completed')
      .filter((e) => e.item.kind === 'tool_result')
      .map((e) => e.item.result!.outcome);
    assert.deepEqual(outcomes, ['ok', 'blocked', 'failed']);
    const notice = h
      .eventsOf('item.completed')
      .find((e) => e.item.kind === 'notice' && /MCP tools while planning/.test(e.item.text ?? ''));
    assert.match(notice!.item.text!, /gloss\/lookup.*Not offered while planning.*gloss\/write_note/);
  });

  it('a tool allowed by name that does not declare itself read-only is never offered while planning', async () => {
    const { h } = await start(
      [sse.textTurn(planResponse(samplePlan()))],
      { planningTools: ['gloss/write_note'] },
      {
        config: { interactive: false },
      },
    );
    await h.session.start('add a greeting helper');
    assert.ok(!toolNames(h.server.requests[0]!).some((n) => n.startsWith('mcp_')));
  });

  it('during the build the writing tool is offered and asks first: no, then yes', async () => {
    const { h, canary } = await start(
      [
        sse.textTurn(planResponse(samplePlan())),
        sse.toolTurn([{ name: 'mcp_gloss_write_note', args: { text: 'first' } }]),
        sse.toolTurn([{ name: 'mcp_gloss_write_note', args: { text: 'second' } }]),
        sse.textTurn('Done.'),
      ],
      { planningTools: ['gloss/*'] },
      {
        approve: () => ({ decision: 'execute' }),
        approveCommand: (command) => /second/.test(command),
      },
    );
    await h.session.start('add a greeting helper');
    const build = h.server.requests[1]!;
    assert.ok(toolNames(build).includes('mcp_gloss_write_note'), 'offered to the build');
    assert.deepEqual(h.people.commands, [
      'MCP gloss/write_note {"text":"first"}',
      'MCP gloss/write_note {"text":"second"}',
    ]);
    assert.match(toolMessages(h.server.requests[2]!).at(-1)!, /the person did not allow gloss\/write_note/);
    assert.equal(readFileSync(canary, 'utf8'), 'second', 'only the approved call ran');
  });

  it('an explicit "always" for the tool lets the build call it without asking', async () => {
    const { h, canary } = await start(
      [
        sse.textTurn(planResponse(samplePlan())),
        sse.toolTurn([{ name: 'mcp_gloss_write_note', args: { text: 'always' } }]),
        sse.textTurn('Done.'),
      ],
      { planningTools: ['gloss/*'], alwaysAllow: ['gloss/write_note'] },
      { approve: () => ({ decision: 'execute' }) },
    );
    await h.session.start('add a greeting helper');
    assert.deepEqual(h.people.commands, []);
    assert.equal(readFileSync(canary, 'utf8'), 'always');
  });

  it('a server that fails to start is one message, and planning goes on without it', async () => {
    const { h } = await start(
      [sse.toolTurn([{ name: 'mcp_gloss_lookup', args: { term: 'plan' } }]), sse.textTurn(planResponse(samplePlan()))],
      { planningTools: ['gloss/lookup', 'broken/*'] },
      { extra: { broken: { command: join(__dirname, 'no-such-server') } }, config: { interactive: false } },
    );
    const stop = await h.session.start('add a greeting helper');
    assert.equal(stop.kind, 'awaiting_approval');
    const notices = h
      .eventsOf('item.completed')
      .filter((e) => e.item.kind === 'notice' && /did not start/.test(e.item.text ?? ''));
    assert.equal(notices.length, 1);
    assert.match(
      notices[0]!.item.text!,
      /The MCP server 'broken' did not start: .*Planning goes on without its tools\./,
    );
    assert.equal(toolMessages(h.server.requests[1]!)[0], 'A plan has five sections.');
  });

  it('in an untrusted workspace no server is started, and the person is told', async () => {
    const { h, canary } = await start(
      [sse.textTurn(planResponse(samplePlan()))],
      { planningTools: ['gloss/*'] },
      {
        config: { interactive: false, trusted: false },
      },
    );
    await h.session.start('add a greeting helper');
    assert.equal(existsSync(`${canary}.started`), false);
    assert.ok(!toolNames(h.server.requests[0]!).some((n) => n.startsWith('mcp_')));
    const notice = h
      .eventsOf('item.completed')
      .find((e) => e.item.kind === 'notice' && /Restricted Mode/.test(e.item.text ?? ''));
    assert.match(notice!.item.text!, /MCP servers named by this workspace \(gloss\) are not started/);
  });
});

describe('MCP tool names', () => {
  it('are mcp_<server>_<tool>, cut to 64 characters of [a-zA-Z0-9_-], unique and stable', () => {
    const long = 'x'.repeat(80);
    const names = mcpToolNames(
      [
        ['docs', 'search'],
        ['my.server', 'get issue'],
        ['s', `${long}a`],
        ['s', `${long}b`],
        ['a_b', 'c'],
        ['a', 'b_c'],
      ],
      new Set(),
    );
    assert.equal(names[0], 'mcp_docs_search');
    assert.equal(names[1], 'mcp_my_server_get_issue');
    for (const n of names) assert.match(n, /^[a-zA-Z0-9_-]{1,64}$/);
    assert.ok(names[2]!.length === MAX_TOOL_NAME && names[2] !== names[3]);
    assert.equal(new Set(names).size, names.length, `unique: ${names.join(', ')}`);
    assert.deepEqual(mcpToolNames([['s', `${long}a`]], new Set()), [names[2]], 'the same name every session');
  });
});
