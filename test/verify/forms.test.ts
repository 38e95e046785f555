/**
 * Every `verify:` form the validator accepts, parsed once in src/core/plan and run (or asked for)
 * through the same code by the build's verify gate, the CodeLens and the CLI. The commands append
 * their arguments to marks.txt, so each test sees exactly what ran.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Verifier, parseVerifyEntry, validatePlan, type VerifyEntry } from '../../src/core/index';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { TrustState } from '../../src/host/trust';
import { VerifyService } from '../../src/host/verify/verifyService';
import { makeTempWorkspace } from '../support/tempWorkspace';
import { planLenses } from '../../src/host/codelens/lenses';
import { sse } from '../support/scriptedServer';
import { planResponse, startHarness, type Harness } from '../support/sessionHarness';
import { NO_RETRIES, runCli, useCliScene } from '../cli/cliHarness';
import { NO_ONE, policyFor } from '../support/commandPolicy';

const MARK = "require('fs').appendFileSync('marks.txt', JSON.stringify(process.argv.slice(2)) + '\\n')";
const CHECK = 'open the page and confirm it shows the greeting';
const MIXED_CHECK = 'confirm the log shows one line';

const PLAN = `# Every verify form

## Summary

One step per form the validator accepts.

## Implementation Steps

1. Bare command -> files: [src/a.js] -> verify: node mark.js bare
2. After a cue word -> files: [src/b.js] -> verify: run node mark.js cue
3. Backticked in prose -> files: [src/c.js] -> verify: the \`node mark.js span\` check passes
4. Comma list with quotes -> files: [src/d.js] -> verify: [node mark.js "a,b", node mark.js 'c,d']
5. Observable check -> files: [src/e.js] -> verify: ${CHECK}
6. Mixed -> files: [src/f.js] -> verify: [node mark.js mixed, ${MIXED_CHECK}]

## Test Cases and Validation

- tests: \`node mark.js bare\`

## Assumptions and Defaults

- marks.txt records what ran
`;

const cmd = (text: string, command: string): VerifyEntry => ({ kind: 'command', text, command });
const EXPECTED: VerifyEntry[][] = [
  [cmd('node mark.js bare', 'node mark.js bare')],
  [cmd('run node mark.js cue', 'node mark.js cue')],
  [cmd('the `node mark.js span` check passes', 'node mark.js span')],
  [cmd('node mark.js "a,b"', 'node mark.js "a,b"'), cmd("node mark.js 'c,d'", "node mark.js 'c,d'")],
  [{ kind: 'check', text: CHECK }],
  [cmd('node mark.js mixed', 'node mark.js mixed'), { kind: 'check', text: MIXED_CHECK }],
];
/** What marks.txt holds once every command ran, in step order. */
const MARKS = ['["bare"]', '["cue"]', '["span"]', '["a,b"]', '["c,d"]', '["mixed"]'];

const FILES = { 'README.md': '# demo\n', 'mark.js': MARK };
const complete = (index: number) =>
  sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index, status: 'completed' } }]);
/** The plan file's lenses, with no results yet, its steps started by a build. */
const lensesOf = (markdown: string) =>
  planLenses({
    markdown,
    verdict: validatePlan(markdown),
    trusted: true,
    now: 0,
    resultOf: () => undefined,
    gateOpen: false,
    revisions: 1,
    stepStatus: () => 'in_progress',
  });
const marks = (root: string) =>
  existsSync(`${root}/marks.txt`) ? readFileSync(`${root}/marks.txt`, 'utf8').trim().split('\n') : [];

