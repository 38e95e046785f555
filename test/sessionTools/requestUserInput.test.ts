import assert from 'node:assert/strict';
import type { InterviewQuestion } from '../../src/core/lifecycle/ports';
import { runTool } from '../../src/core/tools';
import type { AgentToolContext, InterviewRecord } from '../../src/core/tools/session/context';
import {
  QUESTIONS_UNAVAILABLE,
  requestUserInputTool as tool,
  type RequestUserInputArgs,
} from '../../src/core/tools/session/requestUserInput';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { agentContextFor, ScriptedInterviewer } from './helpers';

const DB: RequestUserInputArgs['questions'][number] = {
  header: 'Database',
  question: 'Which database should the cache use?',
  options: [{ label: 'SQLite', description: 'one file, no server', recommended: true }, { label: 'Postgres' }],
  allow_note: true,
};
const AUTH: RequestUserInputArgs['questions'][number] = {
  id: 'auth',
  header: 'Auth',
  question: 'Keep the session cookie?',
  options: [{ label: 'Keep' }, { label: 'Replace with tokens' }, { label: 'Both' }],
};

describe('request_user_input', () => {
  let ws: TempWorkspace;
  let records: InterviewRecord[];
  const ctxWith = (interviewer: ScriptedInterviewer, extra: Partial<AgentToolContext> = {}) =>
    agentContextFor(ws, { interviewer, onInterview: (r) => records.push(r), ...extra });
  beforeEach(() => {
    ws = makeTempWorkspace();
    records = [];
  });
  afterEach(() => ws.cleanup());

  it('asks through the interviewer and lists each answer as "header: choice — note"', async () => {
    const interviewer = new ScriptedInterviewer([
      {
        kind: 'answered',
        answers: [
          { questionId: 'q1', choice: 'Postgres', note: 'we already run one' },
          { questionId: 'auth', choice: 'Keep' },
        ],
      },
    ]);
    const r = await tool.run({ questions: [DB, AUTH] }, ctxWith(interviewer));
    assert.equal(r.ok, true);
    assert.equal(
      r.content,
      'The person answered:\n- Database: Postgres — we already run one\n- Auth: Keep\nContinue with these choices.',
    );
    const shown = interviewer.asked[0] as readonly InterviewQuestion[];
    assert.deepEqual(shown, [
      {
        id: 'q1',
        header: 'Database',
        question: 'Which database should the cache use?',
        options: [{ label: 'SQLite', description: 'one file, no server', recommended: true }, { label: 'Postgres' }],
        allowNote: true,
      },
      {
        id: 'auth',
        header: 'Auth',
        question: 'Keep the session cookie?',
        options: [{ label: 'Keep' }, { label: 'Replace with tokens' }, { label: 'Both' }],
      },
    ]);
    assert.equal(records.length, 1);
    assert.equal(records[0]?.outcome.kind, 'answered');
    assert.deepEqual(records[0]?.questions, shown);
  });

  it('gives generated ids that do not collide with the ids the model chose', async () => {
    const interviewer = new ScriptedInterviewer([{ kind: 'cancelled' }]);
    await tool.run({ questions: [{ ...AUTH, id: 'q1' }, DB, { ...DB, header: 'Other' }] }, ctxWith(interviewer));
    assert.deepEqual(
      interviewer.asked[0]?.map((q) => q.id),
      ['q1', 'q2', 'q3'],
    );
  });

  it('marks a question the person left unanswered', async () => {
    const interviewer = new ScriptedInterviewer([
      { kind: 'answered', answers: [{ questionId: 'auth', choice: 'Both', note: '   ' }] },
    ]);
    const r = await tool.run({ questions: [DB, AUTH] }, ctxWith(interviewer));
    assert.equal(
      r.content,
      'The person answered:\n- Database: (not answered)\n- Auth: Both\nContinue with these choices.',
    );
  });

  it('on Esc returns that no answer was given, and a later call asks again', async () => {
    const interviewer = new ScriptedInterviewer([
      { kind: 'cancelled' },
      { kind: 'answered', answers: [{ questionId: 'q1', choice: 'SQLite' }] },
    ]);
    const ctx = ctxWith(interviewer);
    const first = await tool.run({ questions: [DB] }, ctx);
    assert.equal(first.ok, true);
    assert.match(first.content, /no answer was given/);
    assert.match(first.content, /ask again later if it still matters/);
    assert.equal(ctx.interviewState?.denied, false);
    const second = await tool.run({ questions: [DB] }, ctx);
    assert.match(second.content, /- Database: SQLite/);
    assert.equal(interviewer.asked.length, 2);
    assert.deepEqual(
      records.map((r) => r.outcome.kind),
      ['cancelled', 'answered'],
    );
  });

  it('in a non-interactive run denies without asking, and the denial lasts for the session', async () => {
    const interviewer = new ScriptedInterviewer([]);
    const ctx = ctxWith(interviewer, { interactive: false });
    const first = await tool.run({ questions: [DB] }, ctx);
    assert.equal(first.ok, false);
    assert.ok(first.content.includes(QUESTIONS_UNAVAILABLE), first.content);
    assert.match(first.content, /non-interactive/);
    assert.equal(ctx.interviewState?.denied, true);
    // A later turn shares the session's state: even an interactive context no longer asks.
    const laterTurn: AgentToolContext = { ...ctx, interactive: true };
    const later = await tool.run({ questions: [AUTH] }, laterTurn);
    assert.equal(later.content, first.content);
    assert.equal(interviewer.asked.length, 0);
    assert.deepEqual(
      records.map((r) => r.outcome.kind),
      ['denied'],
    );
  });

  it('records a denial from the interviewer as permanent: it is asked once only', async () => {
    const interviewer = new ScriptedInterviewer([{ kind: 'denied', reason: 'headless run' }]);
    const ctx = ctxWith(interviewer);
    const first = await tool.run({ questions: [DB] }, ctx);
    assert.equal(first.ok, false);
    assert.equal(first.content, `request_user_input: ${QUESTIONS_UNAVAILABLE} (reason: headless run)`);
    for (let i = 0; i < 3; i++) {
      const again = await tool.run({ questions: [AUTH] }, ctx);
      assert.equal(again.content, first.content);
    }
    assert.equal(interviewer.asked.length, 1);
    assert.equal(records.length, 1);
  });

  it('needs the session interview state, and an interviewer when interactive', async () => {
    const noState = agentContextFor(ws, { interviewer: new ScriptedInterviewer([]), interviewState: undefined });
    await assert.rejects(tool.run({ questions: [DB] }, noState), /request_user_input .*"interviewState"/);
    const noInterviewer = agentContextFor(ws);
    await assert.rejects(
      tool.run({ questions: [DB] }, noInterviewer),
      /cannot ask the person questions.*"interviewer"/,
    );
  });

  describe('argument validation (through runTool, as the model calls it)', () => {
    const call = (args: unknown) =>
      runTool(tool, JSON.stringify(args), agentContextFor(ws, { interviewer: new ScriptedInterviewer([]) }));
    const cases: [string, unknown, RegExp][] = [
      ['no questions', { questions: [] }, /questions: .*>=1/],
      ['four questions', { questions: [DB, DB, DB, DB] }, /questions: .*<=3/],
      ['one option', { questions: [{ ...DB, options: [{ label: 'A' }] }] }, /options: .*>=2/],
      [
        'five options',
        { questions: [{ ...DB, options: ['a', 'b', 'c', 'd', 'e'].map((label) => ({ label })) }] },
        /options: .*<=4/,
      ],
      ['a header over 30 characters', { questions: [{ ...DB, header: 'x'.repeat(31) }] }, /header: .*<=30/],
      [
        'two recommended options',
        {
          questions: [
            {
              ...DB,
              options: [
                { label: 'A', recommended: true },
                { label: 'B', recommended: true },
              ],
            },
          ],
        },
        /at most one option as recommended/,
      ],
      [
        'two options with the same label',
        { questions: [{ ...DB, options: [{ label: 'Keep' }, { label: 'keep' }] }] },
        /option labels must differ/,
      ],
      ['two questions with the same id', { questions: [AUTH, { ...DB, id: 'auth' }] }, /question ids must differ/],
      ['an empty question', { questions: [{ ...DB, question: '  ' }] }, /question: /],
    ];
    for (const [name, args, expected] of cases) {
      it(`rejects ${name}`, async () => {
        const r = await call(args);
        assert.equal(r.ok, false);
        assert.match(r.content, /^request_user_input: invalid arguments/);
        assert.match(r.content, expected);
      });
    }

    it('accepts a header of exactly 30 characters and four options', async () => {
      const interviewer = new ScriptedInterviewer([{ kind: 'cancelled' }]);
      const args = {
        questions: [{ ...DB, header: 'h'.repeat(30), options: ['a', 'b', 'c', 'd'].map((label) => ({ label })) }],
      };
      const r = await runTool(tool, JSON.stringify(args), agentContextFor(ws, { interviewer }));
      assert.equal(r.ok, true, r.content);
      assert.equal(interviewer.asked.length, 1);
    });
  });
});
