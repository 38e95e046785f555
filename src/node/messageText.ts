/**
 * Small rules for the sentences Planwise shows people, shared by the VS Code host and the CLI: a
 * message built from another message (a provider's error, an engine failure) embeds it as a
 * clause, so the result never ends in "..", never nests parentheses and never says "Planwise:"
 * twice. `test/messages/style.test.ts` holds every surfaced message to these rules.
 */

/** Text another party wrote, made fit to sit inside a sentence of ours: trimmed, one line, no final full stop. */
export function clause(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.;,:]+$/, '');
}

/** A clause that goes inside parentheses of ours: its own parentheses are flattened, so none nest. */
export function parenthetical(text: string): string {
  return clause(flattenParens(clause(text)));
}

/** Text with one closing full stop (a sentence that already ends in `.`, `!` or `?` is left as it is). */
export function sentence(text: string): string {
  const t = text.replace(/\s+$/, '');
  if (t === '') return t;
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/**
 * Parentheses inside text that will be put in parentheses of ours become commas: `a (b) c` reads
 * `a, b c`. Unbalanced ones are dropped.
 */
export function flattenParens(text: string): string {
  let out = text;
  for (let i = 0; i < 5 && /\([^()]*\)/.test(out); i++) {
    out = out.replace(/\s*\(([^()]*)\)/g, (_m, inner: string) => (inner.trim() ? `, ${inner.trim()}` : ''));
  }
  return out
    .replace(/[()]/g, '')
    .replace(/,\s*,/g, ',')
    .replace(/,\s*([.;:])/g, '$1');
}

/** `Planwise: …` for a notification, unless the message already starts by naming Planwise. */
export function prefixed(message: string, prefix = 'Planwise'): string {
  const m = message.trim();
  return new RegExp(`^${prefix}\\b`, 'i').test(m) ? m : `${prefix}: ${m}`;
}
