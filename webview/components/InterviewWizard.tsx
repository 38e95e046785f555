/**
 * The interview, inline above the composer (never a modal: the transcript and plan stay
 * readable). One question at a time with its progress; options form a radio group where the
 * arrow keys move, Space picks and Enter picks and moves on. Esc cancels and tells the host.
 * Where the person is (step, choices, notes) is UI state, so it survives the view being hidden.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { Interview } from '../../src/protocol';
import { usePanel, useUiState } from '../context';
import type { WizardProgress } from '../uiState';
import { Button, focusButton } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { pure } from '../pure';
import { mayTakeFocus } from '../consent';

const NEXT_KEYS = new Set(['ArrowDown', 'ArrowRight']);
const PREV_KEYS = new Set(['ArrowUp', 'ArrowLeft']);

function WizardView({ interview, disabled }: { interview: Interview; disabled: boolean }) {
  const { post, ui } = usePanel();
  const uiState = useUiState();
  const [sentId, setSentId] = useState<string | null>(null);
  const [focusSubmit, setFocusSubmit] = useState(false);
  const optionRefs = useRef<(HTMLDivElement | null)[]>([]);
  const submitRef = useRef<HTMLElement>(null);
  const baseId = useId();

  const progress: WizardProgress =
    uiState.wizard?.requestId === interview.requestId
      ? uiState.wizard
      : { requestId: interview.requestId, step: 0, choices: {}, notes: {} };
  const questions = interview.questions;
  const step = Math.min(progress.step, questions.length - 1);
  const question = questions[step]!;
  const last = step === questions.length - 1;
  const chosen = progress.choices[question.id];
  const chosenIndex = question.options.findIndex((o) => o.label === chosen);
  const recommendedIndex = question.options.findIndex((o) => o.recommended);
  const tabStop = chosenIndex >= 0 ? chosenIndex : Math.max(0, recommendedIndex);
  const sent = sentId === interview.requestId;
  const locked = sent || disabled;
  const allAnswered = questions.every((q) => progress.choices[q.id] !== undefined);

  useEffect(() => {
    // Submit is enabled only once the last choice is rendered, so focus it after that render.
    if (focusSubmit && allAnswered) {
      setFocusSubmit(false);
      focusButton(submitRef.current);
    }
  }, [focusSubmit, allAnswered]);

  const save = (patch: Partial<WizardProgress>) => ui.update({ wizard: { ...progress, ...patch } });

  useEffect(() => {
    if (mayTakeFocus(document)) optionRefs.current[tabStop]?.focus();
    // Focus moves when a new interview arrives or the step changes, not on every choice.
  }, [interview.requestId, step]);

  /** Picks an option; `advance` also moves to the next question in the same update. */
  const choose = (index: number, advance = false) => {
    const option = question.options[index];
    if (!option || locked) return;
    const choices = { ...progress.choices, [question.id]: option.label };
    save(advance && !last ? { choices, step: step + 1 } : { choices });
  };

  const goTo = (next: number) => save({ step: Math.max(0, Math.min(questions.length - 1, next)) });

  const submit = () => {
    if (locked || !allAnswered) return;
    setSentId(interview.requestId);
    post({
      type: 'interviewResponse',
      requestId: interview.requestId,
      outcome: {
        kind: 'answered',
        answers: questions.map((q) => {
          const note = (progress.notes[q.id] ?? '').trim();
          return { questionId: q.id, choice: progress.choices[q.id]!, ...(q.allowNote && note ? { note } : {}) };
        }),
      },
    });
  };

  const cancel = () => {
    if (locked) return;
    setSentId(interview.requestId);
    post({ type: 'interviewResponse', requestId: interview.requestId, outcome: { kind: 'cancelled' } });
  };

  const onOptionKey = (e: KeyboardEvent, index: number) => {
    const n = question.options.length;
    let target: number | undefined;
    if (NEXT_KEYS.has(e.key)) target = (index + 1) % n;
    else if (PREV_KEYS.has(e.key)) target = (index - 1 + n) % n;
    else if (e.key === 'Home') target = 0;
    else if (e.key === 'End') target = n - 1;
    if (target !== undefined) {
      e.preventDefault();
      choose(target);
      optionRefs.current[target]?.focus();
      return;
    }
    if (e.key === ' ') {
      e.preventDefault();
      choose(index);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(index, true);
      if (last) setFocusSubmit(true);
    }
  };

  const questionId = `${baseId}-q`;
  const noteId = `${baseId}-note`;
  return (
    <section
      class="pw-interview pw-card"
      aria-label="Planwise has a question"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          cancel();
        }
      }}
    >
      <header class="pw-interview-head">
        <Icon name="comment-discussion" />
        <span class="pw-interview-header">{question.header}</span>
        <span class="pw-progress-count" aria-label={`Question ${step + 1} of ${questions.length}`}>
          {step + 1}/{questions.length}
        </span>
      </header>
      <p id={questionId} class="pw-question">
        {question.question}
      </p>
      <div class="pw-options" role="radiogroup" aria-labelledby={questionId}>
        {question.options.map((o, i) => {
          const checked = i === chosenIndex;
          const descId = `${baseId}-d${i}`;
          return (
            <div
              key={`${question.id}:${o.label}`}
              ref={(el) => {
                optionRefs.current[i] = el;
              }}
              role="radio"
              class={`pw-option${checked ? ' pw-option-checked' : ''}`}
              aria-checked={checked}
              aria-disabled={locked}
              aria-describedby={o.description ? descId : undefined}
              tabIndex={i === tabStop ? 0 : -1}
              onClick={() => choose(i)}
              onKeyDown={(e) => onOptionKey(e, i)}
            >
              <span class="pw-radio" aria-hidden="true">
                <Icon name={checked ? 'circle-filled' : 'circle-large-outline'} />
              </span>
              <span class="pw-option-text">
                <span class="pw-option-label">
                  {o.label}
                  {o.recommended ? <span class="pw-tag pw-tag-rec">Recommended</span> : null}
                </span>
                {o.description ? (
                  <span id={descId} class="pw-option-desc">
                    {o.description}
                  </span>
                ) : null}
              </span>
            </div>
          );
        })}
      </div>
      {question.allowNote ? (
        <div class="pw-note">
          <label for={noteId}>Note (optional)</label>
          <textarea
            id={noteId}
            class="pw-input"
            rows={2}
            value={progress.notes[question.id] ?? ''}
            disabled={locked}
            onInput={(e) =>
              save({ notes: { ...progress.notes, [question.id]: (e.currentTarget as HTMLTextAreaElement).value } })
            }
          />
        </div>
      ) : null}
      <div class="pw-actions">
        <Button appearance="secondary" onClick={() => goTo(step - 1)} disabled={step === 0 || locked}>
          Back
        </Button>
        {last ? (
          <Button buttonRef={submitRef} onClick={submit} disabled={!allAnswered || locked}>
            Submit
          </Button>
        ) : (
          <Button onClick={() => goTo(step + 1)} disabled={chosen === undefined || locked}>
            Next
          </Button>
        )}
        <Button appearance="secondary" onClick={cancel} disabled={locked} title="Cancel (Esc)">
          Cancel
        </Button>
      </div>
      {sent ? (
        <p class="pw-hint" role="status">
          Sent. Waiting for Planwise…
        </p>
      ) : null}
    </section>
  );
}

export const InterviewWizard = pure(WizardView);
