/**
 * The panel's flags (key known, trust, provider), from the parts `activate()` builds: the panel's
 * first page carries them before dist/host.js has loaded, and the host sends them again whenever
 * one changes.
 */
import type { Flags } from '../../protocol';
import { isLocalEndpoint } from '../config';
import type { ConfigService } from '../configService';
import type { ApiKeyStore } from '../secrets';
import { providerLabel, setupNeeded } from '../setup/setupService';
import type { TrustState } from '../trust';

export interface FlagSources {
  readonly keys: Pick<ApiKeyStore, 'known' | 'checked'>;
  readonly config: Pick<ConfigService, 'settings'>;
  readonly trust: Pick<TrustState, 'trusted'>;
}

export function panelFlags({ keys, config, trust }: FlagSources): Flags {
  const hasApiKey = keys.known.length > 0;
  return {
    hasApiKey,
    keyChecked: keys.checked,
    keyRequired: config.settings.provider !== 'vscode-lm' && !isLocalEndpoint(config.settings.baseUrl),
    trusted: trust.trusted,
    // The header names a provider only when one works: not the defaults of a first run, nor an
    // endpoint that needs a key nobody stored.
    ...(setupNeeded(config.settings, hasApiKey) ? {} : { provider: providerLabel(config.settings) }),
  };
}
