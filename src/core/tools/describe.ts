/**
 * How a tool call reads to a person: each tool's `describe(args)` builds one from the call's
 * arguments as the model sent them, and the dispatcher puts it in the call's event, so every host
 * shows the same words and none switches over tool names.
 */

/** A call in a person's words: `title` is what was done ("Searched src for `parse(`"), `subject` what it was done to. */
export interface CallDescription {
  readonly title: string;
  readonly subject: string;
}

const MAX_SUBJECT = 120;

/** One line, cut at `max` characters with an ellipsis. */
export function clipText(text: string, max = MAX_SUBJECT): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A string argument, or undefined. */
export function stringArg(args: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = args[key];
  return typeof v === 'string' ? v : undefined;
}

/** A workspace path as a person reads it: '.' or nothing is "the workspace". */
export function placeOf(path: string | undefined): string {
  const p = path?.trim();
  return p === undefined || p === '' || p === '.' || p === './' ? 'the workspace' : clipText(p);
}

/** Inline code for a command or pattern, with a backtick inside it kept readable. */
export function code(text: string): string {
  const t = clipText(text);
  return t.includes('`') ? `\`\` ${t} \`\`` : `\`${t}\``;
}

/** `n thing` or `n things`. */
export function count(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? '' : 's'}`;
}

/** What the dispatcher shows for a call to a tool that does not exist. */
export function unknownToolCall(name: string): CallDescription {
  return { title: `Asked for a tool that does not exist (${clipText(name, 60)})`, subject: clipText(name, 60) };
}
