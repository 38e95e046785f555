/**
 * The closing audit: when a build ends (done, stopped or failed) the engine writes an
 * execution report next to the plan (`<stem>.report.md`) and announces it in
 * `plan.execution.completed`. Computed once here from the tracker, the verify results and the
 * build's ledger; the panel shows it as the build's final card and the CLI prints it. Pure.
 */
import type { TaskItem, Tracker } from '../plan/tracker';
import type { VerifyEntry } from '../plan/types';
import type { VerifyRecord } from '../verify/verifier';
import type { DriftRecord, LineCount } from './ledger';
import type { PlanScope } from './scope';

export type BuildOutcome = 'done' | 'stopped' | 'failed';

export interface ReportVerify {
  readonly kind: 'command' | 'check';
  readonly entry: string;
  readonly command?: string;
  /** 'not run' when it never ran (or a check nobody signed). */
  readonly status: Exclude<VerifyRecord['status'], 'awaiting'> | 'not run';
  readonly exitCode?: number | null;
}

export interface ReportFile {
  readonly path: string;
  readonly added: number;
  readonly removed: number;
  /** Outside the approved plan's scope (allowed by someone: see `outOfScope`). */
  readonly outOfScope?: boolean;
}

/** The report's figures, counted once here for every host's card. */
export interface ReportCounts {
  readonly stepsDone: number;
  readonly stepsTotal: number;
  readonly filesChanged: number;
  readonly filesOutOfScope: number;
  readonly verifyPassed: number;
  readonly verifyFailed: number;
  readonly verifyChecked: number;
  readonly verifyNotRun: number;
  readonly verifyTotal: number;
}

/** A check that waits for the person's sign-off. */
export interface AwaitingCheck {
  readonly step: string;
  readonly entry: string;
}

export interface ReportStep {
  /** The tracker path (`1`, `2`…): the plan's step number. */
  readonly path: string;
  readonly description: string;
  readonly status: TaskItem['status'];
  readonly verify: readonly ReportVerify[];
  readonly planned: readonly string[];
  readonly changed: readonly ReportFile[];
  /** Why it is not completed; absent for a completed step. */
  readonly reason?: string;
}

export interface ExecutionReport {
  readonly planFile: string;
  readonly title: string;
  readonly outcome: BuildOutcome;
  /** Every step completed (and the run ended as done). */
  readonly complete: boolean;
  /** Why the build stopped or failed. */
  readonly reason?: string;
  /** The concise outcome: changed files, verification performed, remaining blockers. */
  readonly summary: string;
  readonly steps: readonly ReportStep[];
  /** Every file the build changed, with its line counts (all steps together). */
  readonly changed: readonly ReportFile[];
  readonly outOfScope: readonly DriftRecord[];
  readonly untouched: readonly string[];
  readonly incomplete: readonly { readonly path: string; readonly description: string; readonly reason: string }[];
  readonly counts: ReportCounts;
  /** Checks of steps not completed that no one signed off yet: the person's to confirm. */
  readonly awaiting: readonly AwaitingCheck[];
}

export interface ReportInput {
  readonly planFile: string;
  readonly title: string;
  readonly outcome: BuildOutcome;
  readonly reason?: string;
  readonly tracker: Tracker | undefined;
  /** The parse of a step's verify entry. */
  readonly entryOf: (text: string) => VerifyEntry;
  /** The latest verify result of an entry of a step. */
  readonly latest: (step: string, entry: string) => VerifyRecord | undefined;
  readonly scope: PlanScope | undefined;
  /** Lines changed per step path ('' outside any step), then per file. */
  readonly lines: Readonly<Record<string, Readonly<Record<string, LineCount>>>>;
  readonly touched: readonly string[];
  readonly drift: readonly DriftRecord[];
}

function topStep(path: string): string {
  return path.split('.')[0] ?? path;
}

function filesOf(lines: Readonly<Record<string, LineCount>> | undefined): ReportFile[] {
  return Object.entries(lines ?? {}).map(([path, c]) => ({ path, added: c.added, removed: c.removed }));
}

function merge(into: Map<string, ReportFile>, files: readonly ReportFile[]): void {
  for (const f of files) {
    const had = into.get(f.path);
    into.set(f.path, had ? { path: f.path, added: had.added + f.added, removed: had.removed + f.removed } : f);
  }
}

