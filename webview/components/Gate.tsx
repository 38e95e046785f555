/**
 * "Ready to code?" as a compact footer under the transcript: the plan's title, "revision N · what
 * changed" (the engine's words), the validation state, the open-comment count, and three choices,
 * the recommended one primary. It does not repeat the plan: the plan card above shows it. Its
 * arrival focuses the primary choice without scrolling the document. "No, stay in Plan mode" opens
 * the feedback box, which takes the composer's place (the panel hides the composer while it is
 * open); in the box Enter adds a line and Ctrl/Cmd+Enter sends the feedback as a revision request,
 * never as an approval. Approving while review comments are open asks once ("Approve with 3
 * unresolved comments?").
 */
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApprovalDecision, Gate } from '../../src/protocol';
import { usePanel } from '../context';
import { Button } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { FileLink } from './FileLink';
import { pure } from '../pure';

/** At or above this context use, a fresh thread is the recommended choice. */
export const FRESH_CONTEXT_THRESHOLD = 50;

/** The choice the gate recommends (and styles primary): a fresh thread once half the context is used. */
export function recommendedChoice(gate: Pick<Gate, 'contextPercent'>): 'execute' | 'fresh_context' {
  return gate.contextPercent >= FRESH_CONTEXT_THRESHOLD ? 'fresh_context' : 'execute';
}

interface GateProps {
  gate: Gate;
  disabled: boolean;
  restricted?: boolean;
  /** Told when the feedback box opens or closes, so the panel shows one text box at a time. */
  onFeedbackOpen?: (open: boolean) => void;
}

