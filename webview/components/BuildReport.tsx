/**
 * The build's final card: the engine's closing audit, outcome first (done, stopped or
 * failed; steps done of planned; verify results; files changed in and out of the plan's scope;
 * checks awaiting the person), then the steps and files, and Revert Build (the whole build, or
 * back to the checkpoint of a completed step) through the host's command, which shows the diff
 * and asks first. Every figure is the engine's; this only renders it, as text nodes.
 */
import type { BuildReportItem, ReportFile, ReportStep } from '../../src/protocol';
import { canRevert } from '../../src/protocol/atStake';
import { usePanel } from '../context';
import { Button } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { Collapsible } from './Collapsible';
import { FileLink } from './FileLink';
import { RichText } from './RichText';

const OUTCOME = {
  done: { icon: 'pass', class: 'pw-ok', word: 'done' },
  stopped: { icon: 'debug-stop', class: 'pw-warn', word: 'stopped' },
  failed: { icon: 'error', class: 'pw-bad', word: 'failed' },
} as const;

const INCOMPLETE = { icon: 'warning', class: 'pw-warn', word: 'done' } as const;

const STEP_ICON: Record<ReportStep['status'], { icon: string; label: string }> = {
  completed: { icon: 'pass', label: 'completed' },
  in_progress: { icon: 'circle-filled', label: 'in progress' },
  pending: { icon: 'circle-outline', label: 'not started' },
  blocked: { icon: 'circle-slash', label: 'blocked' },
};

