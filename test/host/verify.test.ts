import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Verifier, validatePlan, type Tracker, type VerifyRecord } from '../../src/core/index';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { planLenses } from '../../src/host/codelens/lenses';
import { TrustGatedRunner, TrustState } from '../../src/host/trust';
import { VerifyService, trackerHolds } from '../../src/host/verify/verifyService';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { NO_ONE, policyFor } from '../support/commandPolicy';

const QUOTED = `node -e "require('./src/format').formatJson([])"`;
const HUNG = `node -e "setInterval(() => {}, 1000)"`;

const PLAN = `# Retry uploads

## Summary

Retry uploads on 503.

## Implementation Steps

1. Add the retry loop -> files: [src/upload.js] -> verify: [node ok.js, node fail.js]
2. Document it -> files: [README.md] -> verify: confirm the README shows the retry section
3. Format JSON -> files: [src/format.js] -> verify: ${QUOTED}
4. Wait forever -> files: [src/hang.js] -> verify: ${HUNG}

## Test Cases and Validation

- tests: \`node ok.js\`

## Assumptions and Defaults

- three attempts
`;

describe('verify runs from lenses and the panel (the engine verifier)', () => {
  let ws: TempWorkspace;
  let clock: number;
  beforeEach(() => {
    ws = makeTempWorkspace({
      'ok.js': 'console.log("all good")',
      'fail.js': 'console.error("1 failing"); process.exit(3)',
      'src/format.js':
        'exports.formatJson = (v) => { require("fs").writeFileSync("formatted.txt", JSON.stringify(v)); };',
      '.vtcode/plans/retry.md': PLAN,
    });
    clock = 1_000;
  });
  afterEach(() => ws.cleanup());

  function service(trusted = true, timeoutMs?: number) {
    const trust = new TrustState(trusted);
    const verifier = new Verifier({
      runner: new TrustGatedRunner(trust, new NodeCommandRunner()),
      cwd: () => ws.root,
      now: () => (clock += 1000),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      policy: () => ({ ...policyFor(ws.root)(), trusted: trust.trusted }),
    });
    // Run All Verify asks for each command that needs a yes: this person says yes to each.
    const asked: string[] = [];
    const approver = { approveCommand: async (command: string) => (asked.push(command), true) };
    const verify = new VerifyService({
      verifier,
      trust,
      read: async (f) => readFileSync(f, 'utf8'),
      parse: validatePlan,
      approver,
    });
    const records: VerifyRecord[] = [];
    verifier.onRecorded((r) => records.push(r));
    return { trust, verifier, verify, records, asked };
  }

  const lensTitles = (verifier: Verifier, plan: string, now: number) =>
    planLenses({
      markdown: PLAN,
      verdict: validatePlan(PLAN),
      trusted: true,
      now,
      resultOf: (step, entry) => verifier.latest(plan, step, entry),
      gateOpen: false,
      revisions: 1,
      stepStatus: () => 'in_progress',
    }).map((l) => l.title);

  it('runs a command in the workspace and records its exit code and output, shown on the lens', async () => {
    const { verifier, verify, records } = service();
    const plan = ws.path('.vtcode/plans/retry.md');
    const r = await verify.run(plan, '1', 'node fail.js');
    assert.equal(r.exitCode, 3);
    assert.equal(r.status, 'failed');
    assert.match(r.output, /1 failing/);
    assert.deepEqual(
      records.map((x) => x.status),
      ['running', 'failed'],
    );
    const titles = lensTitles(verifier, plan, clock + 3000);
    assert.ok(titles.includes('▶ node fail.js  ✗ exit 3 · just now'), titles.join('\n'));
    assert.ok(titles.includes('▶ node ok.js'));
    // Minutes later the same result reads differently: the lens text is computed at each refresh.
    assert.ok(lensTitles(verifier, plan, clock + 180_000).includes('▶ node fail.js  ✗ exit 3 · 3 min ago'));
  });

  it(`runs ${QUOTED} exactly as written (no quote stripped) and reports it on the lens`, async () => {
    const { verifier, verify } = service();
    const plan = ws.path('.vtcode/plans/retry.md');
    const titles = lensTitles(verifier, plan, clock);
    assert.ok(titles.includes(`▶ ${QUOTED}`), titles.join('\n'));
    const r = await verify.run(plan, '3', QUOTED);
    assert.equal(r.status, 'passed', r.output);
    assert.equal(r.command, QUOTED);
    assert.equal(readFileSync(ws.path('formatted.txt'), 'utf8'), '[]');
    assert.ok(lensTitles(verifier, plan, clock).includes(`▶ ${QUOTED}  ✓ passed just now`));
  });

  it('a hung verify never blocks the next one, shows a Cancel lens, and is cancelled from it', async () => {
    const { verifier, verify } = service();
    const plan = ws.path('.vtcode/plans/retry.md');
    const hung = verify.run(plan, '4', HUNG);
    const next = await verify.run(plan, '1', 'node ok.js');
    assert.equal(next.status, 'passed', 'the next lens ran while the first still hangs');
    assert.equal(verifier.isRunning(plan, '4', HUNG), true);
    const specs = planLenses({
      markdown: PLAN,
      verdict: validatePlan(PLAN),
      trusted: true,
      now: clock,
      resultOf: (step, entry) => verifier.latest(plan, step, entry),
      gateOpen: false,
      revisions: 1,
    });
    const cancel = specs.find((l) => l.action.kind === 'cancelVerify');
    assert.deepEqual(cancel?.action, { kind: 'cancelVerify', step: '4', entry: HUNG });
    assert.equal(verify.cancel(plan, '4', HUNG), true);
    const r = await hung;
    assert.equal(r.status, 'cancelled');
    assert.equal(verifier.isRunning(plan, '4', HUNG), false);
    assert.ok(lensTitles(verifier, plan, clock).includes(`▶ ${HUNG}  ✗ cancelled · just now`));
  });

  it('stops a run at the one verify timeout and says so', async () => {
    const { verify } = service(true, 300);
    const r = await verify.run(ws.path('.vtcode/plans/retry.md'), '4', HUNG);
    assert.equal(r.status, 'timed_out');
    assert.match(r.output, /\(timed out after \d+ s\)/);
  });

  it('runs every command entry of the plan and counts checks separately', async () => {
    const { verify, records, asked } = service();
    const summary = await verify.runAll(ws.path('.vtcode/plans/retry.md'), AbortSignal.timeout(1500));
    // None of them is read-only or allow-listed: the one click asked for each, shown whole.
    assert.deepEqual(
      asked,
      ['node ok.js', 'node fail.js', QUOTED, HUNG].map((e) => e),
    );
    // step 4 hangs until the signal stops it: it counts as failed, and Run All ends.
    assert.deepEqual(summary, { passed: 2, failed: 2, manual: 1, notRun: 0 });
    const outputs = records.filter((r) => r.status !== 'running').map((r) => [r.entry, r.status]);
    assert.deepEqual(outputs, [
      ['node ok.js', 'passed'],
      ['node fail.js', 'failed'],
      [QUOTED, 'passed'],
      [HUNG, 'cancelled'],
    ]);
  });

  it('marks a check signed by the person, refuses entries the plan does not hold', async () => {
    const { verifier, verify } = service();
    const plan = ws.path('.vtcode/plans/retry.md');
    const check = 'confirm the README shows the retry section';
    assert.ok(lensTitles(verifier, plan, clock).includes(`$(eye) Mark checked: ${check}`));
    const r = await verify.markChecked(plan, '2', check);
    assert.equal(r.status, 'checked');
    assert.ok(lensTitles(verifier, plan, clock).includes(`$(pass) ${check}  ✓ checked just now`));
    await assert.rejects(verify.run(plan, '1', 'rm -rf /'), /no verify entry/);
    await assert.rejects(verify.markChecked(plan, '1', 'node ok.js'), /is a command/);
  });

  it("runs an entry only the session's tracker holds (a sub-item the build agent added), nothing else", async () => {
    const trust = new TrustState(true);
    const verifier = new Verifier({
      runner: new NodeCommandRunner(),
      cwd: () => ws.root,
      now: Date.now,
      policy: policyFor(ws.root),
    });
    // The plan's tracker on disk, as the workspace reads it: the build agent added sub-item 1.1.
    const tracker: Tracker = {
      title: 'T',
      items: [
        {
          description: 'Add the retry loop',
          status: 'in_progress',
          files: [],
          verify: [],
          children: [
            {
              description: 'Agent-added sub-item',
              status: 'pending',
              files: [],
              verify: ['node ok.js --sub'],
              children: [],
            },
          ],
        },
      ],
    };
    const verify = new VerifyService({
      verifier,
      trust,
      read: async (f) => readFileSync(f, 'utf8'),
      parse: validatePlan,
      trackerOf: async (file) => (file === ws.path('.vtcode/plans/retry.md') ? tracker : undefined),
      approver: NO_ONE,
    });
    const plan = ws.path('.vtcode/plans/retry.md');
    assert.equal((await verify.run(plan, '1.1', 'node ok.js --sub')).status, 'passed');
    await assert.rejects(verify.run(plan, '1.1', 'node fail.js --sub'), /no verify entry/);
    await assert.rejects(verify.run(ws.path('.vtcode/plans/other.md'), '1.1', 'node ok.js --sub'));
    assert.equal(trackerHolds(tracker, '1.2', 'node ok.js --sub'), false);
    assert.equal(trackerHolds(undefined, '1.1', 'node ok.js --sub'), false);
  });

  it('refuses in Restricted Mode with the explanation, and works once trust is granted', async () => {
    const { trust, verify } = service(false);
    const plan = ws.path('.vtcode/plans/retry.md');
    await assert.rejects(verify.run(plan, '1', 'node ok.js'), /Restricted Mode/);
    await assert.rejects(verify.runAll(plan), /Restricted Mode/);
    trust.grant();
    assert.equal((await verify.run(plan, '1', 'node ok.js')).exitCode, 0);
  });
});
