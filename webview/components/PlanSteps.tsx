/**
 * The plan card's steps as the engine parsed them: a title, file chips and verify pills (a command
 * runs through the same runner as the CodeLens; a check is what a person confirms). The plan as
 * written, with its `-> files: [..] -> verify: [..]` syntax, stays in the file and one click away.
 */
import type { PlanView } from '../../src/protocol';
import { usePanel } from '../context';
import { Icon } from '../ui/Icon';
import { FileLink } from './FileLink';
import { RichText } from './RichText';

export function PlanSteps({ view, runnable, planFile }: { view: PlanView; runnable: boolean; planFile: string }) {
  const { post } = usePanel();
  return (
    <div class="pw-plan-view">
      {view.title ? <h3 class="pw-plan-name">{view.title}</h3> : null}
      {view.summary ? <RichText text={view.summary} format="markdown" class="pw-plan-summary" /> : null}
      <ol class="pw-plan-steps">
        {view.steps.map((s) => (
          <li key={s.index} class="pw-plan-step">
            <RichText text={s.title} format="inline" class="pw-plan-step-title" />
            {s.files.length > 0 ? (
              <div class="pw-chips" aria-label="Files">
                {s.files.map((f) => (
                  <FileLink key={f} path={f} />
                ))}
              </div>
            ) : null}
            {s.verify.length > 0 ? (
              <div class="pw-pills" aria-label="Verify">
                {s.verify.map((e) =>
                  e.kind === 'command' && runnable ? (
                    <button
                      type="button"
                      key={e.text}
                      class="pw-pill pw-pill-run"
                      title={`Run ${e.command ?? e.text}`}
                      onClick={() =>
                        post({
                          type: 'runVerify',
                          ...(planFile ? { planFile } : {}),
                          itemPath: String(s.index),
                          entry: e.text,
                        })
                      }
                    >
                      <Icon name="play" /> <code>{e.command ?? e.text}</code>
                    </button>
                  ) : (
                    <span key={e.text} class={`pw-pill pw-pill-${e.kind}`}>
                      <Icon name={e.kind === 'command' ? 'terminal' : 'eye'} />{' '}
                      {e.kind === 'command' ? <code>{e.command ?? e.text}</code> : e.text}
                    </span>
                  ),
                )}
              </div>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
