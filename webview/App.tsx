/**
 * The panel: a 100vh column that never scrolls. The header, notices and the tracker's one line on
 * top; the transcript, the page's one scrolling log, in the middle; the open prompt (the gate's
 * compact bar, a question) and the composer fixed at the bottom.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { atStake } from '../src/protocol/atStake';
import { FocusIntent, isGateKey } from './consent';
import type { PanelServices } from './context';
import { PanelContext, useViewState } from './context';
import { fileLinkTarget } from './fileRefs';
import type { PanelStore } from './store';
import { Composer } from './components/Composer';
import { GatePanel } from './components/Gate';
import { Header } from './components/Header';
import { ModelWaiting } from './components/ModelWaiting';
import { SetupCard } from './components/SetupCard';
import { Announcer } from './components/Announcer';
import { InterviewWizard } from './components/InterviewWizard';
import { EnterPlanningCard, FlagNotices, GrantMoreCard, HandoffProgress, PanelNotices } from './components/Prompts';
import { TodoTree } from './components/TodoTree';
import { Transcript } from './components/Transcript';

export function App({ store, services: given }: { store: PanelStore; services: PanelServices }) {
  const state = useViewState(store);
  const services = useMemo(() => (given.intent ? given : { ...given, intent: new FocusIntent() }), [given]);
  const intent = services.intent!;
  const root = useRef<HTMLDivElement>(null);
  // The gate's feedback box takes the composer's place: one text box at a time.
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const handoffRunning = state.handoff !== null;
  const prompts = [state.gate, state.interview, state.enterPlanning, state.grantMore]
    .map((p) => p?.requestId ?? '')
    .join('|');
  const gateId = useRef<string | null>(null);
  gateId.current = state.gate?.requestId ?? null;
  const stake = atStake(state);

  useEffect(() => intent.install(document), [intent]);

  // Focusing the view (Focus on Planning View) lands where the person last was in the open prompt,
  // else on a gate they have not been to yet (the bar, never a choice), else on the prompt's first
  // control or the composer. A view entered by a click keeps the click's focus, and a text box the
  // person was typing in keeps it.
  useEffect(() => {
    let last: HTMLElement | null = null;
    let visited: string | null = null;
    const gateBar = () => root.current?.querySelector<HTMLElement>('.pw-gate') ?? null;
    const remember = (e: FocusEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest('.pw-dock')) last = t;
      if (t.closest('.pw-gate')) visited = gateId.current;
    };
    const land = () => {
      if (intent.moving) return;
      const active = document.activeElement;
      const idle = !active || active === document.body;
      const emptyBox = active instanceof HTMLTextAreaElement && active.value === '' && !active.closest('.pw-dock');
      const dock = root.current?.querySelector<HTMLElement>('.pw-dock');
      const gate = gateBar();
      if (gate && visited !== gateId.current && (idle || emptyBox)) {
        gate.focus({ preventScroll: true });
        return;
      }
      if (!idle) return;
      if (last && dock?.contains(last) && (!last.closest('.pw-gate') || intent.movedByPerson(last))) {
        intent.restore(last);
        return;
      }
      const target =
        (gate && dock?.contains(gate) ? gate : null) ??
        dock?.querySelector<HTMLElement>('[aria-checked="true"], button, textarea') ??
        root.current?.querySelector<HTMLTextAreaElement>('.pw-composer textarea:not(:disabled)');
      target?.focus({ preventScroll: true });
    };
    // Ctrl+Alt+Shift+G: to the open gate's bar, from anywhere in the panel (a chord, never a character).
    const jump = (e: KeyboardEvent) => {
      if (!isGateKey(e)) return;
      const gate = gateBar();
      if (!gate) return;
      e.preventDefault();
      gate.focus({ preventScroll: true });
      gate.scrollIntoView?.({ block: 'nearest' });
    };
    document.addEventListener('focusin', remember);
    document.addEventListener('keydown', jump);
    window.addEventListener('focus', land);
    return () => {
      document.removeEventListener('focusin', remember);
      document.removeEventListener('keydown', jump);
      window.removeEventListener('focus', land);
    };
  }, [intent]);

  // When a prompt closes, focus would fall to <body>: hand it to the composer instead.
  useEffect(() => {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    root.current
      ?.querySelector<HTMLTextAreaElement>('.pw-composer textarea:not(:disabled)')
      ?.focus({ preventScroll: true });
  }, [prompts, handoffRunning]);

  const dock =
    state.handoff || state.gate || state.interview || state.enterPlanning || state.grantMore ? (
      <div class="pw-dock">
        {state.handoff ? <HandoffProgress handoff={state.handoff} /> : null}
        {state.gate ? (
          <GatePanel
            gate={state.gate}
            disabled={handoffRunning}
            restricted={!state.flags.trusted}
            onFeedbackOpen={setFeedbackOpen}
          />
        ) : null}
        {state.interview ? <InterviewWizard interview={state.interview} disabled={handoffRunning} /> : null}
        {state.enterPlanning ? <EnterPlanningCard prompt={state.enterPlanning} disabled={handoffRunning} /> : null}
        {state.grantMore ? <GrantMoreCard prompt={state.grantMore} disabled={handoffRunning} /> : null}
      </div>
    ) : null;

  // Before the build the plan card is the plan: at the gate the tracker's line shows only once a
  // step has moved (a verify run from the plan file's lens, a plan proposed during the build).
  const t = state.tracker;
  const untouched = t !== null && t.counts.done + t.counts.inProgress + t.counts.blocked === 0;
  const showTracker = t !== null && !(state.gate && state.lifecycle.state !== 'executing' && untouched);

  return (
    <PanelContext.Provider value={services}>
      <div
        ref={root}
        class="pw-app"
        onClick={(e) => {
          const file = fileLinkTarget(e.target);
          if (file) {
            e.preventDefault();
            services.post({ type: 'openFile', ...file });
          }
        }}
      >
        <Header
          lifecycle={state.lifecycle}
          budget={state.budget}
          locked={handoffRunning}
          stake={stake}
          {...(state.flags.provider ? { provider: state.flags.provider } : {})}
        />
        <div class="pw-top">
          {state.setup ? <SetupCard setup={state.setup} /> : <FlagNotices flags={state.flags} />}
          <PanelNotices notices={state.notices} />
        </div>
        {showTracker && state.tracker ? <TodoTree tracker={state.tracker} trusted={state.flags.trusted} /> : null}
        <main class="pw-main">
          <Transcript items={state.transcript} />
        </main>
        {state.lifecycle.waitingSince !== undefined ? <ModelWaiting since={state.lifecycle.waitingSince} /> : null}
        {dock}
        {feedbackOpen && state.gate ? null : (
          <Composer lifecycle={state.lifecycle} disabled={handoffRunning} stake={stake} />
        )}
        <Announcer state={state} />
      </div>
    </PanelContext.Provider>
  );
}
