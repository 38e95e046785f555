// Resume continues, it does not restart, in a real VS Code (code-server) on the installed VSIX: the
// planner reads two files, asks two questions (answered against the recommendation), reads a third
// file, and the window reloads while the fourth request streams. The panel comes back with the
// reads and answers as they were and "Interrupted — Resume"; Resume sends only the interrupted
// request again, message for message, with the earlier tool results and the answers in it. No tool
// runs twice (the session archive holds one call and one result per call id), no question is asked
// again, and the plan that follows is the one the answers chose.
// Screenshots: test-artifacts/e2e/resume-continues-*.png.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sse } from '../support/scriptedServer';
import { buildPlanwiseVsix, openWorkbench, startCodeServer, type CodeServer, type Workbench } from './harness';
import { endScenario, screenshotOnFailure } from './support/artifacts';
import {
  CHECK_JS,
  GREET_BEFORE,
  INTERVIEW,
  README_MARKER,
  greetingPlan,
  makeWorkspace,
  planTurn,
  type Workspace,
} from './support/fixtures';
import { ModelScript, toolResults } from './support/modelScript';
import { Panel, filesUnder, planwiseSettings, reloadWindow, startPlanning, widenSidebar } from './support/ui';

const TASK = 'Pick the greeting, then plan it';
const READS = ['Read greet.js', 'Read README.md', 'Read check.js'];

/** The thread events of the session archive that holds `task` (one JSON line each). */
function archivedEvents(userDataDir: string, task: string): { type: string; item?: Record<string, unknown> }[] {
  const archives = filesUnder(path.join(userDataDir, 'User', 'workspaceStorage'), /planwise/)
    .filter((f) => f.endsWith('.jsonl'))
    .filter((f) => readFileSync(f, 'utf8').includes(task));
  assert.equal(archives.length, 1, `the session archives holding the task: ${archives.join(', ')}`);
  return readFileSync(archives[0]!, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { kind: string; event?: { type: string; item?: Record<string, unknown> } })
    .filter((r) => r.kind === 'event' && r.event)
    .map((r) => r.event!);
}

