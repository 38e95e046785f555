/** The instruction sources a person may choose from (`planwise.instructions.files`), in load order. */
export const INSTRUCTION_SOURCES = [
  'AGENTS.md',
  'CLAUDE.md',
  '.github/copilot-instructions.md',
  '.github/instructions',
] as const;
export type InstructionSource = (typeof INSTRUCTION_SOURCES)[number];

export const DEFAULT_INSTRUCTIONS_MAX_BYTES = 16 * 1024;
