/**
 * The saved UI state is read by hand (readUiState) because it is read before the panel's first
 * paint, which does not load zod. Held here to the zod schema it replaced: on generated input the
 * two give the same state, field by field (a malformed field takes its default, the rest are kept).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as z from 'zod';
import { defaultUiState, readUiState, UiStateStore } from '../../webview/uiState';

/** The schema the panel used before its first paint stopped loading zod. */
const WizardSchema = z.object({
  requestId: z.string(),
  step: z.number().int().nonnegative(),
  choices: z.record(z.string(), z.string()),
  notes: z.record(z.string(), z.string()),
});
const UiStateSchema = z.object({
  expanded: z.record(z.string(), z.boolean()).catch({}),
  wizard: WizardSchema.nullable().catch(null),
  scrollTop: z.number().nonnegative().catch(0),
  follow: z.boolean().catch(true),
  draft: z.string().catch(''),
  page: z.string().catch(''),
});
const viaSchema = (saved: unknown) => {
  const r = UiStateSchema.safeParse(saved ?? {});
  return r.success ? r.data : defaultUiState();
};

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a', 'b', 'step', 'constructor'));
const number = fc.oneof(
  fc.integer({ min: -3, max: 1e6 }),
  fc.double(),
  fc.constantFrom(-0, 0.5, Number.NaN, Infinity, -Infinity, 2 ** 53, 2 ** 53 - 1),
);
const scalar = fc.oneof(fc.string({ maxLength: 8 }), number, fc.boolean(), fc.constant(null), fc.constant(undefined));
const recordOf = (value: fc.Arbitrary<unknown>) =>
  fc.oneof(fc.dictionary(key, value, { maxKeys: 4 }), fc.dictionary(key, fc.oneof(value, scalar), { maxKeys: 4 }));
const wizard = fc.oneof(
  fc.record(
    {
      requestId: fc.oneof(fc.string({ maxLength: 8 }), scalar),
      step: fc.oneof(fc.nat(20), number, scalar),
      choices: fc.oneof(recordOf(fc.string({ maxLength: 5 })), scalar, fc.array(fc.string())),
      notes: fc.oneof(recordOf(fc.string({ maxLength: 5 })), scalar),
      extra: scalar,
    },
    { requiredKeys: [] },
  ),
  scalar,
  fc.array(scalar, { maxLength: 2 }),
);
const saved = fc.oneof(
  fc.record(
    {
      expanded: fc.oneof(recordOf(fc.boolean()), scalar, fc.array(fc.boolean(), { maxLength: 2 })),
      wizard,
      scrollTop: fc.oneof(number, scalar),
      follow: fc.oneof(fc.boolean(), scalar),
      draft: fc.oneof(fc.string(), scalar),
      page: fc.oneof(fc.string({ maxLength: 8 }), scalar),
      unknown: scalar,
    },
    { requiredKeys: [] },
  ),
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.anything(),
);

describe('webview: the saved UI state', () => {
  it('reads what the zod schema read, on 3,000 generated states', () => {
    fc.assert(
      fc.property(saved, (s) => {
        assert.deepStrictEqual(readUiState(s), viaSchema(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps the draft when another field is malformed, and takes each default for what is missing', () => {
    const state = readUiState({ draft: 'half a task', scrollTop: -1, wizard: { requestId: 'q', step: 1.5 } });
    assert.deepEqual(state, { ...defaultUiState(), draft: 'half a task' });
    assert.deepEqual(readUiState(undefined), defaultUiState());
    assert.deepEqual(readUiState('not an object'), defaultUiState());
  });

  it('the store starts from it', () => {
    const store = new UiStateStore({ getState: () => ({ draft: 'kept', follow: false }), setState: () => {} });
    assert.equal(store.get().draft, 'kept');
    assert.equal(store.get().follow, false);
  });
});
