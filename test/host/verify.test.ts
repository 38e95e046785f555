import assert from 'node:assert/strict';
import { NodeCommandRunner } from '../../src/node/processRunner';
import { VerifyResults } from '../../src/host/codelens/verifyResults';
import { planLenses } from '../../src/host/codelens/lenses';
import { TrustGatedRunner, TrustState } from '../../src/host/trust';
import { VerifyService } from '../../src/host/verify/verifyService';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

const PLAN = `# Retry uploads

## Summary

Retry uploads on 503.

## Implementation Steps

1. Add the retry loop -> files: [src/upload.js] -> verify: [node ok.js, node fail.js]
2. Document it -> files: [README.md] -> verify: confirm the README shows the retry section

## Test Cases and Validation

- tests: \`node ok.js\`

## Assumptions and Defaults

- three attempts
`;

describe('verify runs from lenses and the panel', () => {
  let ws: TempWorkspace;
  let clock: number;
  beforeEach(() => {
    ws = makeTempWorkspace({
      'ok.js': 'console.log("all good")',
      'fail.js': 'console.error("1 failing"); process.exit(3)',
      '.vtcode/plans/retry.md': PLAN,
    });
    clock = 1_000;
  });
  afterEach(() => ws.cleanup());

  function service(trusted = true) {
    const trust = new TrustState(trusted);
    const results = new VerifyResults();
    const verify = new VerifyService({
      runner: new TrustGatedRunner(trust, new NodeCommandRunner()),
      trust,
      results,
      cwd: () => ws.root,
      now: () => (clock += 1000),
    });
    return { trust, results, verify };
  }

  it('runs a command in the workspace and records its exit code and output, showing it on the lens', async () => {
    const { results, verify } = service();
    const plan = ws.path('.vtcode/plans/retry.md');
    const states: string[] = [];
    results.onDidRecord((e) => states.push(e.record.running ? 'running' : `exit ${e.record.exitCode}`));
    const r = await verify.run(plan, 1, 'node fail.js');
    assert.equal(r.exitCode, 3);
    assert.deepEqual(states, ['running', 'exit 3']);
    const lenses = planLenses({
      markdown: PLAN,
      trusted: true,
      now: clock + 3000,
      resultOf: (step, command) => results.get(plan, step, command),
      gateOpen: false,
      revisions: 1,
    });
    assert.ok(lenses.some((l) => l.title === '▶ node fail.js  ✗ exit 3 · just now'));
    assert.ok(lenses.some((l) => l.title === '▶ node ok.js'));
  });

  it('runs every verify command of the plan and counts manual checks separately', async () => {
    const { results, verify } = service();
    const outputs: string[] = [];
    results.onDidRecord((e) => e.output !== undefined && outputs.push(e.output.trim()));
    const summary = await verify.runAll(ws.path('.vtcode/plans/retry.md'), PLAN);
    assert.deepEqual(summary, { passed: 1, failed: 1, manual: 1 });
    assert.deepEqual(outputs, ['all good', '1 failing']);
  });

  it('refuses in Restricted Mode with the explanation, and works once trust is granted', async () => {
    const { trust, verify } = service(false);
    const plan = ws.path('.vtcode/plans/retry.md');
    await assert.rejects(verify.run(plan, 1, 'node ok.js'), /Restricted Mode/);
    await assert.rejects(verify.runAll(plan, PLAN), /Restricted Mode/);
    trust.grant();
    assert.equal((await verify.run(plan, 1, 'node ok.js')).exitCode, 0);
  });
});
