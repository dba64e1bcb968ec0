/**
 * examples/server-opentelemetry.ts as an operator runs it, against the sandbox: a Nequi payment (create, replay,
 * approval webhook) and a refused webhook through it, then its /metrics scraped and checked by `promtool check metrics`
 * (Debian's `prometheus` package); then SIGTERM ends it cleanly.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { postOrder } from './handler-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let sandbox: RunningSandbox;
let example: ChildProcess | undefined;

/** The example on free ports; resolves with its buyer API and metrics URLs once both listen. */
async function startExample(): Promise<{ api: string; metrics: string; out: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server-opentelemetry.ts'], {
    cwd: root,
    env: { ...process.env, MERCHANT_KEY: 'mk_test_demo', SANDBOX_URL: sandbox.url, PORT: '0', METRICS_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  example = child;
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not start: ${out}`)), 30_000);
    const check = () => {
      const api = /Buyer API on (http:\/\/\S+?)\/v1/.exec(out)?.[1];
      const metrics = /Metrics on (http:\/\/\S+)/.exec(out)?.[1];
      if (api && metrics) {
        clearTimeout(timer);
        resolve({ api, metrics, out: () => out });
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`the example exited with ${code}: ${out}`)));
  });
}

before(async () => {
  sandbox = await startSandbox({ port: 0, defaultReceiver: false, guard: { allowedForwards: 'loopback' } });
});
after(async () => {
  if (example && example.exitCode === null && example.signalCode === null) {
    const exited = once(example, 'exit');
    example.kill('SIGKILL');
    await exited;
  }
  await sandbox?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('examples/server-opentelemetry.ts', () => {
  it("its /metrics passes promtool check metrics, with the handler's metrics in it", async (t) => {
    const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
    assert.ok(!promtool.error, 'promtool is not installed: `apt-get install prometheus` (Debian) provides it; this test cannot check the metrics without it');

    const { api, metrics, out } = await startExample();
    assert.equal((await fetch(`${sandbox.url}/sandbox/forward`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${api}/v1/webhooks` }) })).status, 200);
    const created = await postOrder(api, 'otel-example-1');
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal((await postOrder(api, 'otel-example-1')).status, 200);
    // A buyer waits for the approval: the waiting-requests gauge moves.
    const order = created.body.data as { id_order: number; status: string; order_token: string };
    const waiting = fetch(`${api}/v1/checkout/orders/${order.id_order}?wait=10&since=${order.status}`, { headers: { 'X-Order-Token': order.order_token } });
    await sleep(300);
    assert.equal((await fetch(`${sandbox.url}/sandbox/orders/${order.id_order}/approve`, { method: 'POST' })).status, 200);
    assert.equal((await waiting).status, 200);
    assert.equal((await fetch(`${api}/v1/webhooks`, { method: 'POST', body: '{}' })).status, 401);

    let text = '';
    for (const limit = Date.now() + 10_000; !text.includes('pay_checkout_webhook_deliveries_total{') || !/outcome="processed"/.test(text); await sleep(100)) {
      if (Date.now() > limit) assert.fail(`the webhook never showed in /metrics:\n${text}`);
      const scrape = await fetch(metrics);
      assert.equal(scrape.status, 200);
      assert.match(scrape.headers.get('content-type') ?? '', /^text\/plain/);
      text = await scrape.text();
    }
    for (const name of [
      'http_server_request_duration_bucket',
      'http_client_request_duration_bucket',
      'pay_checkout_order_creates_total',
      'pay_checkout_claim_store_duration_bucket',
      'pay_checkout_webhook_deliveries_total',
      'pay_checkout_status_waits_active',
    ]) {
      assert.ok(text.includes(`${name}{`), `${name} is missing from /metrics:\n${text}`);
    }
    assert.match(text, /pay_checkout_order_creates_total\{[^}]*pay_checkout_gateway_kind="push"[^}]*pay_checkout_outcome="replayed"[^}]*\} 1/);
    assert.match(text, /http_server_request_duration_count\{[^}]*http_route="\/v1\/checkout\/links\/\{hash\}\/orders"/);

    let checked: string;
    try {
      checked = execFileSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      const { status, stdout, stderr } = error as { status: number; stdout: string; stderr: string };
      assert.fail(`promtool check metrics exited ${status}:\n${stdout}${stderr}\n--- scraped:\n${text}`);
    }
    t.diagnostic(`promtool check metrics: exit 0 over ${text.split('\n').filter((line) => line && !line.startsWith('#')).length} samples${checked ? `: ${checked}` : ''}`);

    // Its structured events are JSON lines, and SIGTERM closes it cleanly.
    const exited = once(example!, 'exit');
    example!.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0);
    const events = out()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { name: string });
    assert.ok(events.some((e) => e.name === 'webhook_refused'), out());
    assert.ok(events.some((e) => e.name === 'shutdown_finished'), out());
  });
});
