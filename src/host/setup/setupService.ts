/**
 * The setup card's behaviour, free of VS Code: it opens on first run (no working provider) or on
 * request, checks the base URL on every edit, fills the model picker from the endpoint's list,
 * runs Test connection (one `GET /models`, the cheapest request an OpenAI-compatible server
 * answers) and writes the settings on Save. The key stays in secret storage: the card only learns
 * whether one is stored. On first run nothing is requested until the person acts (a choice, an
 * edit, Test connection, a key): the defaults nobody chose are not tried, so they cannot fail.
 */
import type { ProviderChoice, ProviderLabel, SetupDraft, SetupState } from '../../protocol';
import { presetOf, PROVIDER_PRESETS } from '../../protocol/presets';
import { isPrivateHost, readEndpointUrl } from '../../node/endpointUrl';
import { clause } from '../../node/messageText';
import type { PlanwiseSettings } from '../config';

export interface SetupDeps {
  settings(): PlanwiseSettings;
  update(key: 'provider' | 'baseUrl' | 'planningModel' | 'buildModel', value: string): Promise<void>;
  hasKey(): boolean;
  apiKey(): Promise<string | undefined>;
  listModels(baseUrl: string, apiKey: string | undefined): Promise<{ ids: string[] }>;
  /** VS Code's language models (vscode.lm), for the "VS Code models" choice. */
  lmModels(): Promise<{ id: string }[]>;
  /** Shows the card's state (null: closed). */
  show(state: SetupState | null): void;
}

/** The choice the settings describe: a preset whose URL they use, else Other. */
export function choiceOf(s: Pick<PlanwiseSettings, 'provider' | 'baseUrl'>): ProviderChoice {
  if (s.provider === 'vscode-lm') return 'vscode-lm';
  return PROVIDER_PRESETS.find((p) => p.baseUrl !== '' && p.baseUrl === s.baseUrl)?.choice ?? 'other';
}

/** "Ollama · qwen2.5-coder:14b" for the header. */
export function providerLabel(s: PlanwiseSettings): ProviderLabel {
  const choice = choiceOf(s);
  const label = choice === 'other' ? (safeHost(s.baseUrl) ?? 'Custom endpoint') : presetOf(choice).label;
  return { label, model: s.planningModel };
}

