// The CLI as one file: every command bundled in (the tests' builds). The shipped CLI is bin.ts.
import { main } from './main';
import { start } from './start';

start(main);
