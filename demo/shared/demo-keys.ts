/**
 * The sandbox's published test credentials ([the sandbox](../../docs/site/sandbox/index.md)). They select the sandbox's demo store and partner
 * and work nowhere else; the demo dashboard uses them to play the merchant's and the partner's server.
 * A real page never holds a merchant key: `<pay-checkout>` refuses one.
 */
export const demoMerchantKey = 'mk_test_demo';
export const demoPartnerKeys = { name: 'demo-partner', apiKey: 'pk_test_demo', apiSecret: 'sk_test_demo' } as const;
/** The demo partner's webhook signing secret: what a receiver verifies `X-Service-Signature` with. */
export const demoSigningSecret = 'whsec_test_demo';
