/**
 * "Ready to code?": the plan's synopsis and three choices. Keyboard safety: focus starts on
 * "No, stay in Plan mode"; Enter there only opens the feedback box; in the box Enter adds a
 * line and Ctrl/Cmd+Enter sends the feedback as a revision request, never as an approval. The
 * plan's open review comments are listed with links to their lines; they go with any revision
 * request, and approving while some are open asks once ("Approve with 3 unresolved comments?").
 */
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ApprovalDecision, Gate } from '../../src/protocol';
import { usePanel } from '../context';
import { Button } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { FileLink } from './FileLink';
import { RichText } from './RichText';
import { pure } from '../pure';

/** At or above this context use, a fresh thread is marked recommended. */
export const FRESH_CONTEXT_THRESHOLD = 50;

function GateView({ gate, disabled, restricted }: { gate: Gate; disabled: boolean; restricted?: boolean }) {
  const { post } = usePanel();
  const [answeredId, setAnsweredId] = useState<string | null>(null);
  const [revising, setRevising] = useState(false);
  const [feedback, setFeedback] = useState('');
  /** An approval held for "Approve with N unresolved comments?" (asked once per gate). */
  const [confirming, setConfirming] = useState<ApprovalDecision | null>(null);
  const [confirmedId, setConfirmedId] = useState<string | null>(null);
  const stayRef = useRef<HTMLButtonElement>(null);
  const feedbackRef = useRef<HTMLTextAreaElement>(null);
  const titleId = useId();
  const feedbackId = useId();

  useEffect(() => {
    setRevising(false);
    setFeedback('');
    setConfirming(null);
    stayRef.current?.focus();
  }, [gate.requestId]);

  // Focus moves with the render that shows the box, so keys typed right after Enter land in it.
  useLayoutEffect(() => {
    if (revising) feedbackRef.current?.focus();
  }, [revising]);

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

  const percent = Math.round(gate.contextPercent);
  const recommendFresh = gate.contextPercent >= FRESH_CONTEXT_THRESHOLD;
  // The engine elided the steps already: it sends the first few and how many it left out.
  const shown = gate.steps;
  const hidden = gate.moreSteps;

  return (
    <section class="pw-gate pw-card" aria-labelledby={titleId}>
      <h2 id={titleId} class="pw-card-title">
        <Icon name="rocket" /> Ready to code?
      </h2>
      {gate.proposedDuringExecution ? (
        <p class="pw-callout" role="note">
          <Icon name="info" /> This plan was proposed during execution.
        </p>
      ) : null}
      <h3 class="pw-gate-plan-title">{gate.title}</h3>
      {restricted ? (
        <p class="pw-callout pw-callout-warning" role="note">
          <Icon name="shield" /> Verify is off in Restricted Mode: steps cannot complete.
        </p>
      ) : null}
      {gate.summary ? <RichText text={gate.summary} format="markdown" class="pw-gate-summary" /> : null}
      <p class={`pw-validation ${gate.validation.valid ? 'pw-ok' : 'pw-warn'}`}>
        <Icon name={gate.validation.valid ? 'pass' : 'warning'} />{' '}
        {gate.validation.valid
          ? 'Plan validated'
          : `Validation found ${gate.validation.problems.length} problem${gate.validation.problems.length === 1 ? '' : 's'}`}
      </p>
      {!gate.validation.valid && gate.validation.problems.length > 0 ? (
        <ul class="pw-problems">
          {gate.validation.problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      ) : null}
      {open > 0 ? (
        <div class="pw-gate-comments">
          <p>
            <Icon name="comment-discussion" /> {openText}
          </p>
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
        </div>
      ) : null}
      {shown.length > 0 ? (
        <ol class="pw-steps">
          {shown.map((s, i) => (
            <li key={i}>
              <RichText text={s} format="inline" />
            </li>
          ))}
        </ol>
      ) : null}
      {hidden > 0 ? (
        <p class="pw-more-steps">
          …and {hidden} more step{hidden === 1 ? '' : 's'}
        </p>
      ) : null}
      {gate.planFile || gate.hasPreviousRevision ? (
        <div class="pw-gate-links">
          {gate.planFile ? <FileLink path={gate.planFile} label="Open the full plan" /> : null}
          {gate.hasPreviousRevision ? (
            <Button appearance="secondary" onClick={() => post({ type: 'compareRevisions' })}>
              Compare with previous draft
            </Button>
          ) : null}
        </div>
      ) : null}

      <div class="pw-choices" role="group" aria-label="What next?">
        <button type="button" class="pw-choice" disabled={locked} onClick={() => approve('execute')}>
          <span class="pw-choice-title">Yes, implement this plan</span>
          <span class="pw-choice-sub">Build in this thread, with its context.</span>
        </button>
        <button
          type="button"
          class={`pw-choice${recommendFresh ? ' pw-choice-recommended' : ''}`}
          disabled={locked}
          onClick={() => approve('fresh_context')}
        >
          <span class="pw-choice-title">
            Yes, clear context and implement
            {recommendFresh ? <span class="pw-tag pw-tag-rec">Recommended</span> : null}
          </span>
          <span class="pw-choice-sub">Fresh thread. Context: {percent}% used.</span>
        </button>
        <button
          type="button"
          ref={stayRef}
          class="pw-choice pw-choice-stay"
          disabled={locked}
          aria-expanded={revising}
          aria-controls={feedbackId}
          onClick={() => setRevising(true)}
        >
          <span class="pw-choice-title">No, stay in Plan mode</span>
          <span class="pw-choice-sub">
            {open > 0
              ? `Sends the ${openText} to the planner, with your note; nothing is built.`
              : 'Say what to change; the plan is revised, nothing is built.'}
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
            rows={3}
            value={feedback}
            disabled={locked}
            onInput={(e) => setFeedback((e.currentTarget as HTMLTextAreaElement).value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                sendRevision();
              } else if (e.key === 'Escape') {
                e.preventDefault();
                setRevising(false);
                stayRef.current?.focus();
              }
            }}
          />
          <div class="pw-actions">
            <Button onClick={sendRevision} disabled={locked}>
              Send revision request
            </Button>
            <span class="pw-hint">Ctrl+Enter sends · Enter adds a line · Esc closes</span>
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
