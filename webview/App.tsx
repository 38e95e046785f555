/** The panel: header, notices, tracker, transcript, the open prompt, and the composer. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PanelServices } from './context';
import { PanelContext, useViewState } from './context';
import { fileLinkTarget } from './fileRefs';
import type { PanelStore } from './store';
import { Composer } from './components/Composer';
import { GatePanel } from './components/Gate';
import { Header } from './components/Header';
import { SetupCard } from './components/SetupCard';
import { Announcer } from './components/Announcer';
import { InterviewWizard } from './components/InterviewWizard';
import { EnterPlanningCard, FlagNotices, GrantMoreCard, HandoffProgress, PanelNotices } from './components/Prompts';
import { TodoTree } from './components/TodoTree';
import { Transcript } from './components/Transcript';

export function App({ store, services }: { store: PanelStore; services: PanelServices }) {
  const state = useViewState(store);
  const root = useRef<HTMLDivElement>(null);
  // The gate's feedback box takes the composer's place: one text box at a time.
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const handoffRunning = state.handoff !== null;
  const prompts = [state.gate, state.interview, state.enterPlanning, state.grantMore]
    .map((p) => p?.requestId ?? '')
    .join('|');

  // Focusing the view (Focus on Planning View) lands on the open gate or interview, else the composer:
  // the control there that last had focus, or the one the prompt focused first.
  useEffect(() => {
    let last: HTMLElement | null = null;
    const remember = (e: FocusEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest('.pw-dock')) last = t;
    };
    const land = () => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const dock = root.current?.querySelector<HTMLElement>('.pw-dock');
      const target =
        (last && dock?.contains(last) ? last : null) ??
        dock?.querySelector<HTMLElement>('[aria-checked="true"], .pw-choice-primary, button, textarea') ??
        root.current?.querySelector<HTMLTextAreaElement>('.pw-composer textarea:not(:disabled)');
      target?.focus({ preventScroll: true });
    };
    document.addEventListener('focusin', remember);
    window.addEventListener('focus', land);
    return () => {
      document.removeEventListener('focusin', remember);
      window.removeEventListener('focus', land);
    };
  }, []);

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
          {...(state.flags.provider ? { provider: state.flags.provider } : {})}
        />
        {state.setup ? <SetupCard setup={state.setup} /> : <FlagNotices flags={state.flags} />}
        <PanelNotices notices={state.notices} />
        {state.tracker ? <TodoTree tracker={state.tracker} trusted={state.flags.trusted} /> : null}
        <main class="pw-main">
          <Transcript items={state.transcript} />
        </main>
        {dock}
        {feedbackOpen && state.gate ? null : <Composer lifecycle={state.lifecycle} disabled={handoffRunning} />}
        <Announcer state={state} />
      </div>
    </PanelContext.Provider>
  );
}
