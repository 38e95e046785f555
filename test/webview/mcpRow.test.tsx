import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { mcpTool } from '../../src/core/mcp/mcpTool';
import type { McpClientPort } from '../../src/core/mcp/ports';
import { EventTranslator } from '../../src/host/panel/translate';
import type { ThreadEvent } from '../../src/core/index';

describe('panel: an MCP tool call', () => {
  it('names the server and the tool on its row, as the tool describes the call', () => {
    const unused = {} as McpClientPort;
    const tool = mcpTool({
      name: 'mcp_gloss_lookup',
      server: 'gloss',
      info: { name: 'lookup', inputSchema: { type: 'object' }, readOnlyHint: true },
      client: unused,
      mode: 'plan',
      alwaysAllow: false,
    });
    const args = { term: 'gate' };
    const described = tool.describe(args);
    const translator = new EventTranslator({ relativePath: (p) => p });
    const item = {
      id: 'call-c1',
      kind: 'tool_call' as const,
      tool: { callId: 'c1', name: tool.name, arguments: JSON.stringify(args), ...described },
      verdict: { allowed: true, reason: "'gloss/lookup' is read-only and allowed by you" },
    };
    const started: ThreadEvent = { type: 'item.started', seq: 1, at: 0, turn_id: 't', item };
    const done: ThreadEvent = { type: 'item.completed', seq: 2, at: 0, turn_id: 't', item };
    const p = mountPanel();
    p.update([...translator.translate(started), ...translator.translate(done)]);
    const title = p.container.querySelector('.pw-tool-call .pw-tool-title')!;
    assert.equal(title.textContent, 'Called MCP gloss › lookup with {"term":"gate"}');
    assert.equal(title.querySelector('code')?.textContent, '{"term":"gate"}');
  });
});
