/**
 * The handler's own JavaScript per create, in one process, without sockets: creates answered by the handler's native
 * entry (as `toNodeListener` calls it) with the service's answers recorded once from a sandbox and replayed. What it
 * measures is this package's code (routing, the body, zod, HMACs, the claim, the answer) and nothing of the kernel or
 * of the machine's other processes, so a change of a few percent shows. `node --import tsx bench/handler-inprocess.ts
 * [--creates 20000] [--rounds 5]`; with `--cpu-prof` before `--import` it writes a profile of just that code.
 */
import { parseArgs } from 'node:util';
import { createCheckoutHandler } from '../src/server/index.js';
import { nativeEntryOf, type Incoming } from '../src/server/http/incoming.js';
import { nodeFetch } from '../src/server/node/fetch.js';
import { lazyRequest } from '../src/server/node/native.js';
import { timesOutItself } from '../src/client/timed-send.js';
import { startTestSandbox } from '../test/node/sandbox-harness.js';

const { values } = parseArgs({ options: { creates: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' } } });
const sandbox = await startTestSandbox({}, {});
const real = nodeFetch() ?? globalThis.fetch;
/** The service's answer per method and path kind, recorded from the sandbox the first time it is asked. */
const recorded = new Map<string, { status: number; headers: [string, string][]; text: string }>();
const replay = timesOutItself(async (input: string | URL | Request, init: RequestInit = {}) => {
  const url = String(input);
  const key = `${init.method ?? 'GET'} ${new URL(url).pathname.replace(/\d+/g, 'N')}`;
  let answer = recorded.get(key);
  if (!answer) {
    const response = await real(url, init);
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => headers.push([name, value]));
    recorded.set(key, (answer = { status: response.status, headers, text: await response.text() }));
  }
  const { status, text } = answer;
  const headers = new Headers(answer.headers);
  // As node-fetch.ts hands MerchantClient an answer already in memory.
  let used = false;
  return { status, statusText: '', ok: status < 300, headers, get bodyUsed() { return used; }, text: async () => ((used = true), text), json: async () => ((used = true), JSON.parse(text)) } as unknown as Response;
});

const handler = createCheckoutHandler({
  merchantKey: 'mk_test_demo',
  baseUrl: `${sandbox.origin}/v1`,
  resolveLink: () => ({ amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo' }),
  webhookSecret: 'whsec_test_demo',
  limits: false,
  fetch: replay,
  onError: (error) => console.error(error),
});
const answer = nativeEntryOf(handler)!;
const body = new TextEncoder().encode(JSON.stringify({ payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } }));
const controller = new AbortController();

/** A create as the native Node path builds it (node-native.ts's NodeIncoming), minus the socket. */
const incoming = (n: number): Incoming => {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': `inproc-${process.pid}-${n}`, host: 'shop.test' };
  const get = (name: string) => headers[name.toLowerCase()] ?? null;
  return {
    method: 'POST',
    path: '/v1/checkout/links/bench/orders',
    searchParams: new URLSearchParams(),
    headers: { get },
    body: { headers: { get }, readWithin: async () => body },
    aborted: false,
    signal: controller.signal,
    socketAddress: '127.0.0.1',
    // Made on first touch, as on the native path; this bench's resolveLink never touches it.
    request: lazyRequest(() => new Request('http://shop.test/v1/checkout/links/bench/orders', { method: 'POST', headers })),
  };
};

let n = 0;
const run = async (count: number) => {
  for (let i = 0; i < count; i++) {
    const answered = await answer(incoming(n++));
    if (answered.status !== 201) throw new Error(`answered ${answered.status}: ${answered.text}`);
  }
};
await run(3_000);
const creates = Number(values.creates);
const figures: number[] = [];
for (let round = 0; round < Number(values.rounds); round++) {
  const before = process.cpuUsage();
  await run(creates);
  const { user, system } = process.cpuUsage(before);
  figures.push((user + system) / creates);
}
console.log(`µs of CPU per create, ${values.rounds} rounds of ${creates}: ${figures.map((f) => f.toFixed(1)).join(', ')}; median ${[...figures].sort((a, b) => a - b)[Math.floor(figures.length / 2)]!.toFixed(1)}`);
await sandbox.close();
