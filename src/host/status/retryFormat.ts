/** The retry countdown as text (pure): `$(watch) Planwise: retrying in 1:58` and its tooltip. */

/** `1:58`, `0:03`. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function countdownText(
  remainingMs: number,
  attempt: number,
  maxAttempts: number,
  reason: string,
): { text: string; tooltip: string } {
  return {
    text: `$(watch) Planwise: retrying in ${clock(remainingMs)}`,
    tooltip: `Planwise retries the model request in ${clock(remainingMs)} (attempt ${attempt} of ${maxAttempts}): ${reason}. Click to stop.`,
  };
}

/** The panel notice while the wait runs: `Retrying in 1:58 (attempt 2 of 4): … Stop cancels the wait.` */
export function noticeCountdownText(remainingMs: number, attempt: number, maxAttempts: number, reason: string): string {
  return `Retrying in ${clock(remainingMs)} (attempt ${attempt} of ${maxAttempts}): ${reason}. Stop cancels the wait.`;
}

/** The panel notice once the wait is over. */
export function noticeRetriedText(waitMs: number, attempt: number, maxAttempts: number, reason: string): string {
  return `Waited ${clock(waitMs)} and sent the request again (attempt ${attempt} of ${maxAttempts}): ${reason}.`;
}