function verifyOf(input: ReportInput, path: string, item: TaskItem): ReportVerify[] {
  return item.verify.map((text) => {
    const entry = input.entryOf(text);
    const r = input.latest(path, entry.text);
    return {
      kind: entry.kind,
      entry: entry.text,
      ...(entry.kind === 'command' ? { command: entry.command } : {}),
      // A command the policy refused (the person said no) did not run; a check the build asked
      // for is not signed off yet.
      status: !r || r.refused || r.status === 'awaiting' ? 'not run' : r.status,
      ...(r && !r.refused && entry.kind === 'command' ? { exitCode: r.exitCode } : {}),
    };
  });
}

function reasonOf(item: TaskItem, verify: readonly ReportVerify[], outcome: BuildOutcome, why?: string): string {
  const failed = verify.find((v) => v.kind === 'command' && v.status !== 'passed' && v.status !== 'not run');
  if (failed) {
    const how =
      failed.exitCode === null || failed.exitCode === undefined
        ? failed.status.replace('_', ' ')
        : `exit ${failed.exitCode}`;
    return `verify \`${failed.command ?? failed.entry}\` failed (${how})`;
  }
  const unsigned = verify.filter((v) => v.kind === 'check' && v.status !== 'checked');
  const commandsPassed = verify.every((v) => v.kind === 'check' || v.status === 'passed');
  if (item.status === 'in_progress' && unsigned.length > 0 && commandsPassed) {
    return `awaiting the person's check: ${unsigned.map((v) => `"${v.entry}"`).join(', ')}`;
  }
  if (item.status === 'blocked') return 'blocked';
  const ended = outcome === 'done' ? 'the build ended' : `the build ${outcome}${why ? ` (${why})` : ''}`;
  return item.status === 'pending' ? `not started: ${ended}` : `left in progress: ${ended}`;
}

