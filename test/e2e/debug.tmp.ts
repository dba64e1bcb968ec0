import { Buyer, gateways, onlyOrder, startWorld } from './support/harness.js';
const world = await startWorld();
const buyer = await Buyer.create(world);
buyer.page.on('response', (r) => { if (r.url().includes('/v1/')) console.log('resp', r.request().method(), r.url().replace(world.sandbox.url, ''), r.status()); });
buyer.page.on('requestfailed', (r) => console.log('failed', r.method(), r.url().replace(world.sandbox.url, ''), r.failure()?.errorText));
await buyer.open('demo-fixed');
await buyer.payWith(gateways.card);
await world.fault({ path: '/v1/checkout/orders/*', method: 'GET', mode: 'error_5xx', count: 3, status: 502 });
await buyer.payOnCardPage();
for (let i = 0; i < 6; i++) { await new Promise(r => setTimeout(r, 500)); console.log(await buyer.step(), await buyer.text()); }
console.log(await world.control('GET', '/faults'));
await buyer.close();
const b2 = await Buyer.create(world);
await world.reset();
await b2.open('demo-fixed');
await b2.payWith(gateways.otp);
const order = await onlyOrder(world, 'demo-fixed');
await world.fault({ path: '/v1/checkout/orders/*/otp', method: 'POST', mode: 'error_5xx', count: 1 });
await b2.enterOtp(order.otp!);
for (let i = 0; i < 3; i++) { await new Promise(r => setTimeout(r, 500)); console.log(await b2.step(), await b2.text()); }
await world.close();
