/** `npm run build` step: writes dist/openapi.json (exported as `pay-checkout/openapi.json`) from the contract's schemas. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi/index.js';

import path from 'node:path';

// `tsx build/openapi.ts [OUT]`: the test writes to a scratch file, never to dist/.
const out = process.argv[2] ?? fileURLToPath(new URL('../dist/openapi.json', import.meta.url));
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${out}`);
