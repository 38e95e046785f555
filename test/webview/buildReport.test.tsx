import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent, within } from '@testing-library/preact';
import { parseHostMessage } from '../../src/protocol';
import { reportScene } from './reportScene';
import { XSS_CORPUS } from './xssCorpus';

describe("panel: the build's final card", () => {
  it('passes the protocol: the host delta with the card parses as a host message', () => {
    const { ops } = reportScene();
    const parsed = parseHostMessage({ type: 'delta', seq: 2, ops });
    assert.equal(parsed.ok, true, parsed.ok ? '' : parsed.error);
  });

  it("shows the outcome first, then the engine's figures, the steps and the files in and out of scope", () => {
    const { ops } = reportScene();
    const p = mountPanel();
    p.update(ops);
    const card = p.getByTestId('build-report');
    const c = within(card);
    // Outcome first: the heading's words, before anything else in the card.
    const head = card.querySelector('.pw-report-head')!;
    assert.equal(card.firstElementChild, head);
    assert.match(head.textContent!, /^Build done, incompleteRate limiting$/);
    assert.equal(card.getAttribute('aria-label'), 'Build done, incomplete: Rate limiting');
    const facts = [...card.querySelectorAll('.pw-report-facts > div')].map((d) => d.textContent);
    assert.deepEqual(facts, [
      'Steps1 of 3 done',
      'Verify1 passed · 1 failed · 1 not run (of 3)',
      'Files4 files changed: 3 in the plan, 1 outside it',
    ]);
    assert.match(
      c.getByRole('note').textContent!,
      /Awaiting your check: step 3: “confirm the README shows the limits”/,
    );
    // Steps open (the build is incomplete): the failed verify and the step left in progress.
    const steps = [...card.querySelectorAll('.pw-report-step')].map((s) => s.textContent);
    assert.match(steps[1]!, /2\. Wire it inverify node -e "process\.exit\(1\)" failed \(exit 1\).*failed \(exit 1\)/);
    assert.match(steps[2]!, /3\. Document it.*awaiting the person's check/);
    // Files open (one is outside the plan): who allowed it and the command that wrote it.
    const out = c.getByTestId('report-out-of-scope');
    assert.equal(out.textContent, 'outside the plan: allowed by person (this file)');
    assert.match(out.closest('li')!.textContent!, /scripts\/gen\.sh\+12 −0outside the plan.*via sh scripts\/make\.sh/);
    assert.equal(card.querySelectorAll('.pw-report-file').length, 4);
    assert.match(
      card.querySelector('.pw-report-untouched')!.textContent!,
      /Planned but never touched: docs\/limits\.md/,
    );
  });

  it('Revert Build and Revert to step N send the intent for this session; Open report opens the file', () => {
    const { ops } = reportScene();
    const p = mountPanel();
    p.update(ops);
    fireEvent.click(p.getByTestId('report-revert'));
    fireEvent.click(p.getByTestId('report-revert-step-1'));
    assert.deepEqual(p.sent('revertBuild'), [
      { type: 'revertBuild', sessionId: 'sbuild1' },
      { type: 'revertBuild', sessionId: 'sbuild1', toStep: '1' },
    ]);
    assert.equal(
      p.queryByTestId('report-revert-step-2'),
      null,
      'a step that never completed has no checkpoint, no button',
    );
    fireEvent.click(p.getByText('Open report'));
    assert.deepEqual(p.sent('openFile'), [
      { type: 'openFile', path: '.vtcode/plans/2026-12-01-rate-limiting.report.md' },
    ]);
  });

  it('is announced when it arrives', () => {
    const { ops } = reportScene();
    const p = mountPanel();
    p.update(ops);
    assert.match(p.getByTestId('announcer').textContent ?? '', /Build done: 1 of 3 steps done\./);
  });

  for (const [name, payload] of Object.entries(XSS_CORPUS)) {
    it(`renders hostile text as text: ${name}`, () => {
      const { ops } = reportScene(payload);
      const p = mountPanel();
      p.update(ops);
      const card = p.getByTestId('build-report');
      for (const sel of ['script', 'img', 'iframe', 'object', 'embed', 'svg', 'form', 'style', 'meta', 'base', 'math'])
        assert.equal(card.querySelector(sel), null, `no <${sel}> in the card`);
      for (const el of card.querySelectorAll('*')) {
        for (const attr of el.getAttributeNames()) assert.doesNotMatch(attr, /^on/, `no ${attr} handler`);
        const href = el.getAttribute('href');
        if (href !== null) assert.match(href, /^(#|https?:)/, `href ${href}`);
      }
      assert.ok(card.textContent!.includes('onerror') || !payload.includes('onerror'), 'the markup shows as text');
    });
  }
});
