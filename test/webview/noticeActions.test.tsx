import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';

describe('panel: a failed request', () => {
  it('shows the error once under the message, with Retry and Change provider, and nothing busy', () => {
    const p = mountPanel();
    p.update([
      { op: 'lifecycle.set', lifecycle: { state: 'planning', mode: 'plan', busy: true } },
      { op: 'item.add', item: { id: 'u', kind: 'user', text: 'add a greeting helper' } },
    ]);
    p.update([
      {
        op: 'item.add',
        item: {
          id: 'e1',
          kind: 'notice',
          level: 'error',
          text: 'Cannot reach the model at http://localhost:11434/v1: connection refused. Check that the server is running.',
          actions: ['retry', 'changeProvider'],
        },
      },
      { op: 'lifecycle.set', lifecycle: { state: 'planning', mode: 'plan', busy: false } },
    ]);
    // One error on screen, said once: by the polite live region, not by a live role of its own.
    const errors = p.container.querySelectorAll('.pw-notice.pw-level-error');
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.textContent!, /connection refused/);
    assert.equal(p.queryAllByRole('alert').length, 0);
    assert.match(p.getByTestId('announcer').textContent!, /^Error: Cannot reach the model/);
    assert.ok(p.getByText('add a greeting helper'), 'the message stays in the transcript');
    assert.equal(p.container.querySelector('.pw-header .pw-ring'), null, 'no spinner');
    fireEvent.click(p.getByTestId('notice-retry'));
    fireEvent.click(p.getByTestId('notice-change-provider'));
    assert.deepEqual(p.sent('retry'), [{ type: 'retry', noticeId: 'e1' }]);
    assert.deepEqual(p.sent('changeProvider'), [{ type: 'changeProvider' }]);
    p.update([{ op: 'item.patch', id: 'e1', patch: { actions: [] } }]);
    assert.equal(p.queryByTestId('notice-retry'), null, 'a used Retry is gone');
    assert.equal(p.getByRole('textbox', { name: 'Message Planwise' }).hasAttribute('disabled'), false);
  });

  it('a refused key offers Set API Key first; it asks the host for the key, and Retry stays', () => {
    const p = mountPanel();
    p.update([
      {
        op: 'item.add',
        item: {
          id: 'e1',
          kind: 'notice',
          level: 'error',
          text: 'The model endpoint http://127.0.0.1:4000/v1 requires an API key and none is set (401: no key).',
          actions: ['setApiKey', 'retry', 'changeProvider'],
        },
      },
    ]);
    const buttons = [...p.container.querySelectorAll('.pw-notice-actions [data-testid]')];
    assert.deepEqual(
      buttons.map((b) => b.getAttribute('data-testid')),
      ['notice-set-key', 'notice-retry', 'notice-change-provider'],
    );
    const look = (b: Element) => (b as Element & { appearance?: string }).appearance ?? b.getAttribute('appearance');
    assert.deepEqual(buttons.map(look), ['primary', 'secondary', 'secondary'], 'Set API Key is the primary button');
    fireEvent.click(p.getByTestId('notice-set-key'));
    assert.deepEqual(p.sent('setApiKey'), [{ type: 'setApiKey' }]);
    assert.deepEqual(p.sent('retry'), []);
  });
});
