/**
 * The window's small surfaces follow the session: the status-bar item, the context keys (menus and
 * the palette), and the lenses when a plan's gate opens or closes.
 */
import type { ContextInputs } from '../contextKeys';
import { contextKeyValues } from '../contextKeys';
import type { ContextKeySync } from '../contextKeySync';
import type { SessionController } from '../session/controller';
import type { GrantAsk } from './format';
import type { BudgetStatusBar } from './statusBar';

export interface SurfaceSyncDeps {
  readonly controller: SessionController;
  /** A limit the engine asks the person to raise, while it waits for the answer. */
  readonly grantAsk: () => GrantAsk | null;
  /** What redraws them: the session's events, the controller, the pending requests. */
  readonly changes: readonly ((listener: () => void) => { dispose(): void })[];
  readonly statusBar: BudgetStatusBar;
  readonly contextKeys: ContextKeySync;
  readonly lensesChanged: () => void;
}

export function syncSurfaces(deps: SurfaceSyncDeps): { plansOnDisk(any: boolean): void; dispose(): void } {
  const { controller } = deps;
  let plansOnDisk = false;
  let lastGate: string | undefined;
  const refresh = () => {
    deps.statusBar.update(controller.current?.standing, deps.grantAsk());
    const inputs: ContextInputs = controller.contextInputs();
    deps.contextKeys.apply(contextKeyValues({ ...inputs, hasPlan: inputs.hasPlan || plansOnDisk }));
    const current = controller.current;
    const gate = current?.state === 'awaiting_approval' ? (current.planFile ?? '') : '';
    if (gate !== lastGate) {
      lastGate = gate;
      deps.lensesChanged();
    }
  };
  const subs = deps.changes.map((on) => on(refresh));
  return {
    plansOnDisk(any) {
      plansOnDisk = any;
      refresh();
    },
    dispose: () => subs.forEach((s) => s.dispose()),
  };
}
