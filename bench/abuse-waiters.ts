/**
 * The waiting side of the "abuse" bench, in its own process so the handler's memory is measured alone: opens one
 * waiting status request per (order, slot), each from its own loopback address group, and says when all are sent.
 * Settings as JSON in PAY_BENCH_WAITERS; it keeps them waiting until killed.
 */
import http from 'node:http';

interface Settings {
  origin: string;
  orders: { id: number; token: string }[];
  perOrder: number;
  addresses: number;
}

const settings = JSON.parse(process.env.PAY_BENCH_WAITERS ?? '{}') as Settings;
const target = new URL(settings.origin);
let sent = 0;
let connected = 0;
/** Answers by status (and whether they waited), printed every 5 s for the bench's log. */
const answers = new Map<string, number>();
setInterval(() => console.log(`answers ${JSON.stringify(Object.fromEntries(answers))}`), 5_000).unref();
const total = settings.orders.length * settings.perOrder;
/** One waiting request; answered, it waits again at once, as the element does after a waiting answer. */
function wait(order: { id: number; token: string }, localAddress: string, first: boolean): void {
  const req = http.request({
    host: target.hostname,
    port: target.port,
    path: `/v1/checkout/orders/${order.id}?wait=25&since=processing`,
    headers: { 'X-Order-Token': order.token },
    agent: false,
    localAddress,
  });
  if (first) req.on('socket', (socket) => socket.once('connect', () => ++connected === total && console.log(`connected ${total}`)));
  req.on('response', (res) => {
    const label = `${res.statusCode}${res.headers['order-status-wait'] ? ' waited' : ''}`;
    answers.set(label, (answers.get(label) ?? 0) + 1);
    res.resume();
    res.on('end', () => wait(order, localAddress, false));
  });
  req.on('error', () => {});
  req.end();
}

settings.orders.forEach((order, o) => {
  for (let slot = 0; slot < settings.perOrder; slot++) {
    const group = (o * settings.perOrder + slot) % settings.addresses;
    wait(order, `127.77.${Math.floor(group / 250)}.${(group % 250) + 1}`, true);
    sent++;
  }
});
console.log(`sent ${sent}`);
