/**
 * Sessions: creating and resuming one, the events it emits and the archive that keeps them, its
 * standing, and how a person's words answer its questions.
 */
export type * from '../session/api';
export type * from '../events/types';
export type { AwaitingCheck } from '../session/trackerView';
export type { SessionStanding, TrackerStanding } from '../session/standing';
export type { HandEditOutcome } from '../session/handEdit';
export { createSession, resumeSession } from '../session/session';
export { SessionArchive } from '../events/archive';
export type { InstructionFileInfo, InstructionsConfig } from '../agent/instructions';
export { detectIntent, intentToDecision, normalizeIntentText } from '../lifecycle/intents';
