/** What the CLI and the Vite plugin print at start: URLs (the `base_url:` line is parsed by test tooling) and fixtures. */
import type { Sandbox } from './app.js';
import { fixturesView } from './routes/control.js';

export function sandboxBanner(sandbox: Sandbox, origin: string): string {
  const f = fixturesView(sandbox.context, origin.replace(/\/+$/, ''));
  const lines = [
    `base_url: ${f.base_url}`,
    `checkout_url: ${f.checkout_url}`,
    `onboarding_url: ${f.onboarding_url}`,
    `control_url: ${f.control_url}`,
    `openapi: ${origin.replace(/\/+$/, '')}/openapi.json  (the contract as OpenAPI 3.1)`,
    ...receiverLines(sandbox),
    '',
    'fixtures:',
    `  merchant-key: ${f.merchant_key}  (store "Tienda Demo", external_store_id demo-store)`,
    `  partner: ${f.partner.name}  X-API-Key ${f.partner.api_key}  X-API-Secret ${f.partner.api_secret}  signing secret ${f.partner.signing_secret}`,
    `  other store: merchant-key ${f.other_store.merchant_key}, partner ${f.other_store.partner.name} (${f.other_store.partner.api_key} / ${f.other_store.partner.api_secret})`,
    '  links:',
    ...f.links.map((l) => `    ${l.hash}  ${l.amount === null ? 'dynamic' : `${l.amount} COP`}  ${l.checkout_url}`),
    '  gateways:',
    ...f.gateways.map((g) => `    ${g.id_payment_gateway}  ${g.name} (${g.kind})  ${g.min_amount}..${g.max_amount} COP${g.direct_orders ? '' : '  links and hosted page only'}`),
    `  document types (CO): ${f.document_types.map((d) => `${d.id_national_document_type} ${d.type}`).join(', ')}`,
    '  test data: push phone ...0002 declines, ...0003 never answers; SMS codes 123456/000000/111111; cards 4242 4242 4242 4242 pays, 4000 0000 0000 0002 declines',
    `  webhooks of the demo store to each forward target (POST /sandbox/forward): signed with ${f.partner.signing_secret}${sandbox.context.dialect === 'live' ? ', under X-Wava-* as the development environment sends them' : ''}`,
  ];
  return lines.join('\n');
}

function receiverLines(sandbox: Sandbox): string[] {
  const url = sandbox.context.receiverUrl;
  if (!url) return [];
  const forwarded = sandbox.state.forwardTargets.includes(url);
  return [`webhook receiver: ${url}  (${forwarded ? 'every webhook is forwarded here; ' : ''}GET it to see what arrived, signatures checked)`];
}
