import assert from 'node:assert/strict';
import { diffPlans } from '../../src/core/plan/diff';
import { embedTrackerBlock } from '../../src/core/plan/trackerBlock';
import { buildPlan } from './planBuilder';

const plan = (steps: string[]) => buildPlan({ steps: steps.join('\n') });

describe('plan diff', () => {
  const before = plan([
    '1. Add retry loop -> files: [src/upload.ts] -> verify: [npm test]',
    '2. Log retries -> files: [src/log.ts] -> verify: [npm test]',
    '3. Document retries -> files: [README.md] -> verify: [npx prettier --check README.md]',
  ]);

  it('reports steps added, removed and changed', () => {
    const after = plan([
      '1. Add retry loop -> files: [src/upload.ts] -> verify: [npm test, npx tsc --noEmit]',
      '2. Document retries -> files: [README.md] -> verify: [npx prettier --check README.md]',
      '3. Add a retry metric -> files: [src/metrics.ts] -> verify: [npm test]',
    ]);
    const d = diffPlans(before, after);
    assert.deepEqual(
      d.added.map((s) => s.action),
      ['Add a retry metric'],
    );
    assert.deepEqual(
      d.removed.map((s) => s.action),
      ['Log retries'],
    );
    assert.deepEqual(
      d.changed.map((c) => [c.before.verify, c.after.verify]),
      [[['npm test'], ['npm test', 'npx tsc --noEmit']]],
    );
  });

  it('does not count renumbering as a change', () => {
    const after = plan([
      '1. Log retries -> files: [src/log.ts] -> verify: [npm test]',
      '2. Add retry loop -> files: [src/upload.ts] -> verify: [npm test]',
      '3. Document retries -> files: [README.md] -> verify: [npx prettier --check README.md]',
    ]);
    const d = diffPlans(before, after);
    assert.deepEqual([d.added, d.removed, d.changed], [[], [], []]);
    assert.notEqual(d.unified, '');
  });

  it('pairs a reworded action by its targets', () => {
    const after = plan([
      '1. Add a bounded retry loop -> files: [src/upload.ts] -> verify: [npm test]',
      '2. Log retries -> files: [src/log.ts] -> verify: [npm test]',
      '3. Document retries -> files: [README.md] -> verify: [npx prettier --check README.md]',
    ]);
    const d = diffPlans(before, after);
    assert.deepEqual(d.added, []);
    assert.deepEqual(d.removed, []);
    assert.deepEqual(
      d.changed.map((c) => [c.before.action, c.after.action]),
      [['Add retry loop', 'Add a bounded retry loop']],
    );
  });

  it('gives a unified diff of the markdown with the given file names', () => {
    const after = before.replace('Log retries', 'Log each retry');
    const d = diffPlans(before, after, { before: 'plan@1', after: 'plan@2' });
    assert.match(d.unified, /^--- plan@1\n\+\+\+ plan@2\n@@ -/);
    assert.match(d.unified, /^-2\. Log retries -> files/m);
    assert.match(d.unified, /^\+2\. Log each retry -> files/m);
  });

  it('is empty for equal plans and ignores tracker blocks', () => {
    const withTracker = embedTrackerBlock(before, '## Task tracker: x\n\n- [x] Add retry loop');
    const d = diffPlans(before, withTracker);
    assert.deepEqual(d, { added: [], removed: [], changed: [], unified: '' });
  });
});