function safeHost(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** No working provider is configured: an unusable URL, or an endpoint that needs a key and has none. */
export function setupNeeded(s: PlanwiseSettings, hasKey: boolean): boolean {
  if (s.provider === 'vscode-lm') return false;
  const read = readEndpointUrl(s.baseUrl);
  return !read.ok || (!hasKey && !isPrivateHost(new URL(read.url).hostname));
}

export class SetupService {
  private current: SetupState | null = null;
  private listedFor: string | undefined;
  private generation = 0;
  /** The person did something in the card (or asked for it): the model list may be read. */
  private acted = false;

  constructor(private readonly deps: SetupDeps) {}

  get state(): SetupState | null {
    return this.current;
  }

  /** Opens the card with the settings as they are (or keeps an open one). */
  open(reason: SetupState['reason']): void {
    if (this.current) {
      this.set({ ...this.current, reason: this.current.reason === 'first-run' ? 'first-run' : reason });
      if (reason === 'requested') this.act();
      return;
    }
    const s = this.deps.settings();
    const draft: SetupDraft = {
      choice: choiceOf(s),
      baseUrl: s.provider === 'vscode-lm' ? '' : s.baseUrl,
      model: s.planningModel,
    };
    this.listedFor = undefined;
    this.acted = reason === 'requested';
    this.set({ reason, ...this.derive(draft), models: null, test: null });
    void this.refreshModels();
  }

  close(): void {
    this.current = null;
    this.generation++;
    this.deps.show(null);
  }

  /** The key changed (Set API Key from the card): the card says so. */
  keyChanged(): void {
    if (this.current) {
      this.acted = true;
      this.set({ ...this.current, hasKey: this.deps.hasKey() });
      void this.refreshModels(true);
    }
  }

  edit(draft: SetupDraft): void {
    if (!this.current) return;
    this.acted = true;
    const before = this.current.draft;
    // A new choice prefills its URL (and an example model until the list arrives).
    if (draft.choice !== before.choice) {
      const preset = presetOf(draft.choice);
      draft = { choice: draft.choice, baseUrl: preset.baseUrl, model: preset.exampleModel };
    }
    this.set({ ...this.current, ...this.derive(draft), test: null });
    void this.refreshModels();
  }

  async test(draft: SetupDraft): Promise<void> {
    if (!this.current) return;
    this.act();
    this.set({ ...this.current, ...this.derive(draft), test: { status: 'running', text: 'Testing the connection…' } });
    const gen = this.generation;
    const text = await this.tryConnection(this.current.draft);
    if (gen !== this.generation || !this.current) return;
    this.set({ ...this.current, test: text });
  }

  /** Writes the settings; false (and the card says why) when the draft cannot be used. */
  async save(draft: SetupDraft): Promise<boolean> {
    if (!this.current) return false;
    this.acted = true;
    const derived = this.derive(draft);
    const preset = presetOf(draft.choice);
    const problem =
      preset.provider !== 'vscode-lm' && !derived.url.ok
        ? derived.url.error
        : draft.model.trim() === ''
          ? 'Choose a model, or type its name.'
          : undefined;
    if (problem) {
      this.set({ ...this.current, ...derived, test: { status: 'failed', text: problem } });
      return false;
    }
    await this.deps.update('provider', preset.provider);
    if (preset.provider !== 'vscode-lm' && derived.url.ok) await this.deps.update('baseUrl', derived.url.url);
    await this.deps.update('planningModel', draft.model.trim());
    this.close();
    return true;
  }

  private derive(draft: SetupDraft): Pick<SetupState, 'draft' | 'url' | 'local' | 'hasKey' | 'keyRow'> {
    const lm = presetOf(draft.choice).provider === 'vscode-lm';
    const read = lm ? { ok: true as const, url: '', completed: false } : readEndpointUrl(draft.baseUrl);
    const url = read.ok
      ? { ok: true as const, url: read.url, completed: read.completed }
      : { ok: false as const, error: read.error };
    const local = lm || (read.ok && isPrivateHost(new URL(read.url).hostname));
    // Every endpoint may take a key: one off this machine needs it, one on it (a local proxy, a
    // server started with a key) may ask for it.
    return { draft, url, local, hasKey: this.deps.hasKey(), keyRow: !lm };
  }

  /** The key to send: always off this machine; to a local endpoint only when one is stored. */
  private async keyFor(local: boolean): Promise<string | undefined> {
    return local && !this.deps.hasKey() ? undefined : this.deps.apiKey();
  }

  /** The person acted: from now on the card reads the endpoint's model list. */
  private act(): void {
    if (this.acted) return;
    this.acted = true;
    void this.refreshModels();
  }

  private set(state: SetupState): void {
    this.current = state;
    this.deps.show(state);
  }

  /** The model picker's list for the draft's endpoint; read again only when the endpoint changed. */
  private async refreshModels(force = false): Promise<void> {
    const c = this.current;
    if (!c || !this.acted) return;
    const lm = presetOf(c.draft.choice).provider === 'vscode-lm';
    const target = lm ? 'vscode-lm' : c.url.ok ? c.url.url : undefined;
    if (target === undefined || (!force && target === this.listedFor)) return;
    this.listedFor = target;
    const gen = ++this.generation;
    this.set({ ...c, models: { status: 'loading', ids: [] } });
    let models: SetupState['models'];
    try {
      const ids = lm
        ? (await this.deps.lmModels()).map((m) => m.id)
        : (await this.deps.listModels(target, await this.keyFor(c.local))).ids;
      models = { status: 'ready', ids };
    } catch (err) {
      models = { status: 'failed', ids: [], error: err instanceof Error ? err.message : String(err) };
    }
    if (gen !== this.generation || !this.current) return;
    this.set({ ...this.current, models });
  }

  private async tryConnection(draft: SetupDraft): Promise<NonNullable<SetupState['test']>> {
    const lm = presetOf(draft.choice).provider === 'vscode-lm';
    try {
      if (lm) {
        const ids = (await this.deps.lmModels()).map((m) => m.id);
        if (ids.length === 0) {
          return {
            status: 'failed',
            text: 'VS Code offers no language models. Sign in to GitHub Copilot, or install an extension that provides models.',
          };
        }
        return {
          status: 'ok',
          text: `VS Code offers ${ids.length} model${ids.length > 1 ? 's' : ''}.${this.modelNote(draft.model, ids)}`,
        };
      }
      const read = readEndpointUrl(draft.baseUrl);
      if (!read.ok) return { status: 'failed', text: read.error };
      const local = isPrivateHost(new URL(read.url).hostname);
      const { ids } = await this.deps.listModels(read.url, await this.keyFor(local));
      return {
        status: 'ok',
        text: `Connected to ${read.url}: it offers ${ids.length} model${ids.length === 1 ? '' : 's'}.${this.modelNote(draft.model, ids)}`,
      };
    } catch (err) {
      return { status: 'failed', text: `${clause(err instanceof Error ? err.message : String(err))}.` };
    }
  }

  private modelNote(model: string, ids: readonly string[]): string {
    const m = model.trim();
    if (m === '' || ids.length === 0) return '';
    return ids.includes(m) ? ` ${m} is one of them.` : ` ${m} is not among them; pick one from the list.`;
  }
}
