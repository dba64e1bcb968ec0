/**
 * `npm run docs:build`: the documentation site into dist-docs/, servable from any static host at its root.
 * The OpenAPI document from the contract, the pages (Eleventy), the live examples and their Service Worker
 * sandbox (Vite), then the offline search index (pagefind).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Eleventy from '@11ty/eleventy';
import * as pagefind from 'pagefind';
import { buildOpenApiDocument } from '../../src/openapi/index.js';
import { buildLive } from './live-build.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const out = `${root}dist-docs`;
const started = Date.now();
const step = (name: string) => console.log(`docs: ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/openapi.json`, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
step('openapi.json');

process.chdir(root);
const eleventy = new Eleventy('docs/site', 'dist-docs', { configPath: 'docs/tooling/eleventy.config.mjs', quietMode: true });
await eleventy.write();
step('pages');

await buildLive(out);
step('live examples and their Service Worker');

const { index, errors } = await pagefind.createIndex({});
if (!index) throw new Error(`pagefind: ${errors.join('; ')}`);
const added = await index.addDirectory({ path: out });
if (added.errors.length > 0) throw new Error(`pagefind: ${added.errors.join('; ')}`);
await index.writeFiles({ outputPath: `${out}/pagefind` });
await pagefind.close();
step(`search index, ${added.page_count} pages`);
console.log(`docs: built ${out}`);
