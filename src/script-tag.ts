/**
 * The script-tag build's entry (dist/pay-checkout.js, what `serve` and a CDN serve by URL): `<pay-checkout>` registered
 * as by `define.ts`, and a lazy chunk gone with an upgrade loads the page again under the new script
 * (element/internal/new-build.ts): this script is cached 5 minutes by its URL, its chunks have names of their own.
 * The hosted page and bundles import `define.ts` instead: the hosted page is never cached, a bundle's chunks are the app's.
 */
import { chunkFailed, chunkHooks } from './element/internal/new-build.js';

chunkHooks.failed = chunkFailed;

export * from './define.js';
