/**
 * Turn and session budgets (rules §7). Pure data: the defaults, and the effective configuration
 * for a mode after the planning floors are applied. The guards in `guards/` enforce them.
 *
 * Convention: a limit of 0 means unlimited (or, for a guard threshold, that the guard is off).
 */

export type Mode = 'plan' | 'build' | 'recovery';

export interface BudgetConfig {
  /** Consecutive blocked calls allowed per turn; the total fuse is a multiple of it (see `blockedFuse`). */
  blockedCap: number;
  /** Tool calls per turn. While planning, a nonzero value below 120 is raised to 120. */
  toolCallsPerTurn: number;
  /** Model round trips with tools per turn. While planning, a nonzero value below 60 is raised to 60. */
  loopsPerTurn: number;
  /** Tool calls per session; reaching it asks the person for more. */
  sessionToolCalls: number;
  /** Bytes of tool previews the model may see per turn. Recovery uses the build budget. */
  previewTurnBytes: { plan: number; build: number };
  /** Per-result preview while planning when the call gives no explicit maximum (~8 KiB). */
  previewResultBytes: number;
  /** The full per-result preview: build mode, explicit maxima and verification commands. */
  previewResultFullBytes: number;
  /** Bytes each paged spool read may show once the turn's preview budget is exhausted. */
  spoolPageCreditBytes: number;
  /** Consecutive spool reads admitted on that credit once the preview budget is exhausted. */
  spoolSequentialReads: number;
  /** Tokens (input + output) the planning session may spend; 0 = unlimited. */
  planningTokenCap: number;
  /** Low-signal navigation while planning: this many in a row, or in all, schedule a synthesis pass. */
  lowSignal: { consecutive: number; total: number };
  /** Consecutive planning inspections that, containing a repeated request, schedule a synthesis pass. */
  repeatedRequestWindow: number;
  /** Scans of one search root by one listing tool that schedule a synthesis pass. */
  sameTargetListing: { build: number; plan: number };
  /** Low-signal outcomes (execution) in a window reset by mutation or verification. */
  diverseChurn: number;
}

/** Configured settings: any subset, nested groups field by field (a `Partial<BudgetConfig>` fits). */
export type BudgetOverrides = Partial<Omit<BudgetConfig, 'previewTurnBytes' | 'lowSignal' | 'sameTargetListing'>> & {
  previewTurnBytes?: Partial<BudgetConfig['previewTurnBytes']>;
  lowSignal?: Partial<BudgetConfig['lowSignal']>;
  sameTargetListing?: Partial<BudgetConfig['sameTargetListing']>;
};

const KIB = 1024;

export const PLANNING_TOOL_CALL_FLOOR = 120;
export const PLANNING_LOOP_FLOOR = 60;

export const DEFAULT_BUDGETS: Readonly<BudgetConfig> = Object.freeze({
  blockedCap: 8,
  toolCallsPerTurn: 64,
  loopsPerTurn: 40,
  sessionToolCalls: 400,
  previewTurnBytes: Object.freeze({ plan: 96 * KIB, build: 32 * KIB }),
  previewResultBytes: 8 * KIB,
  previewResultFullBytes: 16 * KIB,
  spoolPageCreditBytes: 4 * KIB,
  spoolSequentialReads: 8,
  planningTokenCap: 0,
  lowSignal: Object.freeze({ consecutive: 6, total: 10 }),
  repeatedRequestWindow: 12,
  sameTargetListing: Object.freeze({ build: 3, plan: 5 }),
  diverseChurn: 12,
}) as Readonly<BudgetConfig>;

/** Limits that are copied as plain numbers (everything except the nested objects). */
const SCALAR_KEYS = [
  'blockedCap',
  'toolCallsPerTurn',
  'loopsPerTurn',
  'sessionToolCalls',
  'previewResultBytes',
  'previewResultFullBytes',
  'spoolPageCreditBytes',
  'spoolSequentialReads',
  'planningTokenCap',
  'repeatedRequestWindow',
  'diverseChurn',
] as const;

function checkLimit(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RangeError(`Budget setting ${name} must be a whole number, 0 (unlimited) or more; got ${String(value)}.`);
  }
  return value;
}

/** The default configuration merged with `cfg`, validated (whole numbers ≥ 0), floors not applied. */
export function mergeBudgets(cfg: BudgetOverrides): BudgetConfig {
  const out = {} as BudgetConfig;
  for (const key of SCALAR_KEYS) out[key] = checkLimit(key, cfg[key] ?? DEFAULT_BUDGETS[key]);
  const preview = { ...DEFAULT_BUDGETS.previewTurnBytes, ...cfg.previewTurnBytes };
  const low = { ...DEFAULT_BUDGETS.lowSignal, ...cfg.lowSignal };
  const listing = { ...DEFAULT_BUDGETS.sameTargetListing, ...cfg.sameTargetListing };
  out.previewTurnBytes = {
    plan: checkLimit('previewTurnBytes.plan', preview.plan),
    build: checkLimit('previewTurnBytes.build', preview.build),
  };
  out.lowSignal = {
    consecutive: checkLimit('lowSignal.consecutive', low.consecutive),
    total: checkLimit('lowSignal.total', low.total),
  };
  out.sameTargetListing = {
    build: checkLimit('sameTargetListing.build', listing.build),
    plan: checkLimit('sameTargetListing.plan', listing.plan),
  };
  return out;
}

/** Raises a nonzero limit below `floor` to `floor`; 0 (unlimited) stays 0. */
function withFloor(value: number, floor: number): number {
  return value > 0 && value < floor ? floor : value;
}

/**
 * The budgets in force for `mode`: defaults merged with `cfg`, and while planning the floors of
 * 120 tool calls and 60 loops per turn when the configured nonzero limits are lower (seed,
 * "Research Scope"). Applying it twice gives the same result.
 */
export function effectiveBudgets(cfg: BudgetOverrides, mode: Mode): BudgetConfig {
  const out = mergeBudgets(cfg);
  if (mode === 'plan') {
    out.toolCallsPerTurn = withFloor(out.toolCallsPerTurn, PLANNING_TOOL_CALL_FLOOR);
    out.loopsPerTurn = withFloor(out.loopsPerTurn, PLANNING_LOOP_FLOOR);
  }
  return out;
}

/** The per-turn preview budget of a mode; recovery shares the execution budget. */
export function previewTurnBudget(cfg: BudgetConfig, mode: Mode): number {
  return mode === 'plan' ? cfg.previewTurnBytes.plan : cfg.previewTurnBytes.build;
}

/** The same-target listing threshold of a mode; recovery shares the execution threshold. */
export function sameTargetThreshold(cfg: BudgetConfig, mode: Mode): number {
  return mode === 'plan' ? cfg.sameTargetListing.plan : cfg.sameTargetListing.build;
}
