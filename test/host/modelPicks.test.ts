/** Select Model's rows: the sections, the typed name, and the model in use marked and made the active row. */
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../src/host/config';
import { currentRole, modelPickRows } from '../../src/host/commands/modelPicks';

const LM = [
  { id: 'copilot-gpt-4.1', name: 'GPT-4.1', vendor: 'copilot', family: 'gpt-4.1', maxInputTokens: 128000 },
  { id: 'copilot-o3', name: 'o3', vendor: 'copilot', family: 'o3', maxInputTokens: 200000 },
];
const ENDPOINT = ['a-model', 'b-model', 'c-model'];

describe('Select Model rows', () => {
  it('opens on the planning model in use, not the first row, and marks it as current', () => {
    const s = { ...DEFAULT_SETTINGS, planningModel: 'c-model', buildModel: '' };
    const { rows, active } = modelPickRows(s, { typed: '', endpoint: ENDPOINT, lm: LM });
    assert.deepEqual(
      rows.map((r) => r.label),
      [
        `OpenAI-compatible: ${s.baseUrl}`,
        'a-model',
        'b-model',
        'c-model',
        'VS Code language models (no key)',
        'GPT-4.1',
        'o3',
      ],
    );
    assert.ok(active, 'the model in use is listed: it is the active row');
    assert.equal(rows.indexOf(active), 3);
    assert.equal(active.model, 'c-model');
    assert.equal(active.description, 'current: planning and building');
    assert.deepEqual(
      rows.filter((r) => r.description?.includes('current')).map((r) => r.label),
      ['c-model'],
      'only the model in use says current',
    );
  });

  it('a separate build model is marked too; the same id at the other provider is not the current one', () => {
    const s = {
      ...DEFAULT_SETTINGS,
      provider: 'vscode-lm' as const,
      planningModel: 'copilot-o3',
      buildModel: 'copilot-gpt-4.1',
    };
    const { rows, active } = modelPickRows(s, { typed: '', endpoint: ['copilot-o3'], lm: LM });
    assert.equal(active?.label, 'o3');
    assert.equal(active?.provider, 'vscode-lm');
    assert.equal(active?.description, 'copilot · current: planning');
    assert.equal(rows.find((r) => r.label === 'GPT-4.1')?.description, 'copilot · current: building');
    assert.equal(rows.find((r) => r.provider === 'openai-compatible')?.description, undefined);
    assert.equal(currentRole(s, 'copilot-o3', 'openai-compatible'), undefined);
  });

  it('a model in use that no list offers has no active row; a typed name comes first', () => {
    const s = { ...DEFAULT_SETTINGS, planningModel: 'gone-model' };
    assert.equal(modelPickRows(s, { typed: '', endpoint: ENDPOINT, lm: [] }).active, undefined);
    const typed = modelPickRows(s, { typed: '  my-model ', endpoint: [], lm: [] });
    assert.deepEqual(typed.rows, [{ label: 'my-model', description: 'use this name', model: 'my-model' }]);
  });
});
