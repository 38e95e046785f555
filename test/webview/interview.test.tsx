import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import { interview } from './scenes';

function open(savedUi?: unknown) {
  const p = mountPanel(savedUi === undefined ? {} : { savedUi });
  p.update([
    { op: 'item.add', item: { id: 'a', kind: 'assistant', text: 'The plan so far is readable.', streaming: false } },
    { op: 'interview.set', interview },
  ]);
  return p;
}

const radios = (p: ReturnType<typeof open>) => p.getAllByRole('radio');
const checked = (p: ReturnType<typeof open>) =>
  radios(p)
    .filter((r) => r.getAttribute('aria-checked') === 'true')
    .map((r) => r.textContent);

describe('panel: interview wizard', () => {
  it('shows one question at a time with progress, inline beside the transcript', () => {
    const p = open();
    const region = p.getByRole('region', { name: 'Planwise has a question' });
    assert.ok(region.textContent!.includes('1/2'));
    assert.ok(p.getByRole('radiogroup', { name: 'Where should request counts live?' }));
    assert.equal(radios(p).length, 3);
    assert.equal(p.queryByText('Which routes get the limit?'), null);
    assert.ok(p.getByText('The plan so far is readable.'), 'the transcript stays rendered');
    assert.equal(p.container.querySelector('[aria-modal="true"], dialog'), null, 'not a modal');
  });

  it('marks the recommended option and focuses it first without choosing it', () => {
    const p = open();
    const redis = radios(p)[0]!;
    assert.match(redis.textContent!, /Redis\s*Recommended/);
    assert.equal(document.activeElement, redis);
    assert.equal(redis.getAttribute('tabindex'), '0');
    assert.deepEqual(checked(p), []);
    assert.match(redis.getAttribute('aria-describedby') ?? '', /.+/);
  });

  it('moves with the arrow keys, chooses with Enter and walks to Submit', async () => {
    const p = open();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    assert.equal(document.activeElement, radios(p)[1]);
    assert.deepEqual(checked(p), ['In memoryPer process; simplest, resets on restart.']);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    assert.equal(document.activeElement, radios(p)[2], 'wraps around');
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    // Question 2 of 2
    assert.ok(p.getByRole('region', { name: 'Planwise has a question' }).textContent!.includes('2/2'));
    assert.ok(p.getByRole('radiogroup', { name: 'Which routes get the limit?' }));
    assert.equal(document.activeElement, radios(p)[0], 'focus moves to the new question');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    await new Promise((r) => setTimeout(r, 100)); // the toolkit enables its inner button on the next frame
    assert.equal(document.activeElement?.textContent, 'Submit', 'Enter on the last question moves to Submit');
    assert.equal(p.sent('interviewResponse').length, 0, 'nothing sent before Submit');
    fireEvent.click(document.activeElement!);
    assert.deepEqual(p.sent('interviewResponse'), [
      {
        type: 'interviewResponse',
        requestId: 'ask-1',
        outcome: {
          kind: 'answered',
          answers: [
            { questionId: 'store', choice: 'Redis' },
            { questionId: 'scope', choice: 'Only /api/search' },
          ],
        },
      },
    ]);
    assert.ok(p.getByText('Sent. Waiting for Planwise…'));
  });

  it('goes Back keeping the choice, and sends an optional note', () => {
    const p = open();
    fireEvent.click(radios(p)[1]!);
    const note = p.getByLabelText('Note (optional)');
    fireEvent.input(note, { target: { value: '  single instance for now ' } });
    fireEvent.click(p.getByText('Next'));
    assert.equal(p.queryByLabelText('Note (optional)'), null, 'question 2 allows no note');
    fireEvent.click(p.getByText('Back'));
    assert.deepEqual(checked(p), ['In memoryPer process; simplest, resets on restart.']);
    assert.equal((p.getByLabelText('Note (optional)') as HTMLTextAreaElement).value, '  single instance for now ');
    fireEvent.click(p.getByText('Next'));
    fireEvent.click(radios(p)[0]!);
    fireEvent.click(p.getByText('Submit'));
    const [msg] = p.sent('interviewResponse');
    assert.deepEqual(msg?.outcome, {
      kind: 'answered',
      answers: [
        { questionId: 'store', choice: 'In memory', note: 'single instance for now' },
        { questionId: 'scope', choice: 'All public routes' },
      ],
    });
  });

  it('keeps Next and Submit disabled until a choice is made', () => {
    const p = open();
    const next = p.getByText('Next');
    assert.equal(next.getAttribute('aria-disabled'), 'true');
    fireEvent.click(next);
    assert.ok(p.getByText('Where should request counts live?'), 'still on question 1');
  });

  it('cancels with Esc and tells the host', () => {
    const p = open();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    assert.deepEqual(p.sent('interviewResponse'), [
      { type: 'interviewResponse', requestId: 'ask-1', outcome: { kind: 'cancelled' } },
    ]);
    fireEvent.keyDown(radios(p)[0]!, { key: 'Escape' });
    assert.equal(p.sent('interviewResponse').length, 1, 'answered once');
  });

  it('remembers the step and choices across a reload of the view', () => {
    const p = open();
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    const saved = p.savedUi();
    p.unmount();
    const again = open(saved);
    assert.ok(again.getByRole('radiogroup', { name: 'Which routes get the limit?' }));
    fireEvent.click(again.getByText('Back'));
    assert.match(checked(again)[0] ?? '', /^Redis/);
  });

  it('disappears when the host clears it and hands focus to the composer', () => {
    const p = open();
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    p.update([{ op: 'interview.set', interview: null }]);
    assert.equal(p.queryByRole('region', { name: 'Planwise has a question' }), null);
    assert.equal(document.activeElement, p.getByLabelText('Message Planwise'));
  });
});
