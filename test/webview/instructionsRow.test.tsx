import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import { EventTranslator } from '../../src/host/panel/translate';
import type { ThreadEvent } from '../../src/core/index';

describe('panel: the instruction files an agent was given', () => {
  it('names each file with its size, opens it on click, and says when the bound cut one', () => {
    const translator = new EventTranslator({ relativePath: (p) => p });
    const event: ThreadEvent = {
      type: 'instructions.loaded',
      seq: 4,
      at: 0,
      turn_id: 't1',
      agent: 'plan',
      reason: 'start',
      files: [
        { path: 'AGENTS.md', bytes: 2048, shownBytes: 2048, scope: 'workspace' },
        { path: 'CLAUDE.md', bytes: 30_000, shownBytes: 14_336, scope: 'workspace' },
      ],
      truncated: true,
      max_bytes: 16_384,
    };
    const p = mountPanel();
    p.update(translator.translate(event));
    const row = p.container.querySelector('.pw-instructions')!;
    assert.match(row.textContent!, /Instructions for planning: AGENTS\.md 2\.0 KB · CLAUDE\.md 14\.0 KB of 29\.3 KB/);
    assert.match(row.textContent!, /cut at 16\.0 KB/);
    const links = [...row.querySelectorAll('a')];
    assert.deepEqual(
      links.map((a) => a.getAttribute('data-file')),
      ['AGENTS.md', 'CLAUDE.md'],
    );
    fireEvent.click(links[1]!);
    assert.deepEqual(p.sent('openFile'), [{ type: 'openFile', path: 'CLAUDE.md' }]);
  });
});
