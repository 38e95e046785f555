import assert from 'node:assert/strict';
import { HANDLERS, type PanelActions } from '../../src/host/panel/handlers';
import { createRouter } from '../../src/host/panel/router';
import { WebviewMessageSchema } from '../../src/protocol';

/** Records every action call; answers as configured. */
function fakeActions(answer = true) {
  const calls: [string, ...unknown[]][] = [];
  const rec =
    <R>(name: string, result: R) =>
    (...args: unknown[]) => {
      calls.push([name, ...args]);
      return result;
    };
  const actions: PanelActions = {
    sendSnapshot: rec('sendSnapshot', undefined),
    answerReady: rec('answerReady', undefined),
    submit: rec('submit', Promise.resolve()),
    setMode: rec('setMode', Promise.resolve()),
    answerInterview: rec('answerInterview', answer),
    answerApproval: rec('answerApproval', Promise.resolve(answer)),
    answerEnterPlanning: rec('answerEnterPlanning', answer),
    answerGrantMore: rec('answerGrantMore', answer),
    openFile: rec('openFile', Promise.resolve()),
    runVerify: rec('runVerify', Promise.resolve()),
    cancelVerify: rec('cancelVerify', Promise.resolve()),
    markChecked: rec('markChecked', Promise.resolve()),
    compareRevisions: rec('compareRevisions', Promise.resolve()),
    resume: rec('resume', Promise.resolve()),
    setApiKey: rec('setApiKey', Promise.resolve()),
    retry: rec('retry', Promise.resolve()),
    changeProvider: rec('changeProvider', Promise.resolve()),
    trustWorkspace: rec('trustWorkspace', Promise.resolve()),
    stop: rec('stop', undefined),
    revertBuild: rec('revertBuild', Promise.resolve()),
    setup: rec('setup', Promise.resolve()),
  };
  return { actions, calls };
}

function fakeLog() {
  const lines: string[] = [];
  return {
    lines,
    debug: (l: string) => lines.push(`debug ${l}`),
    warn: (l: string) => lines.push(`warn ${l}`),
    error: (l: string, err?: unknown) => lines.push(`error ${l}: ${String(err)}`),
  };
}