describe('the one verify model', () => {
  it('parses each form once, into the validated plan, commands exactly as written', () => {
    const v = validatePlan(PLAN);
    assert.equal(v.valid, true, JSON.stringify(v.errors));
    assert.deepEqual(
      v.summary.steps.map((s) => s.entries),
      EXPECTED,
    );
    // Quotes are never stripped, and prose around a backtick span is never run as shell.
    assert.deepEqual(parseVerifyEntry(`node -e "require('./src/format').formatJson([])"`), {
      kind: 'command',
      text: `node -e "require('./src/format').formatJson([])"`,
      command: `node -e "require('./src/format').formatJson([])"`,
    });
    assert.deepEqual(parseVerifyEntry('`npm test` passes'), {
      kind: 'command',
      text: '`npm test` passes',
      command: 'npm test',
    });
    assert.deepEqual(parseVerifyEntry('"npm test"'), { kind: 'command', text: '"npm test"', command: 'npm test' });
    assert.deepEqual(parseVerifyEntry('run npm test.'), {
      kind: 'command',
      text: 'run npm test.',
      command: 'npm test',
    });
    // An entry that starts with a command keeps its own backticks; prose around one does not run.
    assert.deepEqual(parseVerifyEntry('rg -n "`x`" README.md'), {
      kind: 'command',
      text: 'rg -n "`x`" README.md',
      command: 'rg -n "`x`" README.md',
    });
    assert.deepEqual(parseVerifyEntry('the log shows `npm test` passing'), {
      kind: 'command',
      text: 'the log shows `npm test` passing',
      command: 'npm test',
    });
    assert.equal(parseVerifyEntry('looks fine'), undefined);
  });

  it('the CodeLens offers each command as parsed, and "Mark checked" for each check', () => {
    const specs = lensesOf(PLAN).filter((l) => l.action.kind === 'runVerify' || l.action.kind === 'markChecked');
    assert.deepEqual(
      specs.map((l) => l.title),
      [
        '▶ node mark.js bare',
        '▶ node mark.js cue',
        '▶ node mark.js span',
        '▶ node mark.js "a,b"',
        "▶ node mark.js 'c,d'",
        `$(eye) Mark checked: ${CHECK}`,
        '▶ node mark.js mixed',
        `$(eye) Mark checked: ${MIXED_CHECK}`,
      ],
    );
    assert.deepEqual(
      specs.map((l) => ('entry' in l.action ? [l.action.step, l.action.entry] : [])),
      EXPECTED.flatMap((entries, i) => entries.map((e) => [String(i + 1), e.text])),
    );
  });

  it('each lens runs its command through the host verify service and the engine verifier, exactly as parsed', async () => {
    const ws = makeTempWorkspace(FILES);
    try {
      const planFile = ws.write('.vtcode/plans/forms.md', PLAN);
      const verifier = new Verifier({
        runner: new NodeCommandRunner(),
        cwd: () => ws.root,
        now: Date.now,
        policy: policyFor(ws.root),
      });
      const verify = new VerifyService({
        verifier,
        trust: new TrustState(true),
        read: async (f) => readFileSync(f, 'utf8'),
        parse: validatePlan,
        approver: NO_ONE,
      });
      const actions = lensesOf(PLAN).flatMap((l) => (l.action.kind === 'runVerify' ? [l.action] : []));
      for (const a of actions) assert.equal((await verify.run(planFile, a.step, a.entry)).status, 'passed');
      assert.deepEqual(marks(ws.root), MARKS);
      // The checks are the person's: a lens can only mark them.
      await assert.rejects(verify.run(planFile, '5', CHECK), /a check a person signs off/);
    } finally {
      ws.cleanup();
    }
  });

  describe('the build verify gate', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('runs every command as parsed; the person is asked for each check; an unsigned one stays awaiting', async () => {
      h = await startHarness(
        [sse.textTurn(planResponse(PLAN)), ...[1, 2, 3, 4, 5, 6].map(complete), sse.textTurn('All steps done.')],
        {
          files: FILES,
          approve: () => ({ decision: 'execute' }),
          // The verify commands write marks.txt: the person allow-listed them.
          config: { buildAllowList: ['node mark.js *'] },
          // The person confirms the page, but not the log line.
          signOffCheck: (_step, check) => check === CHECK,
        },
      );
      const stop = await h.session.start('every verify form');
      assert.equal(stop.kind, 'completed');
      assert.deepEqual(marks(h.ws.root), MARKS);
      assert.deepEqual(h.people.checks, [
        { step: '5', check: CHECK },
        { step: '6', check: MIXED_CHECK },
      ]);
      const items = h.eventsOf('tracker.updated').at(-1)!.items;
      assert.deepEqual(
        items.map((i) => [i.status, i.awaitingCheck]),
        [...Array(5).fill(['completed', false]), ['in_progress', true]],
      );
      assert.deepEqual(stop.kind === 'completed' ? stop.awaitingChecks : undefined, [
        { path: '6', description: 'Mixed', checks: [MIXED_CHECK] },
      ]);
      const ran = h.eventsOf('verify.recorded').filter((e) => e.status === 'passed');
      assert.deepEqual(
        ran.map((e) => e.command),
        EXPECTED.flat().flatMap((e) => (e.kind === 'command' ? [e.command] : [])),
      );
    });
  });

  describe('the CLI', () => {
    const { setup } = useCliScene();
    const script = () => [sse.textTurn(planResponse(PLAN)), ...[1, 2, 3, 4, 5, 6].map(complete), sse.textTurn('Done.')];
    /** The verify commands write marks.txt: `--approve execute` allows none of them, this flag does. */
    const ALLOW = ['--allow-command', 'node mark.js *'];

    it('--non-interactive runs every command, leaves check steps in progress and lists them', async () => {
      const s = await setup(script(), FILES);
      const r = await runCli(
        ['plan', '--non-interactive', '--approve', 'execute', ...ALLOW, ...s.args, 'every verify form'],
        {
          env: NO_RETRIES,
        },
      );
      // Steps left awaiting a check make the build incomplete: exit 1 (the execution report lists them).
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(marks(s.ws.root), MARKS);
      assert.match(r.stdout, / \(4\/6 completed, 66%\)\n/);
      assert.match(
        r.stdout,
        /Step 5 is in progress, awaiting your check: "open the page and confirm it shows the greeting"/,
      );
      assert.match(r.stdout, /Step 6 is in progress, awaiting your check: "confirm the log shows one line"/);
    });

    it('--json prints the engine counts and percent in tracker.updated, and the verify results', async () => {
      const s = await setup(script(), FILES);
      const r = await runCli(
        ['plan', '--json', '--non-interactive', '--approve', 'execute', ...ALLOW, ...s.args, 'every verify form'],
        {
          env: NO_RETRIES,
        },
      );
      // Steps left awaiting a check make the build incomplete: exit 1 (the execution report lists them).
      assert.equal(r.code, 1, r.stderr);
      const events = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; counts?: unknown; percent?: number; status?: string });
      const last = events.filter((e) => e.type === 'tracker.updated').at(-1)!;
      assert.deepEqual(last.counts, { done: 4, inProgress: 2, pending: 0, blocked: 0, total: 6 });
      assert.equal(last.percent, 66);
      assert.equal(events.filter((e) => e.type === 'verify.recorded' && e.status === 'passed').length, 6);
    });

    it('interactive asks the person for each check and completes the step on yes', async () => {
      const s = await setup(script(), FILES);
      const r = await runCli(
        ['plan', '--interactive', '--approve', 'execute', ...ALLOW, ...s.args, 'every verify form'],
        {
          env: NO_RETRIES,
          stdin: ['y', 'n'],
        },
      );
      // Steps left awaiting a check make the build incomplete: exit 1 (the execution report lists them).
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stdout, /\? Step 5 needs your check: open the page and confirm it shows the greeting/);
      assert.match(r.stdout, /\? Step 6 needs your check: confirm the log shows one line/);
      assert.match(r.stdout, / \(5\/6 completed, 83%\)\n/);
      assert.match(r.stdout, /Step 6 is in progress, awaiting your check/);
      assert.doesNotMatch(r.stdout, /Step 5 is in progress/);
    });
  });
});
