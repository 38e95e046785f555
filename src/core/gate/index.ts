/**
 * The read-only gate (rules §1): decides, before anything runs, whether a call may run while
 * planning. Shell commands are judged by `judgeCommand`, which returns the verdict together with
 * the parse every consumer reads (programs, words with their kinds, working directories).
 */
export { judgeCommand, GLOB_LIMIT } from './judge';
export { checkPlanningToolCall, type PlanningContext } from './policy';
export { isInsideRoots } from './resolve';
export { allowedPrograms } from './grammar';
export { shapeOfCommand } from './shape';
export type {
  GateContext,
  GateFs,
  GateWork,
  Judgement,
  ParsedCommand,
  ParsedSegment,
  ParsedWord,
  ShapeSegment,
  ToolKind,
  Verdict,
  WordKind,
} from './types';
