/**
 * Reasoning a provider writes inline at the start of `content`: `<think>…</think>` (MiniMax,
 * Qwen and DeepSeek-R1 distills behind servers without a reasoning parser) or `<thought>…</thought>`
 * (Gemini's `include_thoughts` through its OpenAI-compatible endpoint). Fed the content deltas in
 * order, it splits them into reasoning and answer text. A tag split across chunks (`<thi` + `nk>`)
 * is held back until it is decided, like the plan parser does with `<proposed_plan>`. Only a tag
 * at the very start of the content (after whitespace) opens reasoning; a later `<think>` is text.
 */

const TAGS = ['<think>', '<thought>'] as const;

export interface SplitPiece {
  readonly text: string;
  readonly reasoning: string;
}

type State = 'start' | 'inside' | 'afterClose' | 'text';

/** The longest suffix of `s` that is a proper prefix of `tag` (a tag that may still be arriving). */
function partialSuffix(s: string, tag: string): number {
  for (let n = Math.min(s.length, tag.length - 1); n > 0; n--) {
    if (tag.startsWith(s.slice(s.length - n))) return n;
  }
  return 0;
}

export class InlineReasoningSplitter {
  private state: State = 'start';
  private held = '';
  private close = '';

  /** True once the content opened with a reasoning tag. */
  get sawTag(): boolean {
    return this.close !== '';
  }

  push(delta: string): SplitPiece {
    if (delta === '') return { text: '', reasoning: '' };
    const buf = this.held + delta;
    this.held = '';
    return this.consume(buf);
  }

  /** Flushes what was held back: an undecided prefix is text, an unclosed block is reasoning. */
  end(): SplitPiece {
    const held = this.held;
    this.held = '';
    if (this.state === 'inside') return { text: '', reasoning: held };
    if (this.state === 'afterClose') return { text: '', reasoning: '' };
    this.state = 'text';
    return { text: held, reasoning: '' };
  }

  private consume(buf: string): SplitPiece {
    switch (this.state) {
      case 'text':
        return { text: buf, reasoning: '' };
      case 'start': {
        const trimmed = buf.trimStart();
        if (trimmed === '') {
          this.held = buf;
          return { text: '', reasoning: '' };
        }
        const tag = TAGS.find((t) => trimmed.startsWith(t));
        if (tag) {
          this.state = 'inside';
          this.close = `</${tag.slice(1)}`;
          return this.consume(trimmed.slice(tag.length));
        }
        if (TAGS.some((t) => t.startsWith(trimmed))) {
          this.held = buf; // `<thi`: wait for the rest
          return { text: '', reasoning: '' };
        }
        this.state = 'text';
        return { text: buf, reasoning: '' };
      }
      case 'inside': {
        const at = buf.indexOf(this.close);
        if (at >= 0) {
          this.state = 'afterClose';
          const rest = this.consume(buf.slice(at + this.close.length));
          return { text: rest.text, reasoning: buf.slice(0, at) + rest.reasoning };
        }
        const keep = partialSuffix(buf, this.close);
        this.held = buf.slice(buf.length - keep);
        return { text: '', reasoning: buf.slice(0, buf.length - keep) };
      }
      case 'afterClose': {
        // The blank line between the closing tag and the answer is not part of the answer.
        const text = buf.trimStart();
        if (text === '') return { text: '', reasoning: '' };
        this.state = 'text';
        return { text, reasoning: '' };
      }
    }
  }
}

/** Splits a whole content string at once (a final message, a non-streamed completion). */
export function splitInlineReasoning(content: string): SplitPiece {
  const s = new InlineReasoningSplitter();
  const a = s.push(content);
  const b = s.end();
  return { text: a.text + b.text, reasoning: a.reasoning + b.reasoning };
}
