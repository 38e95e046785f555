/**
 * The per-turn tool preview budget (rules §7, seed "Research Scope").
 *
 * Previews the model sees share one budget per turn: 96 KiB while planning, 32 KiB in execution
 * (recovery shares the execution budget). While planning, a result without an explicit maximum
 * gets a smaller per-result preview (8 KiB) so a research fan-out fits; an explicit maximum and
 * verification commands keep the full per-result default.
 *
 * Once the budget is exhausted:
 * - results arrive as metadata stubs (a preview of 0 bytes; `metadataStub` writes the text);
 * - paged spool reads keep working on a small per-page credit, at most `spoolSequentialReads`
 *   of them in a row;
 * - new non-spool inspections are rejected at admission;
 * - verification commands, mutations, recovery, the interview, tracker bookkeeping and plan-draft
 *   re-reads (category `bookkeeping`) stay open. Interview, tracker and bookkeeping results are
 *   not workspace previews: they are never charged and never cut to a stub.
 */
import type { BudgetConfig, Mode } from '../budgets';
import { previewTurnBudget } from '../budgets';
import type { GuardCall, OutcomeCategory } from './types';

const UNLIMITED = Number.MAX_SAFE_INTEGER;

export function isSpoolRead(call: Pick<GuardCall, 'tool' | 'kind'>): boolean {
  return call.kind === 'spool' || call.tool === 'read_spool';
}

/** Results that are not previews of workspace content: never charged, never stubbed. */
function isUncharged(call: Pick<GuardCall, 'kind'>, category: OutcomeCategory): boolean {
  return call.kind === 'interview' || call.kind === 'tracker' || category === 'bookkeeping';
}

export function formatKiB(bytes: number): string {
  const k = bytes / 1024;
  return `${Number.isInteger(k) ? k : k.toFixed(1)} KiB`;
}

/** The tool result to give the model in place of a body once the preview budget is spent. */
export function metadataStub(tool: string, bytes: number, budgetBytes: number, details?: string): string {
  const extra = details !== undefined && details !== '' ? `; ${details}` : '';
  return (
    `[${tool} result not shown: ${bytes} bytes${extra}. This turn's ${formatKiB(budgetBytes)} tool preview ` +
    'budget is exhausted; read_spool pages, verification commands, the interview and tracker updates remain available.]'
  );
}

export type PreviewAdmission =
  { readonly ok: true } | { readonly ok: false; readonly stub: string; readonly reason: string };

export class PreviewBudget {
  private usedBytes = 0;
  private creditBytes = 0;
  private creditReads = 0;
  private spoolStreak = 0;

  constructor(
    private readonly cfg: BudgetConfig,
    private mode: Mode,
  ) {}

  /** The turn's budget in bytes (0 = unlimited). */
  get max(): number {
    return previewTurnBudget(this.cfg, this.mode);
  }

  get used(): number {
    return this.usedBytes;
  }

  get exhausted(): boolean {
    return this.max > 0 && this.usedBytes >= this.max;
  }

  /** Bytes shown on the spool page credit after exhaustion, and how many reads used it. */
  get credit(): { readonly bytes: number; readonly reads: number } {
    return { bytes: this.creditBytes, reads: this.creditReads };
  }

  admit(call: GuardCall, category: OutcomeCategory): PreviewAdmission {
    const spool = isSpoolRead(call);
    if (!spool) this.spoolStreak = 0;
    if (!this.exhausted) return { ok: true };
    if (spool) {
      const cap = this.cfg.spoolSequentialReads;
      if (cap > 0 && this.spoolStreak >= cap) {
        return {
          ok: false,
          reason: 'spool_read_cap',
          stub:
            `${call.tool} was not run: ${this.spoolStreak} spool pages in a row were already read on the per-page ` +
            `credit after this turn's ${formatKiB(this.max)} preview budget ran out (at most ${cap}). ` +
            'Work from the pages already read.',
        };
      }
      this.spoolStreak++;
      return { ok: true };
    }
    if (category === 'navigation') {
      return {
        ok: false,
        reason: 'preview_exhausted',
        stub:
          `${call.tool} was not run: this turn's ${formatKiB(this.max)} tool preview budget is exhausted, so a new ` +
          'inspection could not show anything. Work from the evidence already gathered; read_spool pages, ' +
          'verification commands, the interview and tracker updates remain available.',
      };
    }
    return { ok: true };
  }

  /** The most bytes a call's result may show now (uncharged); 0 means a metadata stub. */
  limitFor(call: GuardCall, category: OutcomeCategory, explicitMax?: number): number {
    const full = this.cfg.previewResultFullBytes > 0 ? this.cfg.previewResultFullBytes : UNLIMITED;
    if (isUncharged(call, category)) return full;
    if (this.exhausted) return isSpoolRead(call) ? this.cfg.spoolPageCreditBytes : 0;
    let perResult: number;
    if (explicitMax !== undefined && explicitMax >= 0) perResult = Math.min(explicitMax, full);
    else if (this.mode === 'plan' && category !== 'verification' && this.cfg.previewResultBytes > 0) {
      perResult = Math.min(this.cfg.previewResultBytes, full);
    } else perResult = full;
    const remaining = this.max > 0 ? this.max - this.usedBytes : UNLIMITED;
    return Math.max(0, Math.min(perResult, remaining));
  }

  /** Charges the preview of a `bytes`-long result and returns how many bytes of it to show. */
  charge(bytes: number, call: GuardCall, category: OutcomeCategory, explicitMax?: number): number {
    const wasExhausted = this.exhausted;
    const shown = Math.max(0, Math.min(bytes, this.limitFor(call, category, explicitMax)));
    if (isUncharged(call, category)) return shown;
    if (wasExhausted) {
      if (isSpoolRead(call)) {
        this.creditBytes += shown;
        this.creditReads++;
      }
      return shown;
    }
    this.usedBytes += shown;
    return shown;
  }

  reset(mode: Mode = this.mode): void {
    this.mode = mode;
    this.usedBytes = 0;
    this.creditBytes = 0;
    this.creditReads = 0;
    this.spoolStreak = 0;
  }
}