describe('e2e: Resume after a reload mid-turn continues the turn (installed VSIX)', function () {
  let ws: Workspace;
  let model: ModelScript;
  let server: CodeServer | undefined;
  let wb: Workbench | undefined;
  let panel: Panel;

  before(async function () {
    ws = makeWorkspace();
    model = await ModelScript.start();
    server = await startCodeServer({
      workspace: ws.root,
      vsix: [buildPlanwiseVsix().file],
      settings: planwiseSettings(model.baseURL),
    });
    wb = await openWorkbench(server);
    panel = new Panel(wb);
  });

  afterEach(async function () {
    await screenshotOnFailure(this.currentTest, wb);
  });

  after(async function () {
    await endScenario('resume-continues', { server, wb, model, ws });
  });

  it('reload while the fourth request streams; Resume sends only that request again, nothing runs or is asked twice', async function () {
    assert.ok(wb && server);
    model.push(
      sse.toolTurn([
        { name: 'read_file', args: { path: 'greet.js' } },
        { name: 'read_file', args: { path: 'README.md' } },
      ]),
      sse.toolTurn([{ name: 'request_user_input', args: INTERVIEW }]),
      sse.toolTurn([{ name: 'read_file', args: { path: 'check.js' } }]),
      // The fourth request streams a little and hangs: the window reloads while it does.
      { chunks: [sse.text('Putting the plan together')], stallAfter: 1 },
    );
    const mark = model.mark();
    await startPlanning(wb, TASK);
    await widenSidebar(wb, 420);

    // The questions, answered against the recommendation on the first ("Hi", not "Hello").
    await panel.waitFor('.pw-interview', { text: 'Which greeting should callers get?' });
    const frame = await panel.frame();
    await frame.locator('.pw-interview .pw-option-label', { hasText: /^Hi$/ }).click();
    await frame.locator('.pw-interview vscode-button', { hasText: 'Next' }).click();
    await panel.waitFor('.pw-interview', { text: 'End the greeting with an exclamation mark?', timeoutMs: 10_000 });
    await frame.locator('.pw-interview .pw-option-label', { hasText: /^Yes/ }).click();
    await frame.locator('.pw-interview vscode-button', { hasText: 'Submit' }).click();

    await model.waitForRequests(mark + 4);
    const before = model.since(mark);
    assert.match(toolResults(before[2]).join('\n'), /Hi/);
    await wb.screenshot('resume-continues-1-mid-turn');

    await reloadWindow(wb);
    const notice = await panel.waitFor('.pw-banner', { text: 'Interrupted —' });
    // The panel comes back as it was: each read once, the message once, no question open.
    for (const read of READS) {
      assert.equal(
        await (await panel.locator('.pw-tool-call')).filter({ hasText: read }).count(),
        1,
        `"${read}" is shown once after the reload`,
      );
    }
    assert.equal(await (await panel.locator('.pw-user')).filter({ hasText: TASK }).count(), 1);
    assert.equal(await (await panel.locator('.pw-interview')).count(), 0, 'no question is asked again');
    await wb.screenshot('resume-continues-2-interrupted');

    model.push(planTurn(greetingPlan('Greet with Hi!')));
    await notice.getByText('Resume', { exact: true }).click();
    await panel.waitFor('.pw-gate', { text: 'Greet with Hi!' });
    await wb.screenshot('resume-continues-3-resumed');
    model.assertDrained();

    // What the scripted model received: one request more, the interrupted one again.
    const sent = model.since(mark);
    assert.equal(sent.length, 5, 'only the interrupted request was sent again');
    assert.deepEqual(
      sent[4]!.body.messages,
      sent[3]!.body.messages,
      'the resumed request is the interrupted one, message for message',
    );
    const results = toolResults(sent[4]);
    assert.equal(results.length, 4, 'two reads, the answers and a read: each result once');
    assert.ok(results[0]!.includes(GREET_BEFORE.trim()), results[0]);
    assert.match(results[1]!, new RegExp(README_MARKER));
    assert.match(results[2]!, /Hi/);
    assert.match(results[2]!, /Yes/);
    assert.doesNotMatch(results[2]!, /Hello/);
    assert.ok(results[3]!.includes(CHECK_JS.split('\n')[0]!), results[3]);
    const users = sent[4]!.body.messages.filter((m) => m['role'] === 'user');
    assert.equal(users.length, 1, "the person's message is sent once");

    // What ran: the archive holds each call and its result once, the questions asked once.
    const events = archivedEvents(server.userDataDir, TASK);
    const perCall = new Map<string, { started: number; results: number }>();
    for (const e of events) {
      const item = e.item as
        { kind?: string; tool?: { callId: string }; result?: { callId: string }; interview?: unknown } | undefined;
      if (e.type === 'item.started' && item?.kind === 'tool_call' && item.tool) {
        const n = perCall.get(item.tool.callId) ?? { started: 0, results: 0 };
        perCall.set(item.tool.callId, { ...n, started: n.started + 1 });
      }
      if (e.type === 'item.completed' && item?.kind === 'tool_result' && item.result) {
        const n = perCall.get(item.result.callId) ?? { started: 0, results: 0 };
        perCall.set(item.result.callId, { ...n, results: n.results + 1 });
      }
    }
    assert.equal(perCall.size, 4, `the calls: ${JSON.stringify([...perCall])}`);
    for (const [id, n] of perCall) assert.deepEqual(n, { started: 1, results: 1 }, `call ${id}`);
    const asked = events.filter(
      (e) => e.type === 'item.completed' && (e.item as { kind?: string } | undefined)?.kind === 'interview',
    );
    assert.equal(asked.length, 1, 'the questions were asked once');

    // And the panel: each read still once, the answered questions gone, the plan the answers chose.
    for (const read of READS) {
      assert.equal(await (await panel.locator('.pw-tool-call')).filter({ hasText: read }).count(), 1, read);
    }
    assert.equal(await (await panel.locator('.pw-interview')).count(), 0);
  });
});