const VERIFY_WORD: Record<string, string> = {
  passed: 'passed',
  failed: 'failed',
  timed_out: 'timed out',
  cancelled: 'cancelled',
  running: 'running',
  checked: 'checked by you',
  'not run': 'not run',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function verifyLine(c: BuildReportItem['counts']): string {
  if (c.verifyTotal === 0) return 'none in the plan';
  const parts = [
    c.verifyPassed > 0 ? `${c.verifyPassed} passed` : '',
    c.verifyFailed > 0 ? `${c.verifyFailed} failed` : '',
    c.verifyChecked > 0 ? `${c.verifyChecked} checked` : '',
    c.verifyNotRun > 0 ? `${c.verifyNotRun} not run` : '',
  ].filter((p) => p !== '');
  return `${parts.join(' · ')} (of ${c.verifyTotal})`;
}

function filesLine(c: BuildReportItem['counts']): string {
  if (c.filesChanged === 0) return 'none changed';
  const inScope = c.filesChanged - c.filesOutOfScope;
  return c.filesOutOfScope === 0
    ? `${plural(c.filesChanged, 'file')} changed, all in the plan`
    : `${plural(c.filesChanged, 'file')} changed: ${inScope} in the plan, ${c.filesOutOfScope} outside it`;
}

function FileRow({ file, item }: { file: ReportFile; item: BuildReportItem }) {
  const drift = file.outOfScope ? item.outOfScope.find((d) => d.path === file.path) : undefined;
  return (
    <li class="pw-report-file">
      <FileLink path={file.path} />
      <span class="pw-report-lines" aria-label={`${file.added} lines added, ${file.removed} removed`}>
        +{file.added} −{file.removed}
      </span>
      {file.outOfScope ? (
        <span class="pw-tag pw-tag-warn" data-testid="report-out-of-scope">
          outside the plan{drift ? `: allowed by ${drift.allowedBy}` : ''}
        </span>
      ) : null}
      {drift?.command !== undefined ? (
        <span class="pw-report-via">
          via <code>{drift.command}</code>
        </span>
      ) : null}
    </li>
  );
}

function StepRow({ step }: { step: ReportStep }) {
  const mark = STEP_ICON[step.status];
  return (
    <li class={`pw-report-step pw-step-${step.status}`}>
      <div class="pw-report-step-line">
        <Icon name={mark.icon} label={mark.label} />
        <span>
          {step.path}. {step.description}
        </span>
      </div>
      {step.reason ? <RichText class="pw-report-reason" text={step.reason} format="inline" /> : null}
      {step.verify.length > 0 ? (
        <ul class="pw-report-verify" aria-label={`Verify of step ${step.path}`}>
          {step.verify.map((v) => (
            <li key={v.entry} data-status={v.status}>
              {v.kind === 'command' ? <code>{v.command ?? v.entry}</code> : <span>“{v.entry}”</span>}{' '}
              <span class="pw-report-verdict">
                {VERIFY_WORD[v.status] ?? v.status}
                {v.kind === 'command' && v.exitCode !== undefined && v.exitCode !== null && v.status !== 'passed'
                  ? ` (exit ${v.exitCode})`
                  : ''}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function BuildReportCard({ item }: { item: BuildReportItem }) {
  const { post } = usePanel();
  // A build that ended as done with steps left open reads as a warning, not a success.
  const o = item.outcome === 'done' && !item.complete ? INCOMPLETE : OUTCOME[item.outcome];
  const c = item.counts;
  const headline = `Build ${o.word}${item.complete ? '' : item.outcome === 'done' ? ', incomplete' : ''}`;
  const revert = (toStep?: string) =>
    post({ type: 'revertBuild', sessionId: item.sessionId, ...(toStep !== undefined ? { toStep } : {}) });
  const revertible = canRevert(item);
  return (
    <article
      class={`pw-item pw-report pw-report-${item.outcome}${item.complete ? '' : ' pw-report-incomplete'}`}
      aria-label={`${headline}: ${item.title}`}
      data-testid="build-report"
    >
      <header class="pw-report-head">
        <Icon name={o.icon} class={o.class} />
        <span class="pw-report-outcome">{headline}</span>
        <span class="pw-report-title">{item.title}</span>
      </header>
      {item.reason ? <p class="pw-report-why">{item.reason}</p> : null}
      <dl class="pw-report-facts">
        <div>
          <dt>Steps</dt>
          <dd>
            {c.stepsDone} of {c.stepsTotal} done
          </dd>
        </div>
        <div>
          <dt>Verify</dt>
          <dd>{verifyLine(c)}</dd>
        </div>
        <div>
          <dt>Files</dt>
          <dd>{filesLine(c)}</dd>
        </div>
      </dl>
      {item.awaiting.length > 0 ? (
        <div class="pw-report-awaiting" role="note">
          <Icon name="eye" /> Awaiting your check:{' '}
          {item.awaiting.map((a, i) => (
            <span key={`${a.step}:${a.entry}`}>
              {i > 0 ? '; ' : ''}step {a.step}: “{a.entry}”
            </span>
          ))}
        </div>
      ) : null}
      <RichText class="pw-report-summary" text={item.summary} format="inline" />
      {item.steps.length > 0 ? (
        <Collapsible
          class="pw-report-section"
          stateKey={`item:${item.id}:steps`}
          defaultOpen={!item.complete}
          summary={<span class="pw-summary">Steps</span>}
        >
          {() => (
            <ul class="pw-report-steps">
              {item.steps.map((s) => (
                <StepRow key={s.path} step={s} />
              ))}
            </ul>
          )}
        </Collapsible>
      ) : null}
      {item.changed.length > 0 ? (
        <Collapsible
          class="pw-report-section"
          stateKey={`item:${item.id}:files`}
          defaultOpen={c.filesOutOfScope > 0}
          summary={<span class="pw-summary">Files changed</span>}
        >
          {() => (
            <ul class="pw-report-files">
              {item.changed.map((f) => (
                <FileRow key={f.path} file={f} item={item} />
              ))}
            </ul>
          )}
        </Collapsible>
      ) : null}
      {item.untouched.length > 0 ? (
        <div class="pw-report-untouched">
          Planned but never touched:{' '}
          {item.untouched.map((p, i) => (
            <span key={p}>
              {i > 0 ? ', ' : ''}
              <code>{p}</code>
            </span>
          ))}
        </div>
      ) : null}
      <div class="pw-report-actions">
        {revertible ? (
          <Button
            appearance="secondary"
            testId="report-revert"
            title="Restore every file the build touched to its state before the build (the diff is shown first)"
            onClick={() => revert()}
          >
            Revert Build
          </Button>
        ) : null}
        {item.checkpoints.map((step) => (
          <Button
            key={step}
            appearance="secondary"
            testId={`report-revert-step-${step}`}
            label={`Revert to step ${step}`}
            title={`Restore the files as they were when step ${step} completed (the diff is shown first)`}
            onClick={() => revert(step)}
          >
            Revert to step {step}
          </Button>
        ))}
        <FileLink path={item.reportFile} label="Open report" />
      </div>
    </article>
  );
}
