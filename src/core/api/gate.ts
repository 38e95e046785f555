/**
 * Commands: the read-only gate (`planwise check-command`) and the build side's one command policy
 * (rules §9), with how a person's permission for a command is asked and kept.
 */
export { judgeCommand, type GateContext, type Judgement } from '../gate';
export {
  allowListProblems,
  decideBuildCommand,
  type BuildDecision,
  type BuildPolicyContext,
} from '../tools/build/buildPolicy';
export {
  permitCommand,
  howToAllow,
  shellQuote,
  type CommandAsk,
  type CommandPermit,
} from '../tools/build/commandPermit';
