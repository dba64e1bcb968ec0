/** The in-memory claim store keeps the claim store's promises for one process. */
import { describe } from 'node:test';
import { memoryClaimStore } from '../../src/server/index.js';
import { claimStoreContract } from './claim-store-contract.js';

describe('memoryClaimStore', () => {
  const store = memoryClaimStore();
  claimStoreContract(() => store);
});
