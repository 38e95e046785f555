import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseHostMessage } from '../../src/protocol';
import { parseAppendDelta } from '../../webview/appendDelta';

const id = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.string({ minLength: 195, maxLength: 205 }),
  fc.constant(''),
);
const appendOp = fc.record(
  { op: fc.constant('item.append'), id, text: fc.string(), extra: fc.anything() },
  { requiredKeys: ['op', 'id', 'text'] },
);
/** Ops the shortcut must leave to the schema, and near misses of an append. */
const otherOp = fc.oneof(
  fc.record({ op: fc.constant('item.patch'), id, patch: fc.record({ streaming: fc.boolean() }) }),
  fc.record({ op: fc.constant('item.append'), id: fc.oneof(fc.integer(), fc.constant(null)), text: fc.string() }),
  fc.record({ op: fc.constant('item.append'), id, text: fc.oneof(fc.integer(), fc.constant(undefined)) }),
  fc.record({ op: fc.constant('item.append'), id }),
  fc.constant(null),
  fc.constant([]),
  fc.anything(),
);
const seq = fc.oneof(
  fc.nat(),
  fc.integer({ min: -5, max: -1 }),
  fc.double(),
  fc.constant(2 ** 53),
  fc.constant(-0),
  fc.string(),
);
const delta = fc.record(
  {
    type: fc.oneof(fc.constant('delta'), fc.constant('snapshot'), fc.string()),
    seq,
    ops: fc.oneof(fc.array(appendOp, { maxLength: 4 }), fc.array(fc.oneof(appendOp, otherOp), { maxLength: 4 })),
    note: fc.anything(),
  },
  { requiredKeys: ['type', 'seq', 'ops'] },
);

describe('webview: append-delta shortcut', () => {
  it('accepts only what the protocol schema accepts, and returns what it returns', () => {
    fc.assert(
      fc.property(fc.oneof(delta, fc.anything()), (raw) => {
        const fast = parseAppendDelta(raw);
        if (fast === undefined) return;
        const slow = parseHostMessage(raw);
        assert.ok(slow.ok, `the shortcut accepted a message the schema rejects: ${JSON.stringify(raw)}`);
        assert.deepEqual(fast, slow.msg);
      }),
      { numRuns: 3000 },
    );
  });

  it('takes every well-formed delta of appends', () => {
    const wellFormed = fc.record({
      type: fc.constant('delta'),
      seq: fc.nat(),
      ops: fc.array(
        fc.record({
          op: fc.constant('item.append'),
          id: fc.string({ minLength: 1, maxLength: 200 }),
          text: fc.string(),
        }),
        { minLength: 1, maxLength: 5 },
      ),
    });
    fc.assert(
      fc.property(wellFormed, (raw) => {
        assert.deepEqual(parseAppendDelta(raw), JSON.parse(JSON.stringify(raw)));
      }),
    );
  });

  it('agrees with the schema at the edges of what an append may be', () => {
    const cases: unknown[] = [];
    for (const idLength of [0, 1, 200, 201])
      for (const seq of [-1, 0, 1.5, 2 ** 53 - 1, 2 ** 53])
        cases.push({ type: 'delta', seq, ops: [{ op: 'item.append', id: 'x'.repeat(idLength), text: 't' }] });
    for (const raw of cases) {
      const slow = parseHostMessage(raw);
      const fast = parseAppendDelta(raw);
      if (slow.ok) assert.deepEqual(fast, slow.msg, JSON.stringify(raw).slice(0, 80));
      else assert.equal(fast, undefined, JSON.stringify(raw).slice(0, 80));
    }
  });

  it('leaves other deltas and snapshots to the schema', () => {
    assert.equal(parseAppendDelta({ type: 'delta', seq: 3, ops: [] }), undefined);
    assert.equal(
      parseAppendDelta({ type: 'delta', seq: 3, ops: [{ op: 'item.patch', id: 'a', patch: { streaming: false } }] }),
      undefined,
    );
    assert.equal(parseAppendDelta({ type: 'snapshot', seq: 3, state: {} }), undefined);
  });
});
