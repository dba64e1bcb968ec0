/**
 * Bench section "platform": `pay-checkout serve` in partner mode holding 1,000 connected shops, in one run.
 * - Creates/s through partner mode (buyers on links spread over every shop) against single-shop `serve` (links from a
 *   shop's app), loaded in turn round after round against one sandbox process, both on one Redis. Goal: at least 0.9×.
 * - Memory per connected shop: serve's resident memory, and Redis's, before the shops and after they are connected,
 *   each with a link and an order.
 * - Isolation under a flood: one shop's buyers (a steady pace, as real buyers come) measured alone, then while another
 *   shop's links are flooded by many clients from many addresses. Goal: the quiet shop's p99 within 1.5× of alone.
 *   The steady pace is a tenth of the creates/s partner mode took in the rounds: ordinary traffic on this machine now.
 * Shops register over the API (`POST /v1/stores`, each from its own address) and connect through the sandbox's partner
 * onboarding, which sends serve `store_onboarded` as the service would.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { createClient } from 'redis';
// @ts-expect-error plain ESM test infrastructure shared with web-test-runner; typed by its JSDoc only
import { startSandbox as startSandboxProcess } from '../test/harness/sandbox-process.mjs';
import { startRedis } from '../test/node/redis-harness.js';
import { runLoad, runPaced, type LoadResult } from './load.js';
import { print } from './sandbox.js';
import { createOn, startLinksApp, startServeProcess } from './serve.js';

export interface PlatformBenchOptions {
  durationMs: number;
  concurrency: number;
  warmupMs: number;
  /** Connected shops; default 1,000. */
  shops?: number;
  /** Rounds of the two create phases loaded in turn; default 3. */
  rounds?: number;
}

interface Shop {
  storeId: string;
  apiKey: string;
  /** What its connect_url carries through onboarding as `external_store_id`: its id and its connect token. */
  external: string;
  hashes: string[];
}

/** Each create's own number across the section: its key, address and document are never reused. */
let sequence = 0;
const next = () => sequence++;

