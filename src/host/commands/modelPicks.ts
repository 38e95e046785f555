/**
 * Select Model's rows, free of VS Code: what the person typed, the endpoint's models and VS Code's
 * language models, each section under a separator. The models in use say so ("current: planning
 * and building"), and the planning model in use is the row the picker opens on.
 */
import type { LmModelInfo } from '../adapters/vscodeLmModelClient';
import type { PlanwiseSettings, ProviderKind } from '../config';

export interface ModelPickRow {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  /** The model a pick sets; absent on a separator. */
  readonly model?: string;
  /** Where the model comes from; picking it sets `planwise.provider`. */
  readonly provider?: ProviderKind;
  readonly separator?: true;
}

export interface ModelPickInput {
  /** What the person typed in the picker's box. */
  readonly typed: string;
  readonly endpoint: readonly string[];
  readonly lm: readonly LmModelInfo[];
}

type Current = Pick<PlanwiseSettings, 'provider' | 'baseUrl' | 'planningModel' | 'buildModel'>;

/** "current: planning and building", "current: building", or nothing for a model not in use. */
export function currentRole(s: Current, id: string, provider: ProviderKind): string | undefined {
  if (provider !== s.provider) return undefined;
  const plans = id === s.planningModel;
  const builds = s.buildModel === '' ? plans : id === s.buildModel;
  if (plans && builds) return 'current: planning and building';
  if (plans) return 'current: planning';
  if (builds) return 'current: building';
  return undefined;
}

/** The rows, and the one to make active: the planning model in use, when it is listed. */
export function modelPickRows(s: Current, input: ModelPickInput): { rows: ModelPickRow[]; active?: ModelPickRow } {
  const typed = input.typed.trim();
  const section = (label: string, rows: ModelPickRow[]): ModelPickRow[] =>
    rows.length ? [{ label, separator: true }, ...rows] : [];
  const endpoint = input.endpoint.map((id): ModelPickRow => {
    const role = currentRole(s, id, 'openai-compatible');
    return { label: id, ...(role ? { description: role } : {}), model: id, provider: 'openai-compatible' };
  });
  const lm = input.lm.map((m): ModelPickRow => {
    const role = currentRole(s, m.id, 'vscode-lm');
    return {
      label: m.name,
      description: [m.vendor, role].filter(Boolean).join(' · '),
      detail: `${m.id} · ${m.maxInputTokens} input tokens`,
      model: m.id,
      provider: 'vscode-lm',
    };
  });
  const rows = [
    ...(typed !== '' ? [{ label: typed, description: 'use this name', model: typed }] : []),
    ...section(`OpenAI-compatible: ${s.baseUrl}`, endpoint),
    ...section('VS Code language models (no key)', lm),
  ];
  const active = [...endpoint, ...lm].find((r) => r.provider === s.provider && r.model === s.planningModel);
  return active ? { rows, active } : { rows };
}
