import { hasApiCode } from './errors.js';
import type { FlowError } from './types.js';

/** The service says the order does not exist or is not ours (4010): a saved reference to it is worth nothing. */
export function isOrderNotFound(error: FlowError): boolean {
  return hasApiCode(error, 'ORDER_NOT_FOUND') || (error.category === 'service' && error.code === 4010);
}
