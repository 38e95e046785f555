/**
 * Keeps secrets out of everything the CLI prints: each configured secret (the API key) is
 * replaced by `***` wherever it appears, e.g. in a provider's error message that quotes it.
 */

export type Redactor = (text: string) => string;

/** Secrets shorter than this are not searched for (they would mangle ordinary words). */
const MIN_SECRET_LENGTH = 6;

export function makeRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const list = secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH);
  if (list.length === 0) return (text) => text;
  return (text) => list.reduce((t, secret) => t.split(secret).join('***'), text);
}
