// docs/site/sandbox/index.md, "From code": startSandbox() in a test or script, its types checked without skipLibCheck.
import { demoMerchantKey, startSandbox, testCards, type RunningSandbox } from 'pay-checkout/sandbox';

export async function withSandbox<T>(body: (sandbox: RunningSandbox) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ port: 0 });
  try {
    return await body(sandbox);
  } finally {
    await sandbox.close();
  }
}

export const fixtures = { merchantKey: demoMerchantKey, cards: testCards };