describe('panel message routing', () => {
  it('has one handler per message type of the protocol', () => {
    const types = WebviewMessageSchema.options.map((o) => o.shape.type.value).sort();
    assert.deepEqual(Object.keys(HANDLERS).sort(), types);
  });

  const cases: [unknown, [string, ...unknown[]]][] = [
    [{ type: 'ready' }, ['answerReady', undefined]],
    [{ type: 'ready', seq: 4 }, ['answerReady', 4]],
    [{ type: 'resync', lastSeq: 7 }, ['sendSnapshot']],
    [{ type: 'submit', text: '  add retries  ' }, ['submit', 'add retries']],
    [{ type: 'setMode', mode: 'build' }, ['setMode', 'build']],
    [
      { type: 'interviewResponse', requestId: 'interview-1', outcome: { kind: 'cancelled' } },
      ['answerInterview', 'interview-1', { kind: 'cancelled' }],
    ],
    [
      { type: 'approvalResponse', requestId: 'approval-1', decision: 'revise', feedback: ' keep v1 ' },
      ['answerApproval', 'approval-1', 'revise', 'keep v1', undefined],
    ],
    [{ type: 'enterPlanningResponse', requestId: 'e-1', accept: true }, ['answerEnterPlanning', 'e-1', true]],
    [{ type: 'grantMore', requestId: 'g-1', grant: false }, ['answerGrantMore', 'g-1', false]],
    [{ type: 'openFile', path: 'src/a.ts', line: 12 }, ['openFile', 'src/a.ts', 12]],
    [
      { type: 'runVerify', planFile: '.vtcode/plans/p.md', itemPath: '2.1', entry: 'npm test' },
      ['runVerify', '2.1', 'npm test', '.vtcode/plans/p.md'],
    ],
    [{ type: 'runVerify', itemPath: '2.1', entry: 'npm test' }, ['runVerify', '2.1', 'npm test', undefined]],
    [{ type: 'cancelVerify', itemPath: '2', entry: 'npm test' }, ['cancelVerify', '2', 'npm test', undefined]],
    [
      { type: 'markChecked', itemPath: '3', entry: 'confirm the panel shows the plan' },
      ['markChecked', '3', 'confirm the panel shows the plan', undefined],
    ],
    [{ type: 'compareRevisions' }, ['compareRevisions']],
    [{ type: 'resume', sessionId: 'sabc' }, ['resume', 'sabc']],
    [{ type: 'setApiKey' }, ['setApiKey']],
    [{ type: 'revertBuild', sessionId: 's1' }, ['revertBuild', 's1', undefined]],
    [{ type: 'revertBuild', sessionId: 's1', toStep: '2' }, ['revertBuild', 's1', '2']],
  ];
  for (const [message, call] of cases) {
    it(`routes ${(message as { type: string }).type} to ${call[0]}`, async () => {
      const { actions, calls } = fakeActions();
      const route = createRouter({ actions, log: fakeLog() });
      assert.equal(await route(message), 'handled');
      assert.deepEqual(calls, [call]);
    });
  }

  it('never sends feedback to the model with an approval', async () => {
    const { actions, calls } = fakeActions();
    const route = createRouter({ actions, log: fakeLog() });
    await route({
      type: 'approvalResponse',
      requestId: 'a',
      decision: 'execute',
      feedback: 'also refactor everything',
    });
    assert.deepEqual(calls, [['answerApproval', 'a', 'execute', undefined, undefined]]);
  });

  it('treats blank revise feedback and blank composer text as nothing', async () => {
    const { actions, calls } = fakeActions();
    const route = createRouter({ actions, log: fakeLog() });
    await route({ type: 'approvalResponse', requestId: 'a', decision: 'revise', feedback: '   ' });
    await route({ type: 'submit', text: '   ' });
    assert.deepEqual(calls, [['answerApproval', 'a', 'revise', undefined, undefined]]);
  });

  const malformed: unknown[] = [
    null,
    'ready',
    { type: 'nope' },
    { type: 'submit' },
    { type: 'submit', text: '' },
    { type: 'approvalResponse', requestId: 'a', decision: 'approve_yourself' },
    { type: 'openFile', path: 'a', line: 0 },
    { type: 'runVerify', itemPath: '0', entry: 'npm test' },
    { type: 'setMode', mode: 'yolo' },
    { type: 'revertBuild', sessionId: 's1', toStep: '../2' },
  ];
  for (const message of malformed) {
    it(`drops and logs a malformed message: ${JSON.stringify(message)}`, async () => {
      const { actions, calls } = fakeActions();
      const log = fakeLog();
      const route = createRouter({ actions, log });
      assert.equal(await route(message), 'dropped');
      assert.deepEqual(calls, []);
      assert.equal(log.lines.length, 1);
      assert.match(log.lines[0]!, /^warn Malformed webview message/);
    });
  }

  it('logs late or unknown answers instead of acting on them', async () => {
    const { actions } = fakeActions(false);
    const log = fakeLog();
    const route = createRouter({ actions, log });
    await route({ type: 'interviewResponse', requestId: 'old', outcome: { kind: 'cancelled' } });
    await route({ type: 'approvalResponse', requestId: 'old', decision: 'execute' });
    await route({ type: 'grantMore', requestId: 'old', grant: true });
    await route({ type: 'enterPlanningResponse', requestId: 'old', accept: true });
    assert.equal(log.lines.length, 4);
    assert.ok(log.lines.every((l) => l.startsWith('warn ignored') && l.includes('old')));
  });

  it('reports a failing handler and keeps routing', async () => {
    const { actions } = fakeActions();
    actions.openFile = () => Promise.reject(new Error('file is gone'));
    const log = fakeLog();
    const failures: string[] = [];
    const route = createRouter({ actions, log }, { onError: (m, err) => failures.push(`${m.type}: ${String(err)}`) });
    assert.equal(await route({ type: 'openFile', path: 'x.ts' }), 'failed');
    assert.deepEqual(failures, ['openFile: Error: file is gone']);
    assert.equal(await route({ type: 'ready' }), 'handled');
  });
});
