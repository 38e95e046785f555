/**
 * Recognises the composer's mode commands. The host interprets every message; the panel only
 * needs to know which ones switch modes, so it can drop them with a notice while a turn runs.
 */
export type ModeCommand = 'plan' | 'plan_off';

export function modeCommandOf(text: string): ModeCommand | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (t === '/plan' || t === '/plan on') return 'plan';
  if (t === '/plan off') return 'plan_off';
  return undefined;
}
