/**
 * The MCP client over streamable HTTP: a real server built on the SDK's streamable HTTP transport,
 * on 127.0.0.1, named by the workspace's `.mcp.json`.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';
import { SdkMcpClient } from '../../src/node/mcpClient';
import { makeTempWorkspace } from '../support/tempWorkspace';

describe('MCP over streamable HTTP', () => {
  let http: Server | undefined;
  let client: SdkMcpClient | undefined;
  afterEach(async () => {
    await client?.close();
    await new Promise<void>((r) => (http ? http.close(() => r()) : r()));
  });

  it('lists the tools with their read-only claim and calls one; headers reach the server', async () => {
    const seen: string[] = [];
    http = createServer((req, res) => {
      seen.push(String(req.headers['x-team'] ?? ''));
      // Stateless: one server and transport per request, as the SDK's stateless example does.
      const server = new McpServer({ name: 'http-fixture', version: '1.0.0' });
      server.registerTool(
        'count',
        { description: 'Counts letters.', inputSchema: { word: z.string() }, annotations: { readOnlyHint: true } },
        async ({ word }) => ({ content: [{ type: 'text', text: String(word.length) }] }),
      );
      server.registerTool('erase', { description: 'Erases.', inputSchema: {} }, async () => ({ content: [] }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((r) => http!.listen(0, '127.0.0.1', () => r()));
    const port = (http.address() as AddressInfo).port;
    const ws = makeTempWorkspace({
      '.mcp.json': JSON.stringify({
        mcpServers: { words: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { 'X-Team': 'docs' } } },
      }),
    });
    try {
      client = new SdkMcpClient({ root: ws.root, env: {} });
      assert.deepEqual(await client.servers(), [{ name: 'words', transport: 'http', source: '.mcp.json' }]);
      const tools = await client.listTools('words');
      assert.deepEqual(
        tools.map((t) => [t.name, t.readOnlyHint]),
        [
          ['count', true],
          ['erase', false],
        ],
      );
      assert.deepEqual(await client.callTool('words', 'count', { word: 'planwise' }), { ok: true, text: '8' });
      assert.ok(seen.length > 0 && seen.every((h) => h === 'docs'), `headers: ${seen.join(',')}`);
    } finally {
      ws.cleanup();
    }
  });
});
