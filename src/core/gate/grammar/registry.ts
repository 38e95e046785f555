/**
 * Every grammar file of this folder, one line each: the file's `grammars` (its programs by name,
 * each with the function that builds its grammar) under the file's name. A program is allowed
 * exactly when one of these records names it.
 */
export { grammars as astGrep } from './astGrep';
export { grammars as bat } from './bat';
export { grammars as cargo } from './cargo';
export { grammars as diff } from './diff';
export { grammars as echo } from './echo';
export { grammars as fd } from './fd';
export { grammars as find } from './find';
export { grammars as git } from './git';
export { grammars as grep } from './grep';
export { grammars as info } from './info';
export { grammars as jq } from './jq';
export { grammars as ls } from './ls';
export { grammars as packageManagers } from './packageManagers';
export { grammars as rg } from './rg';
export { grammars as sed } from './sed';
export { grammars as test } from './test';
export { grammars as text } from './text';
export { grammars as tree } from './tree';
