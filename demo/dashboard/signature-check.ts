/** Whether a logged delivery's X-Service-Signature verifies, as the partner's receiver would check it. */
import type { DeliveryRecord } from '../../src/contract/index.js';
import { verify } from '../../src/webhooks/signature.js';

export type SignatureVerdict = 'valid' | 'invalid' | 'unsigned';

export async function checkSignature(record: Pick<DeliveryRecord, 'body' | 'signature'>, secret: string): Promise<SignatureVerdict> {
  if (record.signature === null) return 'unsigned';
  return (await verify(record.body, record.signature, secret)) ? 'valid' : 'invalid';
}
