/**
 * Imported first by main.tsx, before any schema is built: zod would otherwise probe for `eval`
 * (`new Function`) to compile fast parsers, which the panel's CSP forbids and reports.
 */
import * as z from 'zod';

z.config({ jitless: true });
