/**
 * "Ready to code?" as a compact bar above the composer: the plan's title once, "revision N · what
 * changed" (the engine's words), the validation state, the open-comment count, and three choices,
 * the recommended one primary. It does not repeat the plan: the plan card in the transcript shows
 * it. Its arrival never moves the focus: the live region says it, and Ctrl+Alt+Shift+G (or Focus
 * on Planning View) brings the focus to the bar. A choice answers Enter or Space only when the
 * person moved the focus to it (webview/consent.ts); a click always counts. "No, stay in Plan mode"
 * opens the feedback box, which takes the composer's place; in the box Enter sends the feedback as
 * a revision request (Shift+Enter adds a line), never as an approval. Approving while review
 * comments are open asks once ("Approve with 3 unresolved comments?"), on screen where the person
 * clicked, with Back as the default.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApprovalDecision, Gate } from '../../src/protocol';
import { GATE_KEY_LABEL } from '../consent';
import { usePanel } from '../context';
import { Button, focusButton } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { FileLink } from './FileLink';
import { VerifyCommands, useVerifyApproval } from './VerifyCommands';
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

/** Brings `el` into view inside the panel's own scrolling parts (the document itself never scrolls). */
function reveal(el: Element | null): void {
  el?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
}

function GateView({ gate, disabled, restricted, onFeedbackOpen }: GateProps) {
  const { post, intent } = usePanel();
  const [answeredId, setAnsweredId] = useState<string | null>(null);
  const [revising, setRevising] = useState(false);
  const [feedback, setFeedback] = useState('');
  /** An approval held for "Approve with N unresolved comments?" (asked once per gate). */
  const [confirming, setConfirming] = useState<ApprovalDecision | null>(null);
  const [confirmedId, setConfirmedId] = useState<string | null>(null);
  /** A key on a choice the person did not move to was ignored: say how to choose. */
  const [keyIgnored, setKeyIgnored] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);
  const stayRef = useRef<HTMLButtonElement>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const confirmRef = useRef<HTMLDivElement>(null);
  const backRef = useRef<HTMLElement>(null);
  const sendRef = useRef<HTMLDivElement>(null);
  const lastRequest = useRef(gate.requestId);
  const titleId = useId();
  const feedbackId = useId();

  // A new card (a revision, or the same plan announced again) never moves the focus. Whatever
  // focus the person had on a choice stops counting for it; a feedback draft not yet sent is kept.
  useEffect(() => {
    if (lastRequest.current === gate.requestId) return;
    const answeredPrevious = answeredId === lastRequest.current;
    lastRequest.current = gate.requestId;
    for (const el of sectionRef.current?.querySelectorAll('.pw-choice') ?? []) intent?.forget(el);
    setConfirming(null);
    setKeyIgnored(false);
    if (answeredPrevious) {
      setRevising(false);
      setFeedback('');
    }
  }, [gate.requestId]);

  // Focus moves with the render that shows the box, so keys typed right after Enter land in it.
  useLayoutEffect(() => {
    if (revising) {
      feedbackRef.current?.focus({ preventScroll: true });
      reveal(sendRef.current);
    }
    onFeedbackOpen?.(revising);
  }, [revising]);
  useEffect(() => () => onFeedbackOpen?.(false), []);

  // The question appears where the person clicked, in view, with Back (keep) holding the focus.
  useLayoutEffect(() => {
    if (!confirming) return;
    reveal(confirmRef.current);
    focusButton(backRef.current);
  }, [confirming]);

  const verify = useVerifyApproval(gate);
  const answered = answeredId === gate.requestId;
  const locked = answered || disabled;
  const respond = (decision: ApprovalDecision, text?: string) => {
    if (locked) return;
    setAnsweredId(gate.requestId);
    post({
      type: 'approvalResponse',
      requestId: gate.requestId,
      decision,
      ...(text ? { feedback: text } : {}),
      ...verify.extra(decision),
    });
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
  /** Enter and Space act on a choice only when the person moved the focus there. */
  const guardKeys = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const el = e.currentTarget as HTMLElement;
    if (intent && !intent.movedByPerson(el)) {
      e.preventDefault();
      e.stopPropagation();
      if (e.type === 'keydown') setKeyIgnored(true);
    }
  };

  const percent = Math.round(gate.contextPercent);
  const recommended = recommendedChoice(gate);
  const problems = gate.validation.problems.length;
  const revisionLine = `revision ${gate.revision}${gate.author === 'person' ? ' · your edit' : ''}${gate.changes ? ` · ${gate.changes}` : ''}`;

  const choiceButton = (key: string, props: Record<string, unknown>, title: string, sub: ComponentChildren) => (
    <button
      type="button"
      {...props}
      disabled={locked}
      aria-labelledby={`${titleId}-${key}`}
      aria-describedby={`${titleId}-${key}-sub`}
      onKeyDown={guardKeys}
      onKeyUp={guardKeys}
    >
      <span id={`${titleId}-${key}`} class="pw-choice-title">
        {title}
      </span>
      <span id={`${titleId}-${key}-sub`} class="pw-choice-sub">
        {sub}
      </span>
    </button>
  );

  // Each choice is named by its title alone and described by its line under it, so a screen reader
  // says "Yes, implement this plan, button" and then "Recommended · Build here, with this thread."
  const choice = (decision: 'execute' | 'fresh_context', title: string, sub: string) => {
    const primary = decision === recommended;
    return choiceButton(
      decision,
      { class: `pw-choice${primary ? ' pw-choice-primary' : ''}`, onClick: () => approve(decision) },
      title,
      <>
        {primary ? <strong class="pw-choice-rec">Recommended · </strong> : null}
        {sub}
      </>,
    );
  };

  return (
    <section ref={sectionRef} class="pw-gate" aria-labelledby={titleId} tabIndex={-1} data-testid="gate">
      <div class="pw-gate-head">
        <h2 id={titleId} class="pw-gate-heading">
          <Icon name="rocket" /> Ready to code?
        </h2>
        <span class="pw-gate-plan-title" title={gate.title}>
          {gate.title}
        </span>
      </div>
      <p class="pw-gate-meta">
        <span class="pw-gate-revision">{revisionLine}</span>
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
                  <FileLink path={gate.planFile} line={c.line} label={`Line ${c.line} · ${c.label}`} />
                ) : (
                  `Line ${c.line} · ${c.label}`
                )}
                {c.outdated ? <span class="pw-tag">outdated</span> : null}
                {c.answered ? <span class="pw-tag">answered</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}

      <VerifyCommands gate={gate} locked={locked} approval={verify} />

      <div class="pw-choices" role="group" aria-label="What next?">
        {choice('execute', 'Yes, implement this plan', 'Build here, with this thread.')}
        {choice(
          'fresh_context',
          'Yes, clear context and implement',
          `${recommended === 'fresh_context' ? '' : 'Fresh thread; '}context ${percent}% used.`,
        )}
        {choiceButton(
          'stay',
          {
            ref: stayRef,
            class: 'pw-choice pw-choice-stay',
            'aria-expanded': revising,
            'aria-controls': feedbackId,
            onClick: () => setRevising(true),
          },
          'No, stay in Plan mode',
          open > 0
            ? `Sends the ${openText} to the planner, with your note; nothing is built.`
            : 'Say what to change; nothing is built.',
        )}
      </div>
      {keyIgnored ? (
        <p class="pw-hint" role="status">
          Move to a choice with Tab, then press Enter, or click it.
        </p>
      ) : null}

      {confirming ? (
        <div ref={confirmRef} class="pw-confirm" role="alertdialog" aria-label="Approve with unresolved comments?">
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
            <Button appearance="secondary" buttonRef={backRef} onClick={() => setConfirming(null)}>
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
              if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                e.preventDefault();
                sendRevision();
              } else if (e.key === 'Escape') {
                e.preventDefault();
                closeFeedback();
              }
            }}
          />
          <div ref={sendRef} class="pw-actions">
            <Button onClick={sendRevision} disabled={locked}>
              Send revision request
            </Button>
            <span class="pw-hint">Enter sends · Shift+Enter new line · Esc closes</span>
          </div>
        </div>
      ) : null}
      {answered ? (
        <p class="pw-hint" role="status">
          Sent. Waiting for Planwise…
        </p>
      ) : (
        <p class="pw-hint pw-gate-key">{GATE_KEY_LABEL} comes back to these choices.</p>
      )}
    </section>
  );
}

export const GatePanel = pure(GateView);
