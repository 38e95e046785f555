/**
 * The first-run setup card: where models come from. The presets are data both sides read (the
 * card prefills a base URL per choice; the host knows which need a key); the card's state is the
 * host's (`setup` in the view state); the key itself never crosses: the card asks the host to open
 * VS Code's password box and only learns whether a key is stored.
 */
import * as z from 'zod';
import { PROVIDER_CHOICES } from './presets';

export const ProviderChoiceSchema = z.enum(PROVIDER_CHOICES);

/** The draft the card is editing: what Test connection tries and Save writes. */
export const SetupDraftSchema = z.object({
  choice: ProviderChoiceSchema,
  baseUrl: z.string().max(2000),
  model: z.string().max(500),
});
export type SetupDraft = z.infer<typeof SetupDraftSchema>;

export const SetupStateSchema = z.object({
  /** Why the card shows: nothing works yet, or the person asked (header, Change provider, Settings). */
  reason: z.enum(['first-run', 'requested']),
  draft: SetupDraftSchema,
  /** The base URL as the host would use it, or why it cannot be used (checked on every edit). */
  url: z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), url: z.string(), completed: z.boolean() }),
    z.object({ ok: z.literal(false), error: z.string() }),
  ]),
  /** The endpoint is on this machine or a private network (it usually needs no key). */
  local: z.boolean(),
  hasKey: z.boolean(),
  /** The card offers the key: for every endpoint (optional on this machine), not for VS Code's models. */
  keyRow: z.boolean(),
  /** The endpoint's model list (Select Model), or why it could not be read. */
  models: z
    .object({ status: z.enum(['loading', 'ready', 'failed']), ids: z.array(z.string()), error: z.string().optional() })
    .nullable(),
  /** The last Test connection: one cheap request, and what happened. */
  test: z.object({ status: z.enum(['running', 'ok', 'failed']), text: z.string() }).nullable(),
});
export type SetupState = z.infer<typeof SetupStateSchema>;

/** What the header shows: the provider and model in use (clicking it opens the card). */
export const ProviderLabelSchema = z.object({ label: z.string(), model: z.string() });
export type ProviderLabel = z.infer<typeof ProviderLabelSchema>;

// ---- webview → host ---------------------------------------------------------------------------

/** An edit in the card: the host checks the URL, refreshes the model list when it changed. */
export const SetupEditMessageSchema = z.object({ type: z.literal('setupEdit'), draft: SetupDraftSchema });
export const SetupTestMessageSchema = z.object({ type: z.literal('setupTest'), draft: SetupDraftSchema });
/** Writes planwise.provider, planwise.baseUrl and planwise.planningModel, and closes the card. */
export const SetupSaveMessageSchema = z.object({ type: z.literal('setupSave'), draft: SetupDraftSchema });
export const SetupCloseMessageSchema = z.object({ type: z.literal('setupClose') });
