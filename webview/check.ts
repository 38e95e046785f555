/**
 * The panel's check chunk, loaded after the first paint (see store.ts): zod, set up for the
 * panel's CSP first, and the protocol's check of host messages.
 */
import './zodConfig';

export { parseHostMessage } from '../src/protocol/parse';
