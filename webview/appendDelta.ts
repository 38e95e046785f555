/**
 * The host's commonest message, checked by hand: a delta whose ops all append streamed text.
 * While a model streams, the host may send one per token, and the schema's generic walk over
 * each was a noticeable part of every frame. This check accepts only messages that the protocol's
 * schema accepts and returns what the schema returns (unknown keys dropped); for anything else it
 * returns undefined and the schema decides. The webview's tests hold the two to the same result.
 */
import type { DeltaMessage } from '../src/protocol';

/** The schema's limit on an item id's length. */
const MAX_ID = 200;

type Op = DeltaMessage['ops'][number];

export function parseAppendDelta(raw: unknown): DeltaMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const msg = raw as Record<string, unknown>;
  const { seq, ops } = msg;
  if (msg.type !== 'delta' || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  if (!Array.isArray(ops) || ops.length === 0) return undefined;
  const out: Op[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op: unknown = ops[i];
    if (typeof op !== 'object' || op === null || Array.isArray(op)) return undefined;
    const { op: name, id, text } = op as Record<string, unknown>;
    if (name !== 'item.append' || typeof id !== 'string' || typeof text !== 'string') return undefined;
    if (id.length === 0 || id.length > MAX_ID) return undefined;
    out.push({ op: 'item.append', id, text });
  }
  return { type: 'delta', seq, ops: out };
}
