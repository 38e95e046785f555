/** The MCP servers a workspace names, read from real files: VS Code's `.vscode/mcp.json` and `.mcp.json`. */
import assert from 'node:assert/strict';
import { parseJsonc, readMcpServers } from '../../src/node/mcpConfig';
import { makeTempWorkspace } from '../support/tempWorkspace';

describe('MCP configuration files', () => {
  it('reads both files: stdio and http servers, variables filled in, the first file winning a name', async () => {
    const ws = makeTempWorkspace({
      '.vscode/mcp.json': `{
        // VS Code's format allows comments and trailing commas
        "inputs": [{ "id": "token", "type": "promptString" }],
        "servers": {
          "docs": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/tools/docs.js"], "env": { "HOME_DIR": "\${env:PLANWISE_TEST_HOME}" }, },
          "tracker": { "type": "http", "url": "https://mcp.example.test/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
        },
      }`,
      '.mcp.json': JSON.stringify({
        mcpServers: {
          docs: { command: 'ignored' },
          files: { command: 'npx', args: ['files-server', '--root', '.'], cwd: 'sub' },
          remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        },
      }),
    });
    try {
      const servers = await readMcpServers(ws.root, { PLANWISE_TEST_HOME: '/home/x' });
      assert.deepEqual(
        servers.map((s) => [s.name, s.transport, s.source]),
        [
          ['docs', 'stdio', '.vscode/mcp.json'],
          ['tracker', 'http', '.vscode/mcp.json'],
          ['files', 'stdio', '.mcp.json'],
          ['remote', 'http', '.mcp.json'],
        ],
      );
      const docs = servers[0]!;
      assert.ok(docs.transport === 'stdio');
      assert.deepEqual(docs.args, [`${ws.root}/tools/docs.js`]);
      assert.deepEqual(docs.env, { HOME_DIR: '/home/x' });
      assert.equal(docs.problem, undefined);
      assert.match(servers[1]!.problem ?? '', /asks for \$\{input:token\}/);
      const files = servers[2]!;
      assert.ok(files.transport === 'stdio' && files.cwd === `${ws.root}/sub`);
    } finally {
      ws.cleanup();
    }
  });

  it('no files: no servers; a broken file: an error that names it', async () => {
    const empty = makeTempWorkspace({});
    const broken = makeTempWorkspace({ '.mcp.json': '{ "mcpServers": ' });
    try {
      assert.deepEqual(await readMcpServers(empty.root, {}), []);
      await assert.rejects(readMcpServers(broken.root, {}), /\.mcp\.json is not valid JSON/);
    } finally {
      empty.cleanup();
      broken.cleanup();
    }
  });

  it('JSON with comments keeps comment-like text inside strings', () => {
    assert.deepEqual(parseJsonc('{"a": "http://x/*y*/", /* c */ "b": [1, 2,], // d\n}'), {
      a: 'http://x/*y*/',
      b: [1, 2],
    });
  });
});
