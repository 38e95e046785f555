import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import type { PlanItem } from '../../src/protocol';

const markdown = `# Rate limiting\n\n## Summary\n\nLimit the search API.\n\n## Implementation Steps\n\n1. Add the limiter -> files: [src/limit.ts, src/app.ts] -> verify: [npm test, confirm a 429 after 10 calls]\n`;
const plan: PlanItem = {
  id: 'p',
  kind: 'plan',
  markdown,
  file: '.vtcode/plans/2026-12-01-rate-limiting.md',
  revision: 1,
  valid: true,
  streaming: false,
  view: {
    title: 'Rate limiting',
    summary: 'Limit the search API.',
    steps: [
      {
        index: 1,
        title: 'Add the limiter',
        files: ['src/limit.ts', 'src/app.ts'],
        verify: [
          { kind: 'command', text: 'npm test', command: 'npm test' },
          { kind: 'check', text: 'confirm a 429 after 10 calls' },
        ],
      },
    ],
  },
};

describe('panel: the plan card', () => {
  it('shows each step as a title with file chips and a runnable verify pill, not the raw syntax', () => {
    const p = mountPanel();
    p.update([{ op: 'item.add', item: plan }]);
    const card = p.getByRole('article', { name: 'Plan' });
    assert.ok(p.getByText('Add the limiter'));
    assert.doesNotMatch(card.textContent!, /-> files:|-> verify:/);
    assert.deepEqual(
      [...card.querySelectorAll('.pw-chips .pw-file-link')].map((a) => a.textContent),
      ['src/limit.ts', 'src/app.ts'],
    );
    fireEvent.click(p.getByRole('button', { name: /npm test/ }));
    assert.deepEqual(p.sent('runVerify'), [
      { type: 'runVerify', planFile: '.vtcode/plans/2026-12-01-rate-limiting.md', itemPath: '1', entry: 'npm test' },
    ]);
    assert.ok(p.getByText('confirm a 429 after 10 calls'), 'a check is shown, not run');
    fireEvent.click(p.getByRole('button', { name: /The plan as written/ }));
    assert.match(card.textContent!, /-> files:/, 'the plan as written is one click away');
  });
});