export function buildReport(input: ReportInput): ExecutionReport {
  const items = input.tracker?.items ?? [];
  const scopeEntries = input.scope?.entries ?? [];
  const lineKeys = Object.keys(input.lines);
  const steps: ReportStep[] = items.map((item, i) => {
    const path = `${i + 1}`;
    const verify = verifyOf(input, path, item);
    const changed = new Map<string, ReportFile>();
    for (const key of lineKeys) if (key !== '' && topStep(key) === path) merge(changed, filesOf(input.lines[key]));
    // The plan's file targets for this step; a step that named no path keeps the tracker's files.
    const fromScope = scopeEntries.filter((e) => e.step === i + 1).map((e) => e.pattern);
    const planned = fromScope.length > 0 ? fromScope : item.files;
    return {
      path,
      description: item.description,
      status: item.status,
      verify,
      planned,
      changed: [...changed.values()],
      ...(item.status !== 'completed' ? { reason: reasonOf(item, verify, input.outcome, input.reason) } : {}),
    };
  });
  const all = new Map<string, ReportFile>();
  for (const files of Object.values(input.lines)) merge(all, filesOf(files));
  const touched = new Set(input.touched);
  const untouched = (input.scope?.entries ?? [])
    .filter((e) => e.source === 'step')
    .filter((e) =>
      e.kind === 'file' ? !touched.has(e.pattern) : !input.touched.some((t) => input.scope?.covers(t) === e),
    )
    .map((e) => e.pattern);
  const incomplete = steps
    .filter((s) => s.status !== 'completed')
    .map((s) => ({ path: s.path, description: s.description, reason: s.reason ?? '' }));
  const complete = input.outcome === 'done' && incomplete.length === 0;
  const drifted = new Set(input.drift.map((d) => d.path));
  const changed = [...all.values()].map((f) => (drifted.has(f.path) ? { ...f, outOfScope: true } : f));
  const verify = steps.flatMap((s) => s.verify);
  const counts: ReportCounts = {
    stepsDone: steps.filter((s) => s.status === 'completed').length,
    stepsTotal: steps.length,
    filesChanged: changed.length,
    filesOutOfScope: changed.filter((f) => f.outOfScope).length,
    verifyPassed: verify.filter((v) => v.status === 'passed').length,
    verifyFailed: verify.filter((v) => v.kind === 'command' && v.status !== 'passed' && v.status !== 'not run').length,
    verifyChecked: verify.filter((v) => v.status === 'checked').length,
    verifyNotRun: verify.filter((v) => v.status === 'not run').length,
    verifyTotal: verify.length,
  };
  const awaiting = steps
    .filter((s) => s.status !== 'completed')
    .flatMap((s) =>
      s.verify
        .filter((v) => v.kind === 'check' && v.status !== 'checked')
        .map((v) => ({ step: s.path, entry: v.entry })),
    );
  return {
    planFile: input.planFile,
    title: input.title,
    outcome: input.outcome,
    complete,
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    summary: summaryOf(changed, steps, incomplete, input),
    steps,
    changed,
    outOfScope: input.drift,
    untouched: [...new Set(untouched)],
    incomplete,
    counts,
    awaiting,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function counts(files: readonly ReportFile[]): string {
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  return `+${added} −${removed}`;
}

function summaryOf(
  changed: readonly ReportFile[],
  steps: readonly ReportStep[],
  incomplete: ExecutionReport['incomplete'],
  input: ReportInput,
): string {
  const files =
    changed.length === 0
      ? 'No files changed.'
      : `Changed ${plural(changed.length, 'file')} (${counts(changed)}): ${changed.map((f) => f.path).join(', ')}.`;
  const verify = steps.flatMap((s) => s.verify);
  const passed = verify.filter((v) => v.status === 'passed').length;
  const failed = verify.filter((v) => v.kind === 'command' && v.status !== 'passed' && v.status !== 'not run').length;
  const checked = verify.filter((v) => v.status === 'checked').length;
  const notRun = verify.filter((v) => v.status === 'not run').length;
  const parts = [
    passed > 0 ? `${passed} passed` : '',
    failed > 0 ? `${failed} failed` : '',
    checked > 0 ? `${checked} checked by the person` : '',
    notRun > 0 ? `${notRun} not run` : '',
  ].filter((p) => p !== '');
  const verification =
    verify.length === 0 ? 'No verification was run.' : `Verification: ${parts.join(', ')} (of ${verify.length}).`;
  const blockers = [
    ...(input.outcome !== 'done' ? [`the build ${input.outcome}${input.reason ? `: ${input.reason}` : ''}`] : []),
    ...incomplete.map((s) => `step ${s.path} ${s.reason}`),
  ];
  const remaining = blockers.length === 0 ? 'No blockers remain.' : `Remaining blockers: ${blockers.join('; ')}.`;
  return `${files} ${verification} ${remaining}`;
}

function verifyLine(v: ReportVerify): string {
  if (v.kind === 'check') return `"${v.entry}": ${v.status === 'checked' ? 'checked by the person' : 'not signed off'}`;
  const code = v.exitCode === undefined || v.exitCode === null ? '' : ` (exit ${v.exitCode})`;
  return `\`${v.command ?? v.entry}\`: ${v.status.replace('_', ' ')}${code}`;
}

const fileLine = (f: ReportFile) => `${f.path} (+${f.added} −${f.removed})`;

/** The report as markdown (`<stem>.report.md`), the summary its first paragraph. */
export function renderReport(r: ExecutionReport, shown: (file: string) => string = (f) => f): string {
  const done = r.steps.filter((s) => s.status === 'completed').length;
  const out: string[] = [
    `# Execution report: ${r.title || shown(r.planFile)}`,
    '',
    r.summary,
    '',
    `Outcome: ${r.outcome}${r.reason ? ` (${r.reason})` : ''} · ${done} of ${r.steps.length} steps completed · plan ${shown(r.planFile)}`,
    '',
    '## Steps',
  ];
  for (const s of r.steps) {
    out.push('', `### ${s.path}. ${s.description}: ${s.status.replace('_', ' ')}`);
    out.push(`- Verify: ${s.verify.length === 0 ? 'none' : s.verify.map(verifyLine).join('; ')}`);
    out.push(`- Files planned: ${s.planned.length === 0 ? 'none' : s.planned.join(', ')}`);
    out.push(`- Files changed: ${s.changed.length === 0 ? 'none' : s.changed.map(fileLine).join(', ')}`);
    if (s.reason) out.push(`- Not completed: ${s.reason}`);
  }
  out.push('', '## Out-of-scope changes', '');
  if (r.outOfScope.length === 0) out.push('None.');
  for (const d of r.outOfScope) {
    out.push(
      `- ${d.path} (${d.action}${d.command !== undefined ? ` via \`${d.command}\`` : ''}${d.step !== undefined ? `, during step ${d.step}` : ''}): allowed by ${d.allowedBy}`,
    );
  }
  out.push('', '## Planned but never touched', '');
  if (r.untouched.length === 0) out.push('None.');
  for (const f of r.untouched) out.push(`- ${f}`);
  out.push('', '## Steps left incomplete', '');
  if (r.incomplete.length === 0) out.push('None.');
  for (const s of r.incomplete) out.push(`- ${s.path}. ${s.description}: ${s.reason}`);
  return `${out.join('\n')}\n`;
}
