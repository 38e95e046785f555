/**
 * Smaller prompts and notices: "Enter planning workflow?", "grant more?", the handoff's
 * progress, the lifecycle's keep-planning / blocked-handoff notices (with Resume), and the
 * missing-key and untrusted-workspace notices.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EnterPlanningPrompt, Flags, GrantMorePrompt, Handoff, PanelNotice } from '../../src/protocol';
import { usePanel } from '../context';
import { Button, focusButton } from '../ui/Button';
import { Icon } from '../ui/Icon';
import { ProgressRing } from '../ui/ProgressRing';
import { pure } from '../pure';
import { mayTakeFocus } from '../consent';

function EnterPlanningView({ prompt, disabled }: { prompt: EnterPlanningPrompt; disabled: boolean }) {
  const { post } = usePanel();
  const [sentId, setSentId] = useState<string | null>(null);
  const enterRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (mayTakeFocus(document)) focusButton(enterRef.current);
  }, [prompt.requestId]);
  const locked = disabled || sentId === prompt.requestId;
  const answer = (accept: boolean) => {
    if (locked) return;
    setSentId(prompt.requestId);
    post({ type: 'enterPlanningResponse', requestId: prompt.requestId, accept });
  };
  return (
    <section class="pw-prompt pw-card" aria-label="Enter planning workflow?">
      <h2 class="pw-card-title">
        <Icon name="map" /> Enter planning workflow?
      </h2>
      {prompt.reason ? <p>{prompt.reason}</p> : null}
      <p class="pw-hint">
        Planning researches read-only; edits wait until you approve a plan. Continuing without keeps the build agent
        working as it is.
      </p>
      <div class="pw-actions">
        <Button buttonRef={enterRef} onClick={() => answer(true)} disabled={locked}>
          Enter planning (recommended)
        </Button>
        <Button appearance="secondary" onClick={() => answer(false)} disabled={locked}>
          Continue without
        </Button>
      </div>
    </section>
  );
}

const LIMIT_NAME = { session_tool_calls: 'Tool-call limit', tool_loop: 'Tool-loop limit' } as const;

function GrantMoreView({ prompt, disabled }: { prompt: GrantMorePrompt; disabled: boolean }) {
  const { post } = usePanel();
  const [sentId, setSentId] = useState<string | null>(null);
  const locked = disabled || sentId === prompt.requestId;
  const answer = (grant: boolean) => {
    if (locked) return;
    setSentId(prompt.requestId);
    post({ type: 'grantMore', requestId: prompt.requestId, grant });
  };
  return (
    <section class="pw-prompt pw-card" aria-label="Limit reached">
      <p>
        <Icon name="warning" /> {LIMIT_NAME[prompt.kind]} reached: {prompt.used} of {prompt.max} used. Grant more?
      </p>
      <div class="pw-actions">
        <Button onClick={() => answer(true)} disabled={locked}>
          Grant more
        </Button>
        <Button appearance="secondary" onClick={() => answer(false)} disabled={locked}>
          Stop here
        </Button>
      </div>
    </section>
  );
}

const STEP_ICON = { pending: 'circle-large-outline', done: 'pass-filled', failed: 'error' } as const;

function HandoffView({ handoff }: { handoff: Handoff }) {
  return (
    <section class="pw-handoff pw-card" aria-label="Starting the build">
      <ul class="pw-handoff-steps" role="status" aria-live="polite">
        {handoff.steps.map((s, i) => (
          <li key={i} class={`pw-handoff-step pw-step-${s.status}`}>
            {s.status === 'active' ? <ProgressRing /> : <Icon name={STEP_ICON[s.status]} />}
            <span>{s.label}</span>
          </li>
        ))}
      </ul>
      <p class="pw-hint">Input and mode switches wait until the handoff completes.</p>
    </section>
  );
}

const NOTICE_ICON: Record<PanelNotice['kind'], string> = {
  keep_planning: 'edit',
  blocked_handoff: 'debug-pause',
  info: 'info',
  warning: 'warning',
  error: 'error',
};

function PanelNoticesView({ notices }: { notices: readonly PanelNotice[] }) {
  const { post } = usePanel();
  if (notices.length === 0) return null;
  return (
    <div class="pw-notices">
      {notices.map((n) => (
        <div
          key={n.id}
          class={`pw-banner pw-banner-${n.kind}`}
          role={n.kind === 'error' || n.kind === 'blocked_handoff' ? 'alert' : 'status'}
        >
          <Icon name={NOTICE_ICON[n.kind]} />
          <span class="pw-banner-text">{n.text}</span>
          {n.resumeAvailable && n.sessionId ? (
            <Button appearance="secondary" onClick={() => post({ type: 'resume', sessionId: n.sessionId! })}>
              Resume
            </Button>
          ) : null}
        </div>
      ))}
    </div>
  );
}

function FlagNoticesView({ flags }: { flags: Flags }) {
  const { post } = usePanel();
  return (
    <>
      {!flags.hasApiKey && flags.keyRequired !== false && flags.keyChecked !== false ? (
        <div class="pw-banner pw-banner-warning" role="status">
          <Icon name="key" />
          <span class="pw-banner-text">No API key is set, so Planwise cannot reach the model.</span>
          <Button appearance="secondary" onClick={() => post({ type: 'setApiKey' })}>
            Set API Key
          </Button>
        </div>
      ) : null}
      {!flags.trusted ? (
        <div class="pw-banner pw-banner-info" role="status">
          <Icon name="shield" />
          <span class="pw-banner-text">
            This workspace is not trusted: planning works with the file tools, but shell commands and verify runs are
            off until you trust it.
          </span>
          <Button appearance="secondary" onClick={() => post({ type: 'trustWorkspace' })}>
            Trust Workspace
          </Button>
        </div>
      ) : null}
    </>
  );
}

export const EnterPlanningCard = pure(EnterPlanningView);
export const GrantMoreCard = pure(GrantMoreView);
export const HandoffProgress = pure(HandoffView);
export const PanelNotices = pure(PanelNoticesView);
export const FlagNotices = pure(FlagNoticesView);
