import { mountPanel } from './panelHarness';
import assert from 'node:assert/strict';
import { fireEvent } from '@testing-library/preact';
import type { SetupState } from '../../src/protocol';

const base: SetupState = {
  reason: 'first-run',
  draft: { choice: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1' },
  url: { ok: true, url: 'https://api.openai.com/v1', completed: false },
  local: false,
  hasKey: false,
  keyRow: true,
  models: null,
  test: null,
};

describe('panel: setup card', () => {
  it('shows on first run instead of the key banner; the key row is there for every endpoint, optional on this machine', () => {
    const p = mountPanel({ state: { flags: { hasApiKey: false, keyRequired: true, trusted: true }, setup: base } });
    assert.ok(p.getByRole('heading', { name: /Choose where models come from/ }));
    assert.equal(p.queryByText(/No API key is set/), null, 'one prompt, not two');
    assert.ok(p.getByText('No key is stored.'));
    fireEvent.click(p.getByText('Set key…'));
    assert.deepEqual(p.sent('setApiKey'), [{ type: 'setApiKey' }]);
    assert.ok(p.getByText('API key'));
    // A loopback endpoint (a local proxy may need a key): the key is offered, as optional.
    p.update([
      { op: 'setup.set', setup: { ...base, local: true, keyRow: true, draft: { ...base.draft, choice: 'ollama' } } },
    ]);
    assert.ok(p.getByText('API key (optional)'));
    assert.ok(p.getByText(/No key is stored\. Most servers on this machine need none/));
    fireEvent.click(p.getByText('Set key…'));
    assert.equal(p.sent('setApiKey').length, 2);
    // VS Code's models take no key.
    p.update([{ op: 'setup.set', setup: { ...base, local: true, keyRow: false } }]);
    assert.equal(p.queryByText(/API key/), null);
  });

  it('says nothing is wrong with the URL until the person typed it or pressed Test connection or Save', () => {
    const empty: SetupState = {
      ...base,
      draft: { choice: 'other', baseUrl: '', model: '' },
      url: { ok: false, error: 'The base URL is empty; give the API root, such as http://localhost:11434/v1.' },
    };
    const p = mountPanel({ state: { setup: base } });
    const url = () => p.getByLabelText(/^Base URL/) as HTMLInputElement;
    fireEvent.change(p.getByRole('combobox', { name: 'Provider' }), { target: { value: 'other' } });
    p.update([{ op: 'setup.set', setup: empty }]);
    assert.equal(p.queryByText(/base URL is empty/), null, 'chosen, not typed: no error yet');
    assert.equal(url().getAttribute('aria-invalid'), 'false');
    assert.equal(p.container.querySelector('.pw-field-error'), null);
    assert.ok(p.getByText("Type the address of the server's API, such as http://localhost:11434/v1"));
    // Test connection with the field still empty: now it is wrong, and says why.
    fireEvent.click(p.getByTestId('setup-test'));
    assert.ok(p.getByText(/base URL is empty/));
    assert.equal(url().getAttribute('aria-invalid'), 'true');
    // Typing counts too (a fresh card).
    p.unmount();
    const q = mountPanel({ state: { setup: empty } });
    assert.equal(q.queryByText(/base URL is empty/), null);
    fireEvent.input(q.getByLabelText(/^Base URL/), { target: { value: 'ftp://x' } });
    q.update([
      {
        op: 'setup.set',
        setup: { ...empty, url: { ok: false, error: '"ftp://x" must start with http:// or https://.' } },
      },
    ]);
    assert.ok(q.getByText('"ftp://x" must start with http:// or https://.'));
    assert.ok(q.container.querySelector('.pw-field-error'));
  });

  it('posts each edit, Test connection and Save with the draft; shows the model list and the URL check', () => {
    const p = mountPanel({ state: { setup: base } });
    fireEvent.change(p.getByRole('combobox', { name: 'Provider' }), { target: { value: 'ollama' } });
    // A new provider prefills its URL and an example model, in the card itself.
    assert.deepEqual(p.sent('setupEdit').at(-1)!.draft, {
      choice: 'ollama',
      baseUrl: 'http://localhost:11434/v1',
      model: 'qwen2.5-coder:14b',
    });
    fireEvent.input(p.getByLabelText(/^Base URL/), { target: { value: 'localhost:11434' } });
    // The host's answer to the first edit comes after the typing: it must not put the old URL back.
    p.update([
      {
        op: 'setup.set',
        setup: {
          ...base,
          draft: { choice: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'qwen2.5-coder:14b' },
          url: { ok: true, url: 'http://localhost:11434/v1', completed: true },
          local: true,
          keyRow: false,
          models: { status: 'ready', ids: ['llama3.2', 'qwen2.5-coder:14b'] },
        },
      },
    ]);
    assert.ok(p.getByText('Will use http://localhost:11434/v1'));
    assert.equal((p.getByLabelText(/^Base URL/) as HTMLInputElement).value, 'localhost:11434', 'the typing was lost');
    assert.equal(p.container.querySelectorAll('datalist option').length, 2);
    assert.ok(p.getByText('2 models offered'));
    fireEvent.input(p.getByLabelText(/^Model/), { target: { value: 'qwen2.5-coder:14b' } });
    fireEvent.click(p.getByTestId('setup-test'));
    fireEvent.click(p.getByTestId('setup-save'));
    assert.equal(p.sent('setupTest').at(-1)!.draft.model, 'qwen2.5-coder:14b');
    assert.deepEqual(p.sent('setupSave').at(-1)!.draft, {
      choice: 'ollama',
      baseUrl: 'localhost:11434',
      model: 'qwen2.5-coder:14b',
    });
    p.update([{ op: 'setup.set', setup: null }]);
    assert.equal(p.queryByTestId('setup-card'), null);
  });

  it('the header shows the provider and model, and clicking it reopens the card', () => {
    const p = mountPanel({
      state: { flags: { hasApiKey: false, trusted: true, provider: { label: 'Ollama', model: 'qwen2.5-coder:14b' } } },
    });
    const button = p.getByRole('button', { name: /Provider: Ollama, model qwen2\.5-coder:14b/ });
    assert.equal(button.textContent, 'Ollama · qwen2.5-coder:14b');
    fireEvent.click(button);
    assert.deepEqual(p.sent('changeProvider'), [{ type: 'changeProvider' }]);
  });
});