function GateView({ gate, disabled, restricted, onFeedbackOpen }: GateProps) {
  const { post } = usePanel();
  const [answeredId, setAnsweredId] = useState<string | null>(null);
  const [revising, setRevising] = useState(false);
  const [feedback, setFeedback] = useState('');
  /** An approval held for "Approve with N unresolved comments?" (asked once per gate). */
  const [confirming, setConfirming] = useState<ApprovalDecision | null>(null);
  const [confirmedId, setConfirmedId] = useState<string | null>(null);
  const primaryRef = useRef<HTMLButtonElement>(null);
  const stayRef = useRef<HTMLButtonElement>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const feedbackId = useId();

  useEffect(() => {
    setRevising(false);
    setFeedback('');
    setConfirming(null);
    primaryRef.current?.focus({ preventScroll: true });
  }, [gate.requestId]);

  // Focus moves with the render that shows the box, so keys typed right after Enter land in it.
  useLayoutEffect(() => {
    if (revising) feedbackRef.current?.focus({ preventScroll: true });
    onFeedbackOpen?.(revising);
  }, [revising]);
  useEffect(() => () => onFeedbackOpen?.(false), []);

  const answered = answeredId === gate.requestId;
  const locked = answered || disabled;
  const respond = (decision: ApprovalDecision, text?: string) => {
    if (locked) return;
    setAnsweredId(gate.requestId);
    post({ type: 'approvalResponse', requestId: gate.requestId, decision, ...(text ? { feedback: text } : {}) });
  };
  const sendRevision = () => respond('revise', feedback.trim() || undefined);
  const comments = gate.openComments ?? [];
  const open = comments.length;
  const openText = `${open} open comment${open === 1 ? '' : 's'}`;
  const approve = (decision: ApprovalDecision) => {
    if (open > 0 && confirmedId !== gate.requestId) {
      setConfirming(decision);
      return;
    }
    respond(decision);
  };
  const closeFeedback = () => {
    setRevising(false);
    stayRef.current?.focus({ preventScroll: true });
  };

  const percent = Math.round(gate.contextPercent);
  const recommended = recommendedChoice(gate);
  const problems = gate.validation.problems.length;
  const revisionLine = `revision ${gate.revision}${gate.author === 'person' ? ' · your edit' : ''}${gate.changes ? ` · ${gate.changes}` : gate.revision <= 1 ? ' · first draft' : ''}`;

  // Each choice is named by its title alone and described by its line under it, so a screen reader
  // says "Yes, implement this plan, button" and then "Recommended · Build here, with this thread."
  const choice = (decision: 'execute' | 'fresh_context', title: string, sub: string) => {
    const primary = decision === recommended;
    return (
      <button
        type="button"
        ref={primary ? primaryRef : undefined}
        class={`pw-choice${primary ? ' pw-choice-primary' : ''}`}
        disabled={locked}
        aria-labelledby={`${titleId}-${decision}`}
        aria-describedby={`${titleId}-${decision}-sub`}
        onClick={() => approve(decision)}
      >
        <span id={`${titleId}-${decision}`} class="pw-choice-title">
          {title}
        </span>
        <span id={`${titleId}-${decision}-sub`} class="pw-choice-sub">
          {primary ? <strong class="pw-choice-rec">Recommended · </strong> : null}
          {sub}
        </span>
      </button>
    );
  };

  return (
    <section class="pw-gate" aria-labelledby={titleId}>
      <h2 id={titleId} class="pw-gate-heading">
        <Icon name="rocket" /> Ready to code?
      </h2>
      <p class="pw-gate-plan-title" title={gate.title}>
        {gate.title}
      </p>
      <p class="pw-gate-meta">
        <span class="pw-gate-revision">{revisionLine}</span>
      </p>
      <p class="pw-gate-meta">
        <span class={`pw-validation ${gate.validation.valid ? 'pw-ok' : 'pw-warn'}`}>
          <Icon name={gate.validation.valid ? 'pass' : 'warning'} />{' '}
          {gate.validation.valid
            ? 'Plan validated'
            : `Validation found ${problems} problem${problems === 1 ? '' : 's'}`}
        </span>
        {gate.planFile ? <FileLink path={gate.planFile} label="Open plan" /> : null}
        {gate.hasPreviousRevision ? (
          <button
            type="button"
            class="pw-link-button"
            aria-label="Compare with previous draft"
            title="Compare with previous draft"
            onClick={() => post({ type: 'compareRevisions' })}
          >
            Compare
          </button>
        ) : null}
      </p>
      {gate.proposedDuringExecution ? (
        <p class="pw-callout" role="note">
          <Icon name="info" /> This plan was proposed during execution.
        </p>
      ) : null}
      {restricted ? (
        <p class="pw-callout pw-callout-warning" role="note">
          <Icon name="shield" /> Verify is off in Restricted Mode: steps cannot complete.
        </p>
      ) : null}
      {!gate.validation.valid && problems > 0 ? (
        <ul class="pw-problems">
          {gate.validation.problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      ) : null}
      {open > 0 ? (
        <details class="pw-gate-comments">
          <summary>
            <Icon name="comment-discussion" /> {openText}
          </summary>
          <ul>
            {comments.map((c) => (
              <li key={c.id}>
                {gate.planFile ? (
                  <FileLink path={gate.planFile} line={c.line} label={`${c.id} · ${c.label}`} />
                ) : (
                  `${c.id} · ${c.label}`
                )}
                {c.outdated ? <span class="pw-tag">outdated</span> : null}
                {c.answered ? <span class="pw-tag">answered</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}

      <div class="pw-choices" role="group" aria-label="What next?">
        {choice('execute', 'Yes, implement this plan', 'Build here, with this thread.')}
        {choice(
          'fresh_context',
          'Yes, clear context and implement',
          `${recommended === 'fresh_context' ? '' : 'Fresh thread; '}context ${percent}% used.`,
        )}
        <button
          type="button"
          ref={stayRef}
          class="pw-choice pw-choice-stay"
          disabled={locked}
          aria-expanded={revising}
          aria-controls={feedbackId}
          aria-labelledby={`${titleId}-stay`}
          aria-describedby={`${titleId}-stay-sub`}
          onClick={() => setRevising(true)}
        >
          <span id={`${titleId}-stay`} class="pw-choice-title">
            No, stay in Plan mode
          </span>
          <span id={`${titleId}-stay-sub`} class="pw-choice-sub">
            {open > 0
              ? `Sends the ${openText} to the planner, with your note; nothing is built.`
              : 'Say what to change; nothing is built.'}
          </span>
        </button>
      </div>

      {confirming ? (
        <div class="pw-confirm" role="alertdialog" aria-label="Approve with unresolved comments?">
          <p>
            Approve with {open} unresolved comment{open === 1 ? '' : 's'}?
          </p>
          <div class="pw-actions">
            <Button
              onClick={() => {
                const decision = confirming;
                setConfirming(null);
                setConfirmedId(gate.requestId);
                respond(decision);
              }}
            >
              Approve anyway
            </Button>
            <Button appearance="secondary" onClick={() => setConfirming(null)}>
              Back
            </Button>
          </div>
        </div>
      ) : null}
      {revising ? (
        <div class="pw-feedback">
          <label for={feedbackId}>What should change?</label>
          <textarea
            id={feedbackId}
            ref={feedbackRef}
            class="pw-input"
            rows={2}
            value={feedback}
            disabled={locked}
            onInput={(e) => setFeedback((e.currentTarget as HTMLTextAreaElement).value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                sendRevision();
              } else if (e.key === 'Escape') {
                e.preventDefault();
                closeFeedback();
              }
            }}
          />
          <div class="pw-actions">
            <Button onClick={sendRevision} disabled={locked}>
              Send revision request
            </Button>
            <span class="pw-hint">Ctrl+Enter sends · Esc closes</span>
          </div>
        </div>
      ) : null}
      {answered ? (
        <p class="pw-hint" role="status">
          Sent. Waiting for Planwise…
        </p>
      ) : null}
    </section>
  );
}

export const GatePanel = pure(GateView);
