/**
 * ANSI styling for the terminal transcript. Colours are used only when stdout is a TTY and
 * `NO_COLOR` is unset (or empty), so piped output and logs stay plain text.
 */

export interface Style {
  readonly enabled: boolean;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) =>
  text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`;

const PLAIN: Style = {
  enabled: false,
  dim: (t) => t,
  bold: (t) => t,
  red: (t) => t,
  green: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
};

const ANSI: Style = {
  enabled: true,
  dim: wrap(2, 22),
  bold: wrap(1, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
};

/** Whether to colour output written to `stream` (https://no-color.org). */
export function colorEnabled(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>>): boolean {
  return stream.isTTY === true && (env['NO_COLOR'] === undefined || env['NO_COLOR'] === '');
}

export function makeStyle(enabled: boolean): Style {
  return enabled ? ANSI : PLAIN;
}
