/**
 * Partner mode with its shops in a real PostgreSQL: three shops bring their merchant keys and connect, make links and
 * sell through serve; then every table of the database, read raw, holds no merchant key, shop API key or notify
 * secret in clear, and a serve started again on the same database still sells for them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startPartnerServe, type PartnerServe } from '../harness/partner-serve.js';
import { startPostgres, type TestPostgres } from './postgres-harness.js';

let postgres: TestPostgres;
let h: PartnerServe;

before(async () => {
  postgres = await startPostgres();
  h = await startPartnerServe({ store: { databaseUrl: postgres.url }, forward: false });
});
after(async () => {
  await h?.close();
  await postgres?.stop();
});

const sell = async (apiKey: string, reference: string) => {
  const order = await h.buy(await h.makeLink(apiKey, reference, 25_000));
  assert.equal(order.status, 201, JSON.stringify(order.json));
};

describe('partner mode on PostgreSQL', () => {
  it('keeps no merchant key, API key or notify secret in clear in any table after three shops connect, and sells after a restart', async () => {
    const secrets: string[] = [];
    const apiKeys: string[] = [];
    for (const name of ['uno', 'dos', 'tres']) {
      const shop = await h.connectedShop(name);
      secrets.push(shop.merchantKey, shop.apiKey, shop.notifySecret);
      apiKeys.push(shop.apiKey);
      await sell(shop.apiKey, `cart-${name}`);
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

    await h.restart();
    for (const [i, apiKey] of apiKeys.entries()) await sell(apiKey, `again-${i}`);
  });
});
