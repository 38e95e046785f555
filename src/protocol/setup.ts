/**
 * The first-run setup card: where models come from. The presets are data both sides read (the
 * card prefills a base URL per choice; the host knows which need a key); the card's state is the
 * host's (`setup` in the view state); the key itself never crosses: the card asks the host to open
 * VS Code's password box and only learns whether a key is stored.
 */
import * as z from 'zod';

export const ProviderChoiceSchema = z.enum(['openai', 'ollama', 'lmstudio', 'openrouter', 'vscode-lm', 'other']);
export type ProviderChoice = z.infer<typeof ProviderChoiceSchema>;

export interface ProviderPreset {
  readonly choice: ProviderChoice;
  readonly label: string;
  /** `planwise.provider` for this choice. */
  readonly provider: 'openai-compatible' | 'vscode-lm';
  /** Prefilled base URL; empty for VS Code models and Other. */
  readonly baseUrl: string;
  /** A model that usually exists there, offered until the endpoint's list arrives. */
  readonly exampleModel: string;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    choice: 'openai',
    label: 'OpenAI',
    provider: 'openai-compatible',
    baseUrl: 'https://api.openai.com/v1',
    exampleModel: 'gpt-4.1',
  },
  {
    choice: 'ollama',
    label: 'Ollama',
    provider: 'openai-compatible',
    baseUrl: 'http://localhost:11434/v1',
    exampleModel: 'qwen2.5-coder:14b',
  },
  {
    choice: 'lmstudio',
    label: 'LM Studio',
    provider: 'openai-compatible',
    baseUrl: 'http://localhost:1234/v1',
    exampleModel: 'qwen2.5-coder-14b-instruct',
  },
  {
    choice: 'openrouter',
    label: 'OpenRouter',
    provider: 'openai-compatible',
    baseUrl: 'https://openrouter.ai/api/v1',
    exampleModel: 'anthropic/claude-sonnet-4',
  },
  { choice: 'vscode-lm', label: 'VS Code models', provider: 'vscode-lm', baseUrl: '', exampleModel: '' },
  { choice: 'other', label: 'Other', provider: 'openai-compatible', baseUrl: '', exampleModel: '' },
];

export function presetOf(choice: ProviderChoice): ProviderPreset {
  return PROVIDER_PRESETS.find((p) => p.choice === choice)!;
}

/** The draft the card is editing: what Test connection tries and Save writes. */
export const SetupDraftSchema = z.object({
  choice: ProviderChoiceSchema,
  baseUrl: z.string().max(2000),
  model: z.string().max(500),
});
export type SetupDraft = z.infer<typeof SetupDraftSchema>;

export const SetupStateSchema = z.object({
  /** Why the card shows: nothing works yet, or the person asked (header, Change provider, Settings). */
  reason: z.enum(['first-run', 'requested']),
  draft: SetupDraftSchema,
  /** The base URL as the host would use it, or why it cannot be used (checked on every edit). */
  url: z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), url: z.string(), completed: z.boolean() }),
    z.object({ ok: z.literal(false), error: z.string() }),
  ]),
  /** The endpoint is on this machine or a private network (it usually needs no key). */
  local: z.boolean(),
  hasKey: z.boolean(),
  /**
   * The card offers the key: for an endpoint off this machine, and for a local one that refused a
   * request for want of a key (HTTP 401/403: a local proxy) or already has one stored.
   */
  keyRow: z.boolean(),
  /** The endpoint's model list (Select Model), or why it could not be read. */
  models: z
    .object({ status: z.enum(['loading', 'ready', 'failed']), ids: z.array(z.string()), error: z.string().optional() })
    .nullable(),
  /** The last Test connection: one cheap request, and what happened. */
  test: z.object({ status: z.enum(['running', 'ok', 'failed']), text: z.string() }).nullable(),
});
export type SetupState = z.infer<typeof SetupStateSchema>;

/** What the header shows: the provider and model in use (clicking it opens the card). */
export const ProviderLabelSchema = z.object({ label: z.string(), model: z.string() });
export type ProviderLabel = z.infer<typeof ProviderLabelSchema>;

// ---- webview → host ---------------------------------------------------------------------------

/** An edit in the card: the host checks the URL, refreshes the model list when it changed. */
export const SetupEditMessageSchema = z.object({ type: z.literal('setupEdit'), draft: SetupDraftSchema });
export const SetupTestMessageSchema = z.object({ type: z.literal('setupTest'), draft: SetupDraftSchema });
/** Writes planwise.provider, planwise.baseUrl and planwise.planningModel, and closes the card. */
export const SetupSaveMessageSchema = z.object({ type: z.literal('setupSave'), draft: SetupDraftSchema });
export const SetupCloseMessageSchema = z.object({ type: z.literal('setupClose') });
