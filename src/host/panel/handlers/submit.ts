import type { Handler } from './types';

/** Composer text. Blank text never reaches the session. */
export const submit: Handler<'submit'> = async (message, { actions }) => {
  const text = message.text.trim();
  if (text === '') return;
  await actions.submit(text);
};
