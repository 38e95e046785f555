/**
 * The engine's one verify runner as the VS Code host builds it, on first use (a verify run, a plan
 * file's lenses, a session): building it loads the engine. Each run is its own process behind
 * workspace trust (a hung one never blocks the next), under the build side's command policy on the
 * file system as a shell sees it, with the timeout the settings give; results are kept next to
 * each plan (`<stem>.verify.json`), so a reload keeps what ran and was signed off.
 */
import { Verifier, VerifyJournal } from '../../core/api/build';
import { NodeCommandRunner } from '../../node/processRunner';
import type { PlanwiseSettings } from '../config';
import { TrustGatedRunner, type TrustState } from '../trust';
import type { WorkspaceParts } from '../workspaceParts';
import { LazyVerifier } from './lazyVerifier';

export interface HostVerifierDeps {
  readonly trust: TrustState;
  /** The workspace's ports as they are now (the folders may change). */
  readonly ws: () => WorkspaceParts;
  readonly settings: () => PlanwiseSettings;
  readonly log: { warn(line: string): void };
}

export function hostVerifier({ trust, ws, settings, log }: HostVerifierDeps): LazyVerifier {
  return new LazyVerifier(
    () =>
      new Verifier({
        runner: new TrustGatedRunner(trust, new NodeCommandRunner()),
        cwd: () => ws().reader.roots[0]!,
        // The build side's one command policy (rules §9), on the file system as a shell sees it.
        policy: () => ({
          roots: ws().reader.roots,
          trusted: trust.trusted,
          fs: ws().gateFs,
          allowList: settings().buildCommandAllowList,
        }),
        now: Date.now,
        timeoutMs: () => settings().verify.timeoutSeconds * 1000,
        journal: new VerifyJournal({
          reader: { readFile: (f) => ws().reader.readFile(f), stat: (f) => ws().reader.stat(f) },
          writer: {
            writeFileAtomic: (f, text) => ws().writer.writeFileAtomic(f, text),
            mkdirp: (d) => ws().writer.mkdirp(d),
          },
          onError: (file, message) => log.warn(`verify results ${file}: ${message}`),
        }),
      }),
  );
}
