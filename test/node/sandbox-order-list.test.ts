// The sandbox's order list (GET /sandbox/orders) stays light: what the dashboard polls leaves out the transfer QR
// image that the single order keeps.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dataOf, SandboxOrderListSchema, SandboxOrderSchema } from '../../src/contract/index.js';
import { directOrderBody, gateways, merchant, startTestSandbox, type TestSandbox } from './sandbox-harness.js';

describe('GET /sandbox/orders is light', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(() => sb.close());

  test('the list leaves out the transfer QR PNG; the order itself keeps it', async () => {
    const made = await sb.api('POST', '/v1/orders', directOrderBody(gateways.transfer), merchant);
    assert.equal(made.status, 200, made.text);
    const id: number = made.body.data.id_order;
    const [listed] = dataOf(SandboxOrderListSchema).parse((await sb.api('GET', '/sandbox/orders')).body).data;
    const one = dataOf(SandboxOrderSchema).parse((await sb.api('GET', `/sandbox/orders/${id}`)).body).data;
    assert.equal(listed?.id_order, id);
    assert.equal(listed?.next_action?.type, 'transfer');
    assert.ok(one.next_action?.type === 'transfer' && one.next_action.qr_png && one.payment_gateway?.breb?.qr_code, 'the single order has the PNG');
    assert.ok(listed.next_action?.type === 'transfer' && !('qr_png' in listed.next_action), 'no PNG in next_action');
    assert.equal(listed.payment_gateway?.breb && 'qr_code' in listed.payment_gateway.breb, false, 'no PNG in payment_gateway.breb');
    assert.equal(listed.next_action.qr_data, one.next_action.qr_data, 'the payload to render stays');
    assert.equal(listed.transfer_key, one.transfer_key);
    assert.ok(!(await sb.api('GET', '/sandbox/orders')).text.includes(one.next_action.qr_png));
  });
});
