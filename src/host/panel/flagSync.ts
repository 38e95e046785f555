/**
 * The panel's flags follow what they show: a change of the key store, the settings or workspace
 * trust sends them again. Secret storage's first answer sends them too, and opens the first-run
 * setup card when no provider works; a key stored or removed reaches the setup card. Trust granted
 * also asks for the plan lenses again and is logged: Restricted Mode is one banner, the panel's,
 * from `flags.trusted`, with its Trust Workspace button.
 */
import type { DeltaOp, Flags } from '../../protocol';
import type { ConfigService } from '../configService';
import { DisposableStore, type Disposable } from '../disposables';
import type { ApiKeyStore } from '../secrets';
import { setupNeeded, type SetupService } from '../setup/setupService';
import type { TrustState } from '../trust';

export interface FlagSyncDeps {
  readonly flags: () => Flags;
  readonly update: (ops: readonly DeltaOp[]) => void;
  readonly keys: Pick<ApiKeyStore, 'onDidChange' | 'hasKey'>;
  readonly config: Pick<ConfigService, 'onDidChange' | 'settings'>;
  readonly trust: Pick<TrustState, 'onDidChange'>;
  readonly setup: Pick<SetupService, 'open' | 'keyChanged'>;
  readonly lensesChanged: () => void;
  readonly log: { info(line: string): void };
}

/** Subscribes the panel's flags and the setup card to their sources; returns the subscriptions. */
export function syncFlags({ flags, update, keys, config, trust, setup, lensesChanged, log }: FlagSyncDeps): Disposable {
  const store = new DisposableStore();
  const updateFlags = () => update([{ op: 'flags.set', flags: flags() }]);
  store.add(keys.onDidChange(updateFlags));
  store.add(config.onDidChange(updateFlags));
  // The first-run card waits for secret storage before deciding that no provider works.
  void keys.hasKey().then((hasKey) => {
    updateFlags();
    if (setupNeeded(config.settings, hasKey)) setup.open('first-run');
  });
  store.add(keys.onDidChange(() => setup.keyChanged()));
  store.add(
    trust.onDidChange(() => {
      updateFlags();
      lensesChanged();
      log.info('workspace trust granted: shell commands and verify runs are on');
    }),
  );
  return store;
}
