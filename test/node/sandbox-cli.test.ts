// `npm run sandbox` and the Vite plugin: both print the URLs (the `base_url:` line is parsed by tooling) and serve the API.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { demoLinks } from '../../src/sandbox/fixtures.js';
import { startViteWithSandbox } from './sandbox-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('sandbox CLI', () => {
  /** The CLI with these flags, once its banner is out. */
  async function startCli(...flags: string[]) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sandbox', '--port', '0', ...flags], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    const stop = async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    };
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner; got ${out}`)), 20_000);
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('document types')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
    } catch (error) {
      await stop();
      throw error;
    }
    return { out, stop };
  }

  test('SIGTERM: a waiting status request is answered at once, a create under way finishes, then it exits', async () => {
    const { out, stop } = await startCli();
    try {
      const base = /^base_url: (\S+)$/m.exec(out)?.[1];
      assert.ok(base, out);
      const origin = base.replace(/\/v1$/, '');
      const buyerCreate = (key: string) =>
        fetch(`${base}/checkout/links/${demoLinks.fixed}/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify({ payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: '12345678', id_type: 1, phone_number: '3001234567' } }),
        });
      const created = ((await (await buyerCreate('cli-wait')).json()) as { data: { id_order: number; status: string; order_token: string } }).data;
      const waiting = fetch(`${base}/checkout/orders/${created.id_order}?wait=25&since=${created.status}`, { headers: { 'X-Order-Token': created.order_token } });
      const fault = await fetch(`${origin}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: '/v1/checkout/links/**', method: 'POST', mode: 'slow_first_byte', latency_ms: 1_500, count: 1 }) });
      assert.equal(fault.status, 200, await fault.text());
      const slow = buyerCreate('cli-slow');
      await new Promise((r) => setTimeout(r, 400));
      const sigtermAt = Date.now();
      await stop();
      const exitedMs = Date.now() - sigtermAt;
      const [waited, finished] = await Promise.all([waiting, slow]);
      assert.equal(waited.status, 200, 'the waiting request got an answer, not a reset');
      assert.equal(((await waited.json()) as { data: { id_order: number } }).data.id_order, created.id_order);
      assert.equal(finished.status, 201, 'the create under way finished');
      assert.ok(exitedMs >= 800 && exitedMs < 10_000, `exited ${exitedMs} ms after SIGTERM: after the slow create, within the grace`);
    } finally {
      await stop();
    }
  });

  test('--no-order-key-dedupe: the same order_key twice makes two orders', async () => {
    const { out, stop } = await startCli('--no-order-key-dedupe');
    try {
      assert.match(out, /order_key dedupe is OFF/);
      const base = /^base_url: (\S+)$/m.exec(out)?.[1];
      assert.ok(base, out);
      const body = { amount: 20_000, description: 'x', currency: 'COP', order_key: 'twice', payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } };
      const ids: number[] = [];
      for (let i = 0; i < 2; i++) {
        const r = await fetch(`${base}/orders`, { method: 'POST', headers: { 'merchant-key': 'mk_test_demo', 'content-type': 'application/json' }, body: JSON.stringify(body) });
        ids.push(((await r.json()) as { data: { id_order: number } }).data.id_order);
      }
      assert.notEqual(ids[0], ids[1]);
    } finally {
      await stop();
    }
  });

  test('--port 0 prints base_url, checkout_url, onboarding_url, control_url and the fixtures, then serves them', async () => {
    const { out, stop } = await startCli();
    try {
      assert.doesNotMatch(out, /dedupe is OFF/);
      const base = /^base_url: (http:\/\/127\.0\.0\.1:\d+)\/v1$/m.exec(out);
      assert.ok(base, out);
      const origin = base[1];
      assert.match(out, new RegExp(`^checkout_url: ${origin}/checkout$`, 'm'));
      assert.match(out, new RegExp(`^openapi: ${origin}/openapi\\.json `, 'm'));
      assert.match(out, new RegExp(`^onboarding_url: ${origin}/onboarding$`, 'm'));
      assert.match(out, new RegExp(`^control_url: ${origin}/sandbox$`, 'm'));
      for (const fixture of ['mk_test_demo', 'pk_test_demo', 'sk_test_demo', 'whsec_test_demo', `${origin}/checkout/demo-fixed`, 'demo-dynamic', 'Bre-B']) assert.ok(out.includes(fixture), fixture);
      const link = await fetch(`${origin}/v1/checkout/links/demo-fixed`);
      assert.equal(link.status, 200);
      assert.equal((await fetch(`${origin}/openapi.json`)).status, 200);
    } finally {
      await stop();
    }
  });

  test('--help prints the usage and exits 0; no command or an unknown one exits 2 with the usage', async () => {
    const runCli = async (...args: string[]) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const [code] = (await once(child, 'exit')) as [number];
      return { code, out };
    };
    const help = await runCli('--help');
    assert.equal(help.code, 0);
    for (const option of ['sandbox', 'serve', 'deliveries', '--port', '--host', '--no-order-key-dedupe']) assert.ok(help.out.includes(option), option);
    const none = await runCli();
    assert.equal(none.code, 2);
    assert.match(none.out, /Usage: pay-checkout/);
    const unknown = await runCli('servee');
    assert.equal(unknown.code, 2);
    assert.match(unknown.out, /unknown command "servee"/);
  });

  test('a port in use exits 1 with a plain sentence, not a stack trace', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as AddressInfo;
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sandbox', '--port', String(port)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      const [code] = (await once(child, 'exit')) as [number];
      assert.equal(code, 1);
      assert.match(err, /cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
      assert.doesNotMatch(err, /\n\s+at /);
    } finally {
      taken.close();
    }
  });

  test('a bad --port exits with an error', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sandbox', '--port', 'abc'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const [code] = (await once(child, 'exit')) as [number];
    assert.equal(code, 2);
  });
});

describe('sandbox Vite plugin', () => {
  test('serves /v1, /sandbox and /onboarding on the dev server, with the 100 KB limit', async () => {
    const { server, origin } = await startViteWithSandbox();
    try {
      const link = await fetch(`${origin}/v1/checkout/links/demo-fixed`);
      assert.equal(link.status, 200);
      const created = await fetch(`${origin}/v1/links`, { method: 'POST', headers: { 'merchant-key': 'mk_test_demo', 'content-type': 'application/json' }, body: JSON.stringify({ description: 'Vite', amount: 5_000 }) });
      const body = (await created.json()) as { data: { payment_url: string } };
      assert.ok(body.data.payment_url.startsWith(`${origin}/checkout/`), 'publicUrl comes from the dev server');
      assert.equal((await fetch(`${origin}/sandbox/fixtures`)).status, 200);
      assert.equal((await fetch(`${origin}/onboarding?platform=demo-partner`)).status, 200);
      const huge = await fetch(`${origin}/v1/links`, { method: 'POST', headers: { 'merchant-key': 'mk_test_demo', 'content-type': 'application/json' }, body: JSON.stringify({ description: 'x'.repeat(120 * 1024) }) });
      assert.equal(huge.status, 413);
    } finally {
      await server.close();
    }
  });
});
