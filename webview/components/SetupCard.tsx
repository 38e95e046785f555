/**
 * The setup card: where models come from. Choosing a provider prefills its base URL; the URL is
 * checked by the host on every edit (a URL without a scheme is completed, anything else says what
 * to type); the model picker lists the endpoint's models with free text as the fallback; the key
 * row shows for every endpoint (`keyRow`: optional on this machine, where most servers need none),
 * and the key is typed into VS Code's password box (secret storage), never here. A problem with the
 * URL shows once the person typed it or pressed Test connection or Save: a field nobody touched
 * yet is not wrong.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { PROVIDER_PRESETS, presetOf } from '../../src/protocol/presets';
import type { SetupDraft, SetupState } from '../../src/protocol';
import { usePanel } from '../context';
import { Button } from '../ui/Button';
import { Icon } from '../ui/Icon';

export function SetupCard({ setup }: { setup: SetupState }) {
  const { post } = usePanel();
  // The draft is the person's: it starts from the host's and is changed only here (a new provider
  // prefills its URL and an example model from the presets). The host hears each edit (it checks
  // the URL and lists the models) but its answers never write the fields back: an answer to an
  // older edit arriving after more typing would put the old text back and lose what was typed.
  const [draft, setDraft] = useState<SetupDraft>(setup.draft);
  // The person typed in the URL field (since the last provider choice), or pressed Test or Save.
  const [urlTouched, setUrlTouched] = useState(false);
  const [tried, setTried] = useState(false);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus({ preventScroll: true }), []);
  const edit = (patch: Partial<SetupDraft>) => {
    const preset = patch.choice !== undefined && patch.choice !== draft.choice ? presetOf(patch.choice) : undefined;
    const next = preset
      ? { choice: preset.choice, baseUrl: preset.baseUrl, model: preset.exampleModel }
      : { ...draft, ...patch };
    if (preset) setUrlTouched(false);
    setDraft(next);
    post({ type: 'setupEdit', draft: next });
  };
  const lm = draft.choice === 'vscode-lm';
  const urlError = !setup.url.ok && (urlTouched || tried) ? setup.url.error : undefined;
  const urlNote = setup.url.ok
    ? setup.url.completed
      ? `Will use ${setup.url.url}`
      : ''
    : (urlError ??
      (draft.baseUrl.trim() === '' ? "Type the address of the server's API, such as http://localhost:11434/v1" : ''));
  const models = setup.models;
  const listId = 'pw-setup-models';
  return (
    <section class="pw-setup" aria-labelledby="pw-setup-title" data-testid="setup-card">
      <h2 id="pw-setup-title" class="pw-setup-title">
        <Icon name="settings-gear" /> {setup.reason === 'first-run' ? 'Choose where models come from' : 'Provider'}
      </h2>
      {setup.reason === 'first-run' ? (
        <p class="pw-setup-lead">No working provider is set up yet. A local server such as Ollama needs no key.</p>
      ) : null}
      <label class="pw-field">
        <span>Provider</span>
        <select
          ref={first}
          value={draft.choice}
          onChange={(e) => edit({ choice: (e.currentTarget as HTMLSelectElement).value as SetupDraft['choice'] })}
        >
          {PROVIDER_PRESETS.map((p) => (
            <option value={p.choice}>{p.label}</option>
          ))}
        </select>
      </label>
      {lm ? null : (
        <label class="pw-field">
          <span>Base URL</span>
          <input
            type="text"
            spellcheck={false}
            placeholder="http://localhost:11434/v1"
            value={draft.baseUrl}
            aria-invalid={urlError !== undefined}
            aria-describedby="pw-setup-url-note"
            onInput={(e) => {
              setUrlTouched(true);
              edit({ baseUrl: (e.currentTarget as HTMLInputElement).value });
            }}
          />
          <span id="pw-setup-url-note" class={`pw-field-note${urlError !== undefined ? ' pw-field-error' : ''}`}>
            {urlNote}
          </span>
        </label>
      )}
      <label class="pw-field">
        <span>Model</span>
        <input
          type="text"
          list={listId}
          spellcheck={false}
          placeholder={models?.status === 'loading' ? 'Reading the model list…' : 'Pick from the list or type a name'}
          value={draft.model}
          onInput={(e) => edit({ model: (e.currentTarget as HTMLInputElement).value })}
        />
        <datalist id={listId}>
          {(models?.ids ?? []).map((id) => (
            <option value={id} />
          ))}
        </datalist>
        <span class="pw-field-note">
          {models?.status === 'ready'
            ? `${models.ids.length} model${models.ids.length === 1 ? '' : 's'} offered`
            : models?.status === 'failed'
              ? `The model list could not be read: ${models.error ?? 'unknown error'} Type the name instead.`
              : ''}
        </span>
      </label>
      {!setup.keyRow ? null : (
        <div class="pw-field pw-key-row">
          <span>{setup.local ? 'API key (optional)' : 'API key'}</span>
          <span class="pw-field-note">
            {setup.hasKey
              ? 'A key is stored in secret storage.'
              : setup.local
                ? 'No key is stored. Most servers on this machine need none; set one if yours asks for it.'
                : 'No key is stored.'}
          </span>
          <Button appearance="secondary" onClick={() => post({ type: 'setApiKey' })}>
            {setup.hasKey ? 'Change key…' : 'Set key…'}
          </Button>
        </div>
      )}
      {setup.test ? (
        <p class={`pw-setup-test pw-test-${setup.test.status}`} role="status">
          <Icon name={setup.test.status === 'ok' ? 'check' : setup.test.status === 'failed' ? 'error' : 'loading'} />{' '}
          {setup.test.text}
        </p>
      ) : null}
      <div class="pw-setup-actions">
        <Button
          appearance="primary"
          testId="setup-save"
          onClick={() => {
            setTried(true);
            post({ type: 'setupSave', draft });
          }}
        >
          Save
        </Button>
        <Button
          appearance="secondary"
          testId="setup-test"
          onClick={() => {
            setTried(true);
            post({ type: 'setupTest', draft });
          }}
        >
          Test connection
        </Button>
        <Button appearance="secondary" onClick={() => post({ type: 'setupClose' })}>
          Close
        </Button>
      </div>
    </section>
  );
}
