/**
 * CPU per call of the handler's service client (`nodeFetch`: undici's dispatcher) against its fallback over Node's
 * `http` (`httpFetch`): 32 concurrent `POST /orders` with a create's body against a canned service in a process of
 * its own, this process's CPU only, rounds interleaved. `node --import tsx bench/service-client.ts [--calls 10000] [--rounds 8]`.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { httpFetch, nodeFetch } from '../src/server/node/fetch.js';

if (process.argv[2] === '--serve') {
  const answer = JSON.stringify({ data: { id_order: 7, id_external: 'k'.repeat(43), status: 'pending', payment_gateway: { nequi: { phone_number: '300****567' } }, expires_at: '2026-11-29T10:00:00.000Z' } });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) }).end(answer));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
} else {
  const { values } = parseArgs({ options: { calls: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '8' } } });
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx'] });
  const port = await new Promise<number>((resolve) => child.once('message', (message) => resolve(message as number)));
  const url = `http://127.0.0.1:${port}/v1/orders`;
  const body = JSON.stringify({
    amount: 50000,
    description: 'Camiseta',
    currency: 'COP',
    shopper: { id_number: '12345678', id_type: 1, first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.com', phone_number: '3001234567', country: 'CO' },
    payment_gateway: { id_payment_gateway: 1 },
    order_key: 'x'.repeat(64),
  });
  const headers = { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': 'mk_test_demo' };
  const clients = { 'undici (nodeFetch)': nodeFetch(), 'node:http (httpFetch)': httpFetch() };
  /** µs of this process's CPU per call, `calls` calls over 32 concurrent callers. */
  const run = async (fetcher: typeof globalThis.fetch, calls: number) => {
    let left = calls;
    const caller = async () => {
      while (left-- > 0) {
        const answer = await fetcher(url, { method: 'POST', headers, body, timeoutMs: 5_000 } as RequestInit);
        await answer.text();
        answer.headers.get('idempotent-replayed');
      }
    };
    const before = process.cpuUsage();
    await Promise.all(Array.from({ length: 32 }, caller));
    const spent = process.cpuUsage(before);
    return (spent.user + spent.system) / calls;
  };
  const calls = Number(values.calls);
  const figures = new Map<string, number[]>();
  for (const [name, fetcher] of Object.entries(clients)) {
    await run(fetcher!, calls * 2); // warmed: V8 optimizes the path first
    figures.set(name, []);
  }
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 ? Object.entries(clients).reverse() : Object.entries(clients);
    for (const [name, fetcher] of order) figures.get(name)!.push(await run(fetcher!, calls));
  }
  for (const [name, spent] of figures) {
    spent.sort((a, b) => a - b);
    console.log(`${name.padEnd(22)} ${spent[spent.length >> 1]!.toFixed(1)} µs of CPU per call (median), best ${spent[0]!.toFixed(1)}`);
  }
  child.kill();
}
