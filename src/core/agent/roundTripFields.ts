/**
 * Collects the provider fields of one streamed response that must go back on the next request,
 * exactly as the provider sent them: per message `reasoning_content`, `reasoning` (streamed
 * strings, joined) and `reasoning_details` (streamed entries merged by `index`, text fields joined);
 * per tool call `extra_content` and any other object-valued field the delta carried that the
 * OpenAI shape does not define. Pure.
 */

type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Message-level fields sent back on the assistant message. */
export const MESSAGE_FIELDS = ['reasoning_content', 'reasoning'] as const;

/** Fields of a tool-call delta the OpenAI shape defines; every other object field is kept for the round trip. */
const KNOWN_CALL_FIELDS = new Set(['index', 'id', 'type', 'function']);

/** Text fields of a `reasoning_details` entry that stream in pieces. */
const DETAIL_TEXT_FIELDS = ['text', 'summary', 'data'] as const;

/** Objects merged key by key; anything else: the later value wins. */
export function deepMerge(a: unknown, b: unknown): unknown {
  if (!isRecord(a) || !isRecord(b)) return b;
  const out: Rec = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? deepMerge(out[k], v) : v;
  return out;
}

export class MessageFieldCollector {
  private readonly strings = new Map<string, string>();
  private readonly details: Rec[] = [];

  /** Reads one delta (or final message) object. */
  push(delta: Rec): void {
    for (const field of MESSAGE_FIELDS) {
      const v = delta[field];
      if (typeof v === 'string' && v !== '') this.strings.set(field, (this.strings.get(field) ?? '') + v);
    }
    if (Array.isArray(delta.reasoning_details)) {
      for (const d of delta.reasoning_details) if (isRecord(d)) this.mergeDetail(d);
    }
  }

  /** True when a message-level reasoning field was seen. */
  get any(): boolean {
    return this.strings.size > 0 || this.details.length > 0;
  }

  fields(): Rec | undefined {
    if (!this.any) return undefined;
    const out: Rec = {};
    for (const [k, v] of this.strings) out[k] = v;
    if (this.details.length > 0) out.reasoning_details = this.details.map((d) => ({ ...d }));
    return out;
  }

  private mergeDetail(d: Rec): void {
    const last = this.details[this.details.length - 1];
    const sameEntry =
      last !== undefined &&
      typeof d.index === 'number' &&
      last.index === d.index &&
      (d.type === undefined || d.type === last.type);
    if (!sameEntry) {
      this.details.push({ ...d });
      return;
    }
    for (const [k, v] of Object.entries(d)) {
      if ((DETAIL_TEXT_FIELDS as readonly string[]).includes(k) && typeof v === 'string') {
        last[k] = (typeof last[k] === 'string' ? (last[k] as string) : '') + v;
      } else if (v !== null && v !== undefined) {
        last[k] = v;
      }
    }
  }
}

/** Merges the unknown object fields of one tool-call fragment into `into`; returns it (or a new record). */
export function collectCallFields(fragment: Rec, into: Rec | undefined): Rec | undefined {
  let out = into;
  for (const [k, v] of Object.entries(fragment)) {
    if (KNOWN_CALL_FIELDS.has(k) || !isRecord(v)) continue;
    out ??= {};
    out[k] = k in out ? deepMerge(out[k], v) : v;
  }
  return out;
}
