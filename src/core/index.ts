/**
 * The engine's whole public surface: its six facades (`src/core/api/`) together, the entry of
 * dist/engine.js. Hosts (`src/host`, `src/cli`, `src/node`) import the facade they need, never
 * this module nor any other engine module (`test/arch/layering.test.ts`). What no facade exports
 * is the engine's own business.
 */
export * from './api/basics';
export * from './api/ports';
export * from './api/sessions';
export * from './api/plans';
export * from './api/build';
export * from './api/gate';
