/**
 * Without `@opentelemetry/api` (not installed, or an edge runtime that cannot import it by name) the handler still
 * loads and answers, and records nothing: run in a process where resolving the API fails and `EdgeRuntime` is set.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A resolve hook under which `@opentelemetry/api` is not installed. */
const notInstalled = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  'export async function resolve(specifier, context, next) {' +
  '  if (specifier.startsWith("@opentelemetry/")) throw Object.assign(new Error("Cannot find package " + specifier), { code: "ERR_MODULE_NOT_FOUND" });' +
  '  return next(specifier, context);' +
  '}'));
`)}`;

const script = `
globalThis.EdgeRuntime = 'edge-runtime';
const { createCheckoutHandler } = await import('./src/server/index.ts');
let calls = 0;
const handler = createCheckoutHandler({
  merchantKey: 'mk_test_demo',
  baseUrl: 'http://127.0.0.1:9/v1',
  resolveLink: () => null,
  fetch: async () => (calls++, new Response('{}', { status: 503 })),
  onEvent: () => {},
});
const health = await handler(new Request('http://shop.test/v1/health/ready'));
const missing = await handler(new Request('http://shop.test/v1/checkout/links/none'));
let loaded = true;
try { await import('@opentelemetry/api'); } catch { loaded = false; }
console.log(JSON.stringify({ health: health.status, missing: missing.status, calls, apiLoadable: loaded }));
`;

describe('without @opentelemetry/api', () => {
  it('the handler loads on an edge-like runtime and answers; nothing is recorded', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--import', notInstalled, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
    // 404 LINK_NOT_FOUND comes from resolveLink alone; no service call was needed for either answer.
    assert.deepEqual(result, { health: 200, missing: 404, calls: 0, apiLoadable: false });
  });
});
