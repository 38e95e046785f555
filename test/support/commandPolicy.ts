/** The build side's command policy over a test workspace (rules §9), for the Verifiers tests build. */
import type { BuildPolicyContext } from '../../src/core/index';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';

/** A trusted workspace at `root` with the person's allow-list `allowList` (none by default). */
export function policyFor(root: string, allowList: readonly string[] = [], trusted = true): () => BuildPolicyContext {
  let fs: NodeWorkspaceReader | undefined;
  return () => ({ roots: [root], trusted, fs: (fs ??= new NodeWorkspaceReader([root])), allowList });
}

/** A click on a lens or Run button that showed the whole command: the person's yes. */
export const CLICK = { origin: 'person', clicked: true } as const;

/** A person who says no to every command that needs a yes. */
export const NO_ONE = { approveCommand: async () => false } as const;
