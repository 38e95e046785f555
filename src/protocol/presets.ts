/**
 * Where models come from: the setup card's choices and what each prefills. Data both sides read
 * (the card prefills a base URL per choice; the host knows which need a key), in a module of its
 * own so the host can read it without building the protocol's schemas (src/protocol/setup.ts).
 */

export const PROVIDER_CHOICES = ['openai', 'ollama', 'lmstudio', 'openrouter', 'vscode-lm', 'other'] as const;
export type ProviderChoice = (typeof PROVIDER_CHOICES)[number];

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
