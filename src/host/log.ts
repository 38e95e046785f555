/**
 * The host's log: VS Code's `LogOutputChannel` "Planwise" (or any sink with the same methods).
 * Every line passes `redact` first, so a key never reaches the output even when a library error
 * message quotes it.
 */

export interface LogSink {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const REDACTED = '[redacted]';

/** Shapes that are secrets whatever their source: OpenAI-style keys, bearer tokens, key assignments. */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{12,}/g,
  /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(api[_-]?key|authorization|x-api-key)(["']?\s*[:=]\s*["']?)[^\s"',;]{6,}/gi,
];

/** `text` with every known secret and every secret-shaped string replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4) out = out.split(s).join(REDACTED);
  }
  out = out.replace(SECRET_PATTERNS[0]!, REDACTED);
  out = out.replace(SECRET_PATTERNS[1]!, (_m, word: string) => `${word} ${REDACTED}`);
  out = out.replace(SECRET_PATTERNS[2]!, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  return out;
}

export class HostLog {
  constructor(
    private readonly sink: LogSink,
    /** The secrets known right now (the stored API key); read at every line. */
    private readonly secrets: () => readonly string[] = () => [],
  ) {}

  debug(message: string): void {
    this.sink.debug(this.clean(message));
  }

  info(message: string): void {
    this.sink.info(this.clean(message));
  }

  warn(message: string): void {
    this.sink.warn(this.clean(message));
  }

  error(message: string, err?: unknown): void {
    this.sink.error(this.clean(err === undefined ? message : `${message}: ${describeError(err)}`));
  }

  private clean(message: string): string {
    return redact(message, this.secrets());
  }
}

export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : JSON.stringify(err);
}
