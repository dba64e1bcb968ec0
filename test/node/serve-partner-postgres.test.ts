/**
 * Partner mode with its shops in a real PostgreSQL: three shops bring their merchant keys and connect, make links and
 * sell through serve; then every table of the database, read raw, holds no merchant key, shop API key or notify
 * secret in clear, and a serve started again on the same database still sells for them.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { parsePartnerServeSettings } from '../../src/server/serve/partner/settings.js';
import { startServeCommand, type RunningServeCommand } from '../../src/server/serve/index.js';
import { rawSettings } from '../../src/server/serve/settings.js';
import { startPostgres, type TestPostgres } from './postgres-harness.js';

let postgres: TestPostgres;
let sandbox: RunningSandbox;
let serve: RunningServeCommand | undefined;
const keys = randomBytes(32).toString('base64');

const start = async () => {
  const settings = parsePartnerServeSettings(
    rawSettings({
      PAY_CHECKOUT_PARTNER_KEY: 'pk_test_demo',
      PAY_CHECKOUT_PARTNER_SECRET: 'sk_test_demo',
      PAY_CHECKOUT_PARTNER_WEBHOOK_SECRET: 'whsec_test_demo',
      PAY_CHECKOUT_KEYS: keys,
      PAY_CHECKOUT_DATABASE_URL: postgres.url,
      PAY_CHECKOUT_BASE_URL: sandbox.baseUrl,
      PAY_CHECKOUT_ALLOW_LOCAL_SHOPS: '1',
      PORT: '0',
      HOST: '127.0.0.1',
    }),
  );
  serve = await startServeCommand(settings, { onEvent: () => {} });
};

before(async () => {
  [postgres, sandbox] = await Promise.all([startPostgres(), startSandbox({ port: 0, defaultReceiver: false })]);
  await start();
});
after(async () => {
  await serve?.close();
  await sandbox?.close();
  await postgres?.stop();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const call = async (method: string, route: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${serve!.url}${route}`, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json()) as Json };
};

let buyers = 0;
const sell = async (apiKey: string, reference: string) => {
  const link = await call('POST', '/v1/stores/me/links', { description: `Pedido ${reference}`, reference, amount: 25_000 }, { authorization: `Bearer ${apiKey}` });
  assert.equal(link.status, 201, JSON.stringify(link.json));
  buyers += 1;
  const order = await call('POST', `/v1/checkout/links/${encodeURIComponent(link.json.data.hash)}/orders`, { payment_gateway: { id_payment_gateway: 1 }, shopper: { id_number: `${4_000_000 + buyers}`, id_type: 1, phone_number: `300777${String(1000 + buyers).slice(-4)}` } }, { 'idempotency-key': `pg-buyer-${buyers}` });
  assert.equal(order.status, 201, JSON.stringify(order.json));
};

describe('partner mode on PostgreSQL', () => {
  it('keeps no merchant key, API key or notify secret in clear in any table after three shops connect, and sells after a restart', async () => {
    const secrets: string[] = [];
    const apiKeys: string[] = [];
    for (const name of ['uno', 'dos', 'tres']) {
      const onboarded = await fetch(`${sandbox.url}/sandbox/onboarding`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ platform: 'demo-partner', store_name: `Tienda ${name}` }) });
      const merchantKey = ((await onboarded.json()) as Json).data.merchant_key as string;
      const made = await call('POST', '/v1/stores', { name, notify_url: `http://127.0.0.1:9/${name}`, merchant_key: merchantKey });
      assert.equal(made.status, 201, JSON.stringify(made.json));
      assert.equal(made.json.data.status, 'connected');
      secrets.push(merchantKey, made.json.data.api_key, made.json.data.notify_secret);
      apiKeys.push(made.json.data.api_key);
      await sell(made.json.data.api_key, `cart-${name}`);
    }
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    let dump = '';
    try {
      const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
      assert.ok(tables.rows.some((row: { table_name: string }) => row.table_name === 'pay_checkout_partner'), JSON.stringify(tables.rows));
      for (const { table_name } of tables.rows as { table_name: string }[]) dump += JSON.stringify((await client.query(`SELECT * FROM ${table_name}`)).rows);
    } finally {
      await client.end();
    }
    assert.ok(dump.includes('shop:st_'), 'the shops are in the dump');
    for (const secret of secrets) assert.ok(!dump.includes(secret), 'a secret in clear in PostgreSQL');

    await serve!.close();
    await start();
    for (const [i, apiKey] of apiKeys.entries()) await sell(apiKey, `again-${i}`);
  });
});