/** Resident memory of process `pid` in bytes (Linux); null elsewhere. */
function rssOf(pid: number | undefined): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU (user + system) spent so far by process `pid`, in ms (Linux); null elsewhere. */
function cpuMsOf(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The shops' notify endpoint, one for all of them: takes every notice (store.connected) with 204, and counts them. */
async function startNoticeSink(): Promise<{ url: string; taken: () => number; close: () => Promise<void> }> {
  let taken = 0;
  const server = http.createServer((request, response) => {
    request.resume().on('end', () => {
      taken += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    taken: () => taken,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T, R>(items: T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let at = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (at < items.length) {
        const index = at++;
        results[index] = await work(items[index] as T, index);
      }
    }),
  );
  return results;
}

/**
 * `send()`'s answer, sent again when the connection was never made (a loaded machine's accept queue can take longer
 * than fetch's 10 s connect timeout) or was reset under it (a keep-alive socket the server closed as it was reused).
 * The server then most likely never read the request; if it did, the bench registers one shop more, or onboards one
 * twice (the sandbox's second store_onboarded for a connected shop changes nothing the bench measures).
 */
async function json(send: () => Promise<Response>, what: string): Promise<{ data: Record<string, unknown> }> {
  let response: Response | undefined;
  for (let attempt = 1; !response; attempt++) {
    response = await send().catch((error: unknown) => {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      if (attempt < 5 && (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ECONNREFUSED' || code === 'ECONNRESET')) return undefined;
      throw new Error(`${what}: ${error instanceof Error ? `${error.message} (${String(error.cause)})` : String(error)}`);
    });
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${what}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as { data: Record<string, unknown> };
}

/** Runs the flood (flood-worker.ts) in a worker thread; resolves with its result. */
function floodInThread(data: { origin: string; hashes: string[]; concurrency: number; durationMs: number; warmupMs: number; first: number }): Promise<LoadResult> {
  // A thread does not take the TypeScript loader the bench runs under: it registers tsx's, then loads the flood.
  const entry = new URL('./flood-worker.ts', import.meta.url).href;
  const loader = import.meta.resolve('tsx/esm/api');
  const worker = new Worker(`import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`, { eval: true, workerData: data });
  return new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the flood's thread exited with ${code} before its result`)));
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const pad = ''.padEnd(52);

export async function benchPlatform(options: PlatformBenchOptions): Promise<boolean> {
  const shopCount = Math.max(2, options.shops ?? 1_000);
  const rounds = Math.max(1, options.rounds ?? 3);
  console.log(`\n## platform: pay-checkout serve in partner mode with ${shopCount.toLocaleString('en')} connected shops, against single-shop serve, same sandbox and Redis (--no-order-key-dedupe; never reset, which would forget the shops)`);
  const sandbox = (await startSandboxProcess({ args: ['--no-order-key-dedupe'] })) as { baseUrl: string; origin: string; stop: () => void } | null;
  if (!sandbox) throw new Error('the sandbox CLI is missing');
  const control = (route: string, body: unknown) =>
    fetch(`${sandbox.origin}/sandbox${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const redis = await startRedis();
  const redisClient = createClient({ url: redis.url });
  await redisClient.connect();
  const redisMemory = async () => Number(/used_memory:(\d+)/.exec(await redisClient.info('memory'))?.[1] ?? NaN);
  const app = await startLinksApp();
  const sink = await startNoticeSink();
  const children: ChildProcess[] = [];
  try {
    const common = {
      PAY_CHECKOUT_BASE_URL: sandbox.baseUrl,
      PAY_CHECKOUT_REDIS_URL: redis.url,
      PAY_CHECKOUT_SECRET: 'bench-order-token-secret-0123456789',
      PAY_CHECKOUT_TRUST_PROXY: '1',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    const single = await startServeProcess({
      ...common,
      PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
      PAY_CHECKOUT_LINKS_URL: app.url,
      PAY_CHECKOUT_APP_SECRET: 'bench-app-secret-0123456789',
      PAY_CHECKOUT_WEBHOOK_SECRET: 'whsec_test_demo',
    });
    children.push(single.child);
    const partner = await startServeProcess({
      ...common,
      PAY_CHECKOUT_PARTNER_KEY: 'pk_test_demo',
      PAY_CHECKOUT_PARTNER_SECRET: 'sk_test_demo',
      PAY_CHECKOUT_PARTNER_WEBHOOK_SECRET: 'whsec_test_demo',
      PAY_CHECKOUT_KEYS: randomBytes(32).toString('base64'),
      // The shops' notify URLs are this machine's: allowed for the bench as for the tests.
      PAY_CHECKOUT_ALLOW_LOCAL_SHOPS: '1',
    });
    children.push(partner.child);
    // The partner account's webhooks (store_onboarded) reach partner mode's one webhook URL.
    await json(() => control('/forward', { url: `${partner.url}/v1/webhooks` }), 'POST /sandbox/forward');

    // Warmed as long-running servers are, before the memory baseline.
    await runLoad({ origin: single.url, request: (n) => createOn(`bench-link-${n % 200}`, next()), concurrency: options.concurrency, durationMs: options.durationMs / 2, warmupMs: 0 });
    const rssBefore = rssOf(partner.child.pid);
    const redisBefore = await redisMemory();

    // 1,000 shops register, each from its own address (registration is limited per address), and connect.
    const startedAt = performance.now();
    const registered = await inParallel(Array.from({ length: shopCount }, (_, i) => i), 16, async (i) => {
      const response = () => fetch(`${partner.url}/v1/stores`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `172.16.${(i >>> 8) & 255}.${i & 255}` },
        body: JSON.stringify({ name: `Tienda ${i + 1}`, notify_url: `${sink.url}/shop-${i + 1}/notify`, allowed_origins: [`http://127.0.0.1:${10_000 + i}`] }),
      });
      const { data } = await json(response, 'POST /v1/stores');
      const external = `${String(data.store_id)}.${new URL(String(data.connect_url)).searchParams.get('token') ?? ''}`;
      return { storeId: String(data.store_id), apiKey: String(data.api_key), external, hashes: [] } as Shop;
    });
    const registeredMs = performance.now() - startedAt;
    await inParallel(registered, 8, async (shop, i) =>
      json(() => control('/onboarding', { platform: 'demo-partner', store_name: `Tienda ${i + 1}`, external_store_id: shop.external }), 'POST /sandbox/onboarding'),
    );
    const me = (shop: Shop) => fetch(`${partner.url}/v1/stores/me`, { headers: { authorization: `Bearer ${shop.apiKey}` } });
    const deadline = Date.now() + 120_000;
    await inParallel(registered, 16, async (shop) => {
      for (;;) {
        const { data } = await json(() => me(shop), 'GET /v1/stores/me');
        if (data.status === 'connected') return;
        if (Date.now() > deadline) throw new Error(`shop ${shop.storeId} still ${String(data.status)} 2 minutes after its onboarding`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    const connectedMs = performance.now() - startedAt;
    // Each shop is told it is connected (store.connected): let those deliveries finish before anything is measured.
    const noticesBy = Date.now() + 120_000;
    while (sink.taken() < shopCount && Date.now() < noticesBy) await new Promise((resolve) => setTimeout(resolve, 100));

    // A link per shop (twenty for the two of the flood, so neither meets the per-link limit first), by the shops' own API.
    const linksPer = (i: number) => (i < 2 ? 20 : 1);
    await inParallel(registered, 16, async (shop, i) => {
      for (let l = 0; l < linksPer(i); l++) {
        const response = () => fetch(`${partner.url}/v1/stores/me/links`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${shop.apiKey}`, 'idempotency-key': `bench-link-${i}-${l}` },
          body: JSON.stringify({ description: 'Camiseta talla M', amount: 50_000, reference: `bench-${i}-${l}` }),
        });
        shop.hashes.push(String((await json(response, 'POST /v1/stores/me/links')).data.hash));
      }
    });
    const hashes = registered.flatMap((shop) => shop.hashes);
    // Each shop's first link in turn: the two shops of the flood have twenty, and twenty of one shop's creates in a row
    // would meet its share (16 under way) rather than measure partner mode.
    const firstLinks = registered.map((shop) => shop.hashes[0] as string);
    const onPartner = (n: number) => createOn(firstLinks[n % firstLinks.length] as string, next());
    const onSingle = (n: number) => createOn(`bench-link-${n % 200}`, next());
    // One round over every shop's link, so every shop's key has been opened once, then warm partner mode as well.
    await runLoad({ origin: partner.url, request: onPartner, concurrency: options.concurrency, durationMs: options.durationMs / 2, warmupMs: 0 });
    const rssAfter = rssOf(partner.child.pid);
    const redisAfter = await redisMemory();
    console.log(
      `${shopCount.toLocaleString('en')} shops registered in ${(registeredMs / 1000).toFixed(1)} s, connected through the onboarding by ${(connectedMs / 1000).toFixed(1)} s, ${sink.taken().toLocaleString('en')} notices taken, ${hashes.length.toLocaleString('en')} links`,
    );
    if (rssBefore !== null && rssAfter !== null) {
      console.log(
        `memory per connected shop: serve ${kb((rssAfter - rssBefore) / shopCount)} resident (${mb(rssBefore)} → ${mb(rssAfter)}), Redis ${kb((redisAfter - redisBefore) / shopCount)} (${mb(redisBefore)} → ${mb(redisAfter)})`,
      );
    }

    // Creates/s: partner mode over every shop's links against single-shop serve, in turn.
    const phases = [
      { name: 'single-shop serve, links from the app', origin: single.url, pid: single.child.pid, request: onSingle },
      { name: `partner mode, links of ${shopCount.toLocaleString('en')} shops`, origin: partner.url, pid: partner.child.pid, request: onPartner },
    ];
    console.log(`${rounds} rounds of ${(options.durationMs / 1000).toFixed(0)} s per phase, ${options.concurrency} clients; load average (1 min) on ${availableParallelism()} cores at each phase's start`);
    const ratios: number[] = [];
    const partnerRates: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? phases : [...phases].reverse();
      const results = new Map<string, LoadResult & { created: number; cpu: number | null; busy: number }>();
      for (const phase of order) {
        const [busy = 0] = loadavg();
        const cpuBefore = cpuMsOf(phase.pid);
        const from = process.hrtime.bigint() / 1000n;
        const load = await runLoad({ origin: phase.origin, request: phase.request, concurrency: options.concurrency, durationMs: options.durationMs, warmupMs: options.warmupMs });
        // Under PAY_BENCH_PROF_DIR, the phase's window on the monotonic clock (µs), for `bench/cpu-profile.mjs FILE 30 WINDOWS`.
        if (process.env.PAY_BENCH_PROF_DIR) console.log(`${pad} profile window of ${phase.name} (pid ${phase.pid}): ${from}-${process.hrtime.bigint() / 1000n}`);
        const cpuAfter = cpuMsOf(phase.pid);
        // Only creates answered 2xx count: a refusal is quicker than a create and would flatter either side.
        const created = load.perSecond * (1 - load.errorCount / Math.max(1, load.requests));
        const cpu = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / Math.max(1, load.requests);
        print(`round ${round}: ${phase.name}`, load);
        results.set(phase.name, { ...load, created, cpu, busy });
          }
      const [one, many] = phases.map((phase) => results.get(phase.name)!);
      const ratio = many!.created / one!.created;
      ratios.push(ratio);
      partnerRates.push(many!.created);
      const cpu = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(2)} ms`);
      console.log(`${pad} load ${one!.busy.toFixed(1)} / ${many!.busy.toFixed(1)}; partner mode ${ratio.toFixed(2)}× single-shop creates/s; CPU per create: single ${cpu(one!.cpu)}, partner ${cpu(many!.cpu)}`);
    }
    const ratio = median(ratios);
    console.log(`partner mode, median of ${rounds} rounds: ${ratio.toFixed(2)}× single-shop serve's creates/s (goal ≥ 0.9×)`);

    // A flood on one shop's links, another shop's buyers at a steady pace: p99 alone, then during the flood.
    const [flooded, quiet] = registered as [Shop, Shop];
    const quietRequest = (n: number) => createOn(quiet.hashes[n % quiet.hashes.length] as string, next());
    // A tenth of what partner mode took in the rounds above: a shop's ordinary traffic, never enough alone to queue.
    // At most 80 a second: under a shop's rate on an instance (PAY_CHECKOUT_SHOP_RATE, 100 by default), as an ordinary
    // shop is; above it the quiet shop would be refused for its own pace, not measured beside the flood.
    const perSecond = Math.min(80, Math.max(2, Math.round(median(partnerRates) / 10)));
    const pace = { origin: partner.url, request: quietRequest, perSecond, durationMs: options.durationMs * 2 };
    const alone = await runPaced(pace);
    print(`quiet shop, ${perSecond} creates/s, alone`, alone);
    // The flood from a thread of its own, so its spinning clients never hold up the quiet shop's timings in this one.
    const flood = floodInThread({ origin: partner.url, hashes: flooded.hashes, concurrency: options.concurrency * 2, durationMs: pace.durationMs + 1_000, warmupMs: 500, first: 1_000_000_000 + next() });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const floodFrom = process.hrtime.bigint() / 1000n;
    const during = await runPaced(pace);
    if (process.env.PAY_BENCH_PROF_DIR) console.log(`${pad} profile window of the flood (pid ${partner.child.pid}): ${floodFrom}-${process.hrtime.bigint() / 1000n}`);
    const flooding = await flood;
    print(`quiet shop, ${perSecond} creates/s, during the flood`, during);
    print(`flood on one shop's links, ${options.concurrency * 2} clients`, flooding);
    const slower = during.p99Ms / alone.p99Ms;
    // The flood beyond its shop's share is refused (429); none of it, and none of the quiet shop's, may be a 5xx.
    const failed = [flooding, during].reduce((sum, r) => sum + Object.entries(r.errors).filter(([status]) => status === 'network' || Number(status) >= 500).reduce((n, [, count]) => n + count, 0), 0);
    console.log(`the flooded shop's creates refused with 429: ${(flooding.errors['429'] ?? 0).toLocaleString('en')} of ${flooding.requests.toLocaleString('en')}; 5xx or failed connections in the flood and the quiet shop: ${failed}`);
    console.log(`the quiet shop's p99 during another shop's flood: ${slower.toFixed(2)}× its p99 alone (goal ≤ 1.5×)`);
    return ratio >= 0.9 && slower <= 1.5 && failed === 0 && during.errorCount === 0;
  } finally {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await redisClient.quit().catch(() => undefined);
    await redis.stop();
    await app.close();
    await sink.close();
    sandbox.stop();
  }
}
