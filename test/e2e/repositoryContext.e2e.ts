// What Planwise reads from the repository, in a real VS Code (code-server) on the installed VSIX:
// the workspace's AGENTS.md reaches the planner and the panel names it; an MCP server configured in
// the workspace's .vscode/mcp.json (a real stdio server built on the MCP SDK) is started for the
// session because the person allowed one of its tools, the planner calls that read-only tool, and
// the call is shown as a row that names the server and the tool. The writing tool is never offered.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { endScenario, screenshotOnFailure } from './support/artifacts';
import { greetingPlan, makeWorkspace, planTurn, type Workspace } from './support/fixtures';
import { ModelScript, toolResults } from './support/modelScript';
import { Panel, planwiseSettings, setApiKey, startPlanning, widenSidebar } from './support/ui';

const SERVER = path.resolve(__dirname, '../fixtures/mcp/server.mjs');
const AGENTS = 'Greetings end with an exclamation mark. AGENTS-E2E-MARK\n';

describe('e2e: the repository context reaches the planner (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;

  before(async function () {
    ws = makeWorkspace('planwise-e2e-context-');
    writeFileSync(ws.file('AGENTS.md'), AGENTS);
    mkdirSync(ws.file('.vscode'), { recursive: true });
    writeFileSync(
      ws.file('.vscode/mcp.json'),
      JSON.stringify({
        servers: { gloss: { type: 'stdio', command: process.execPath, args: [SERVER, ws.file('canary.txt')] } },
      }),
    );
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: buildPlanwiseVsix().file,
      settings: planwiseSettings(model.baseURL, { 'planwise.mcp.planningTools': ['gloss/*'] }),
    });
    wb = await openWorkbench(server);
    await setApiKey(wb, 'sk-e2e-not-a-real-key-000000');
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('repository-context', { server, wb, model, ws });
  });

  it('plans with AGENTS.md and the allowed read-only MCP tool; the row names the server and the tool', async function () {
    assert.ok(wb);
    model.push(
      sse.toolTurn([{ name: 'mcp_gloss_lookup', args: { term: 'gate' } }], { text: 'Checking the glossary.' }),
      planTurn(greetingPlan()),
    );
    const panel = new Panel(wb);
    await startPlanning(wb, 'Make the greeting friendlier');
    await widenSidebar(wb, 470);
    await panel.waitFor('.pw-gate', { text: 'Ready to code?' });

    // The first request: AGENTS.md after the system prompt, the read-only MCP tool offered, the writing one not.
    const first = model.requests[0]!;
    assert.match(String(first.body.messages[0]!['content']), /AGENTS-E2E-MARK/);
    const names = (first.body.tools ?? []).map((t) => t.function.name);
    assert.ok(names.includes('mcp_gloss_lookup'), names.join(', '));
    assert.ok(!names.includes('mcp_gloss_write_note'), names.join(', '));
    // The call went to the real server and its answer came back to the model.
    assert.match(toolResults(model.requests[1]).join('\n'), /The read-only gate judges every shell command/);
    assert.equal(existsSync(ws.file('canary.txt')), false, 'the writing tool never ran');
    model.assertDrained();

    // The panel: the instructions row names AGENTS.md with its size; the call's row names server and tool.
    await panel.waitFor('.pw-instructions', { text: /AGENTS\.md (\d+ bytes|\d+\.\d KB)/ });
    const row = (await panel.locator('.pw-tool-call')).filter({ hasText: 'gloss › lookup' }).first();
    assert.match(await row.innerText(), /Called MCP gloss › lookup with \{"term":"gate"\}/);
    assert.equal(await row.getAttribute('data-outcome'), 'ok');
    await wb.screenshot('e2e-context-mcp-row');
  });
});
