/**
 * Events about what the session reads from the repository for its agents: the instruction files
 * (their paths and sizes, computed once here) and the MCP tools on offer. Every host shows these
 * facts as they come: the panel's row, the CLI's line, the session archive.
 */
import type { InstructionFileInfo } from '../agent/instructions';

export type InstructionEventBody =
  | {
      /**
       * The instruction block an agent's requests carry from this turn on: at its first turn, and
       * again after a file changed. `files` is empty when none applies.
       */
      readonly type: 'instructions.loaded';
      readonly turn_id: string;
      readonly agent: 'plan' | 'build';
      readonly files: readonly InstructionFileInfo[];
      /** Some text was left out at the bound (`max_bytes`); the model was told so too. */
      readonly truncated: boolean;
      readonly max_bytes: number;
      /** `start`: the agent's first turn; `changed`: a file changed since the previous turn. */
      readonly reason: 'start' | 'changed';
    }
  | {
      /** Instructions added to one tool call's result: a nested AGENTS.md, a scoped file first matched. */
      readonly type: 'instructions.added';
      readonly turn_id: string;
      readonly call_id: string;
      readonly files: readonly InstructionFileInfo[];
      readonly truncated: boolean;
      readonly max_bytes: number;
    };
