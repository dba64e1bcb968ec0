/**
 * Bench section "confirm": payment confirmed → receipt on screen, with waiting status requests and with polling
 * (2 s → 10 s), on the sandbox and through createCheckoutHandler() (webhooks from the sandbox wake it). Each setup
 * is the built hosted page behind a small front server on its own origin: the page and assets come from the
 * sandbox, `/v1` goes to the backend; for "polling" the front drops `wait`/`since`, as a server without waiting
 * requests would ignore them. A third handler without webhooks shows the fallback: its own polling of the service.
 */
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../src/sandbox/server.js';
import { createCheckoutHandler, memoryClaimStore, toNodeListener } from '../src/server/index.js';
import { chromiumLaunchOptions } from '../test/harness/chromium.mjs';
import { hostedDir, median, waitingPush } from './timing.js';

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** The page's origin: `/v1` to `api`, everything else to the sandbox; `polling` strips the waiting parameters. */
function front(sandboxOrigin: string, api: string, polling: boolean): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://front');
    const target = new URL(url.pathname.startsWith('/v1/') ? api : sandboxOrigin);
    if (polling) ['wait', 'since'].forEach((name) => url.searchParams.delete(name));
    const upstream = httpRequest(
      { hostname: target.hostname, port: target.port, method: req.method, path: url.pathname + url.search, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
}

const demoFixed = { amount: 50_000, description: 'Pedido demo', storeName: 'Tienda Demo' };

export async function benchConfirm(confirmations = 5): Promise<boolean> {
  if (!existsSync(path.join(hostedDir, 'index.html'))) throw new Error('dist/hosted is missing: run `npm run build` first');
  const sandbox: RunningSandbox = await startSandbox({ port: 0, hostedDir });
  const handlerServer = createServer(
    toNodeListener(
      createCheckoutHandler({
        merchantKey: 'mk_test_demo',
        baseUrl: sandbox.baseUrl,
        resolveLink: (hash) => (hash === 'demo-fixed' ? demoFixed : null),
        store: memoryClaimStore(),
        webhookSecret: 'whsec_test_demo',
        // Ten orders for the demo buyer's phone: a latency bench, not an abuse one.
        limits: false,
      }),
    ),
  );
  const handlerOrigin = await listen(handlerServer);
  // No webhooks: the waiting request is answered by the handler's own polling of GET /orders/{id} (every 2 s).
  const pollingHandler = createServer(
    toNodeListener(createCheckoutHandler({ merchantKey: 'mk_test_demo', baseUrl: sandbox.baseUrl, resolveLink: (hash) => (hash === 'demo-fixed' ? demoFixed : null), limits: false })),
  );
  const pollingHandlerOrigin = await listen(pollingHandler);
  // A fresh sandbox for each buyer (demo-fixed is paid once), forwarding its webhooks to the handler.
  const reset = async () => {
    await fetch(`${sandbox.controlUrl}/reset`, { method: 'POST' });
    await fetch(`${sandbox.controlUrl}/forward`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${handlerOrigin}/v1/webhooks` }) });
  };
  const setups = [
    ['sandbox', sandbox.url, false],
    ['sandbox', sandbox.url, true],
    ['handler (webhook wakes it)', handlerOrigin, false],
    ['handler (webhook wakes it)', handlerOrigin, true],
    ['handler (no webhooks, it polls the service)', pollingHandlerOrigin, false],
  ] as const;
  const fronts: Server[] = [];
  const browser = await chromium.launch(chromiumLaunchOptions());
  const rows: [string, string, string, boolean][] = [];
  try {
    for (const [name, api, polling] of setups) {
      const server = front(sandbox.url, api, polling);
      fronts.push(server);
      const origin = await listen(server);
      const delays: number[] = [];
      for (let i = 0; i < confirmations; i++) {
        await reset();
        const { context, page, id } = await waitingPush(browser, sandbox, '3001234567', `${origin}/checkout`);
        // Approvals land at different points of the polling backoff: 2 s, 3.7 s, 5.4 s, ...
        await page.waitForTimeout(2_000 + i * 1_700);
        const approvedAt = Date.now();
        await fetch(`${sandbox.controlUrl}/orders/${id}/approve`, { method: 'POST' });
        const shownAt = await page
          .waitForFunction(() => (document.querySelector('pay-checkout')?.step === 'paid' ? performance.timeOrigin + performance.now() : false), undefined, { polling: 'raf', timeout: 30_000 })
          .then((h) => h.jsonValue() as Promise<number>);
        await context.close();
        delays.push(shownAt - approvedAt);
      }
      const receipt = { median: median(delays), max: Math.max(...delays), all: delays };
      const figure = `${name}: confirmed → receipt, ${polling ? 'polling 2 s → 10 s' : 'waiting request'}`;
      const measured = `median ${Math.round(receipt.median)} ms, max ${Math.round(receipt.max)} ms (${receipt.all.map(Math.round).join(', ')})`;
      // Polling, and the handler's own 2 s polling without webhooks, are shown for comparison, not held to 1 s.
      const gated = !polling && api !== pollingHandlerOrigin;
      rows.push([figure, measured, gated ? '≤ 1 s median' : '— (comparison)', !gated || receipt.median <= 1_000]);
    }
  } finally {
    await browser.close();
    await Promise.all([...fronts, handlerServer, pollingHandler].map((s) => new Promise((resolve) => (s.close(resolve), s.closeAllConnections()))));
    await sandbox.close();
  }
  console.log(`\n## confirm: payment confirmed → receipt on screen, ${confirmations} buyers each, built hosted page in Chromium`);
  for (const [figure, measured, budget, ok] of rows) console.log(`${figure.padEnd(76)}  ${measured.padEnd(60)}  ${budget.padEnd(16)}  ${ok ? 'PASS' : 'OVER'}`);
  return rows.every(([, , , ok]) => ok);
}
