/**
 * The one reducer both sides share: the host applies the ops it sends to its own copy (so a
 * snapshot is always exactly what the webview would have built), and the webview applies them
 * to its store. Pure: the input state is never mutated; unchanged parts keep their identity so a
 * renderer can skip them.
 */
import type { DeltaOp } from './hostMessages';
import type { ItemPatch, TranscriptItem, ViewState } from './viewState';

const PATCHABLE: Record<TranscriptItem['kind'], readonly (keyof ItemPatch)[]> = {
  user: ['text'],
  assistant: ['text', 'streaming'],
  thinking: ['text', 'streaming'],
  tool_call: ['title', 'subject', 'argsSummary', 'verdict', 'outcome', 'bytes', 'preview', 'change'],
  tool_result: ['ok', 'bytes', 'preview'],
  plan: ['markdown', 'file', 'revision', 'valid', 'streaming', 'view'],
  notice: ['text', 'level', 'actions'],
  build_report: [],
  instructions: [],
};

/** Index of the item with `id`, searching from the end (streaming items are nearly always last). */
function indexOfItem(items: readonly TranscriptItem[], id: string): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.id === id) return i;
  return -1;
}

function appendText(item: TranscriptItem, text: string): TranscriptItem {
  switch (item.kind) {
    case 'plan':
      return { ...item, markdown: item.markdown + text };
    case 'user':
    case 'assistant':
    case 'thinking':
    case 'notice':
      return { ...item, text: item.text + text };
    default:
      return item;
  }
}

function patchItem(item: TranscriptItem, patch: ItemPatch): TranscriptItem {
  const next: Record<string, unknown> = { ...item };
  let changed = false;
  for (const key of PATCHABLE[item.kind]) {
    if (patch[key] !== undefined) {
      next[key] = patch[key];
      changed = true;
    }
  }
  return changed ? (next as TranscriptItem) : item;
}

/**
 * Applies `ops` in order. Ops naming an unknown item are skipped (the state stays valid; a
 * snapshot later repairs any drift). Returns the same object when nothing changed.
 */
export function applyOps(state: ViewState, ops: readonly DeltaOp[]): ViewState {
  let next = state;
  let transcript = state.transcript;
  let transcriptCopied = false;
  const writable = (): TranscriptItem[] => {
    if (!transcriptCopied) {
      transcript = transcript.slice();
      transcriptCopied = true;
    }
    return transcript as TranscriptItem[];
  };
  const set = <K extends keyof ViewState>(key: K, value: ViewState[K]) => {
    if (next[key] === value) return;
    if (next === state) next = { ...state };
    next[key] = value;
  };

  for (const op of ops) {
    switch (op.op) {
      case 'item.add': {
        const at = indexOfItem(transcript, op.item.id);
        if (at >= 0) writable()[at] = op.item;
        else writable().push(op.item);
        break;
      }
      case 'item.append': {
        const at = indexOfItem(transcript, op.id);
        if (at >= 0 && op.text !== '') writable()[at] = appendText(transcript[at]!, op.text);
        break;
      }
      case 'item.patch': {
        const at = indexOfItem(transcript, op.id);
        if (at < 0) break;
        const patched = patchItem(transcript[at]!, op.patch);
        if (patched !== transcript[at]) writable()[at] = patched;
        break;
      }
      case 'transcript.restart': {
        const keep = new Set(op.keep);
        const kept = transcript.filter((item) => keep.has(item.id));
        if (kept.length !== transcript.length) {
          transcript = kept;
          transcriptCopied = true;
        }
        break;
      }
      case 'tracker.set':
        set('tracker', op.tracker);
        break;
      case 'budget.set':
        set('budget', op.budget);
        break;
      case 'gate.set':
        set('gate', op.gate);
        break;
      case 'interview.set':
        set('interview', op.interview);
        break;
      case 'enterPlanning.set':
        set('enterPlanning', op.prompt);
        break;
      case 'grantMore.set':
        set('grantMore', op.prompt);
        break;
      case 'lifecycle.set':
        set('lifecycle', op.lifecycle);
        break;
      case 'handoff.set':
        set('handoff', op.handoff);
        break;
      case 'notices.set':
        set('notices', op.notices);
        break;
      case 'flags.set':
        set('flags', op.flags);
        break;
      case 'setup.set':
        set('setup', op.setup);
        break;
    }
  }
  if (transcript !== state.transcript) set('transcript', transcript);
  return next;
}

/**
 * Merges runs of `item.append` to the same item into one op, so a frame's worth of streamed
 * tokens costs one string concatenation and one re-render.
 */
export function coalesceOps(ops: readonly DeltaOp[]): DeltaOp[] {
  const out: DeltaOp[] = [];
  for (const op of ops) {
    const last = out[out.length - 1];
    if (op.op === 'item.append' && last?.op === 'item.append' && last.id === op.id) {
      out[out.length - 1] = { op: 'item.append', id: op.id, text: last.text + op.text };
    } else {
      out.push(op);
    }
  }
  return out;
}
