/** Shared shapes of the plan artifact. Re-exported by `validator.ts`. */

/** One validation problem. `step` is the 1-based position of the implementation step; `line` is 1-based. */
export interface PlanError {
  message: string;
  step?: number;
  line?: number;
  /** How to fix it, with the offending text quoted (shown in repair feedback and the CLI). */
  hint?: string;
}

/** Something the person should fix that does not make the plan invalid (a file written as a link). 1-based `line`. */
export interface PlanWarning {
  message: string;
  line?: number;
}

/**
 * One `verify:` entry as parsed once by the validator (rules §3): a command to run, exactly as
 * written, or an observable check a person signs off. `text` is the entry as written in the plan:
 * results are keyed by it.
 */
export type VerifyEntry =
  | { readonly kind: 'command'; readonly text: string; readonly command: string }
  | { readonly kind: 'check'; readonly text: string };

/** One numbered implementation step as parsed from the plan. */
export interface ParsedStep {
  /** 1-based position among the plan's implementation steps (not the number written in the plan). */
  index: number;
  /** 1-based line of the step's numbered line in the plan markdown. */
  line: number;
  /** The action: the first `->` segment of the step line. */
  action: string;
  /** Files, symbols or behaviour targets (bracket lists split into items, prefixes stripped). */
  targets: string[];
  /** Verification commands or checks (bracket lists split on commas outside quotes). */
  verify: string[];
  /** The parse of each `verify` entry, in the same order. */
  entries: VerifyEntry[];
  /** The step's full text: the numbered line and its continuation lines, as written. */
  text: string;
}

/** What the validator understood of a plan, valid or not. */
export interface PlanSummary {
  /** The first `#` heading that is not a section name, without emphasis; '' when absent. */
  title: string;
  /** The Summary section's text, trimmed. */
  summary: string;
  steps: ParsedStep[];
  /** Items of the Test Cases and Validation section (bullets stripped). */
  validationItems: string[];
  /** Items of the Assumptions and Defaults section (bullets stripped). */
  assumptions: string[];
  /** Every section found, in order: canonical names for known sections, the label as written for others. */
  sections: string[];
  /** What the person should fix although the plan stays valid: file references written as links. */
  warnings: PlanWarning[];
}
