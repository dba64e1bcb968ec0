/**
 * `pay-checkout doctor`: a read-only probe of a merchant's own account before the first live call. Only gateway
 * discovery, document types and (with partner keys) the partner's webhook configuration are asked for; never an
 * order or a link. It says per endpoint which shape the service answered in and which fields it sent that we do not
 * use, which gateways the handler could drive, and one plain sentence for each common mistake.
 */
import {
  InvalidRequestError,
  InvalidResponseError,
  MerchantClient,
  NetworkError,
  PartnerClient,
  ServiceError,
  TimeoutError,
  type DialectReport,
} from '../client/index.js';
import { DocumentTypeSchema, PaymentGatewaySchema, type DocumentType, type PaymentGateway } from '../contract/index.js';
import { toCheckoutGateways } from '../server/buyer/gateways.js';

export interface DoctorOptions {
  baseUrl: string;
  merchantKey: string;
  partner?: { apiKey: string; apiSecret: string } | undefined;
  countryCode?: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
}

export interface EndpointCheck {
  route: string;
  ok: boolean;
  /** `data`, `result` or `bare` wrapper, and any other variant the answer used. */
  shape: string[];
  /** Fields the answer carried that the package does not read. */
  unknownFields: string[];
  /** One plain sentence: what came back, or what is wrong and what to do. */
  sentence: string;
}

export interface DoctorReport {
  baseUrl: string;
  checks: EndpointCheck[];
  /** `contract` when every answer had the contract's shapes, `live` when the service used any other. */
  dialect: 'contract' | 'live' | 'unknown';
  /** Gateways the handler could drive, as `Nequi (push)`. */
  drivable: string[];
  /** Whether the handler can work with this account. */
  ready: boolean;
  /** The sentence for a mistake found before any call (a base URL without /v1, a key for the other environment). */
  mistake?: string;
}

/** Fields of discovery items the handler reads besides the contract's (sandbox additions; gateways.ts). */
const readGatewayFields = ['kind', 'currencies', 'id_types', 'min_amount', 'max_amount'];

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const report: DoctorReport = { baseUrl, checks: [], dialect: 'unknown', drivable: [], ready: false };
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { ...report, mistake: `The base URL ${JSON.stringify(options.baseUrl)} is not a URL; pass the service's address ending in /v1, e.g. https://api.wava.co/v1.` };
  }
  if (!url.pathname.endsWith('/v1')) {
    return { ...report, mistake: `The base URL ${baseUrl} does not end in /v1; the API lives under it (e.g. https://api.wava.co/v1, or your sandbox's http://127.0.0.1:4010/v1).` };
  }
  const variants: DialectReport[] = [];
  const answers = new Map<string, { contentType: string; text: string }>();
  const recording: typeof globalThis.fetch = async (input, init) => {
    const response = await (options.fetch ?? globalThis.fetch)(input, init);
    const text = await response.clone().text();
    answers.set(new URL(String(input instanceof Request ? input.url : input)).pathname, { contentType: response.headers.get('content-type') ?? '', text });
    return response;
  };
  const common = { baseUrl, fetch: recording, timeoutMs: options.timeoutMs ?? 10_000, onDialect: (r: DialectReport) => variants.push(r) };
  let merchant: MerchantClient;
  try {
    merchant = new MerchantClient({ ...common, merchantKey: options.merchantKey });
  } catch (error) {
    return { ...report, mistake: mistakeOf(error, 'the merchant key', baseUrl) };
  }

  const probe = async <T>(route: string, call: () => Promise<T>, describe: (value: T) => { sentence: string; unknownFields: string[] }): Promise<T | undefined> => {
    const before = variants.length;
    try {
      const value = await call();
      const answer = answers.get(url.pathname + route);
      const seen = variants.slice(before).map((v) => v.variant);
      // Read from the answer itself: the variants are reported once each, so the second endpoint would not hear of it.
      const wrapper = wrapperOf(answer?.text);
      const { sentence, unknownFields } = describe(value);
      report.checks.push({ route: `GET ${route}`, ok: true, shape: [wrapper, ...seen.filter((v) => v !== 'result_envelope' && v !== 'bare_envelope')], unknownFields, sentence });
      return value;
    } catch (error) {
      const answer = answers.get(url.pathname + route);
      report.checks.push({ route: `GET ${route}`, ok: false, shape: [], unknownFields: [], sentence: failureSentence(error, `GET ${route}`, baseUrl, answer) });
      return undefined;
    }
  };

  const gateways = await probe('/orders/paymentGateways', () => merchant.paymentGateways(), (list: PaymentGateway[]) => ({
    sentence: `${list.length} payment gateway${list.length === 1 ? '' : 's'}: ${list.map((g) => g.name).join(', ') || 'none'}.`,
    unknownFields: extraFields(list, [...Object.keys(PaymentGatewaySchema.def.shape), ...readGatewayFields]),
  }));
  const country = (options.countryCode ?? 'CO').toUpperCase();
  // After the first call fails for the key or the host, the others would say the same: one sentence is enough.
  const first = report.checks[0];
  const documentTypes = first?.ok
    ? await probe(`/national-document-types/${country}`, () => merchant.documentTypes(country), (list: DocumentType[]) => ({
        sentence: `${list.length} document type${list.length === 1 ? '' : 's'}: ${list.map((d) => d.type).join(', ') || 'none'}.`,
        unknownFields: extraFields(list, Object.keys(DocumentTypeSchema.def.shape)),
      }))
    : undefined;
  let partnerOk = true;
  if (options.partner && first?.ok) {
    try {
      const partner = new PartnerClient({ ...common, apiKey: options.partner.apiKey, apiSecret: options.partner.apiSecret });
      const config = await probe('/partners/webhook', () => partner.getWebhook(), (c) => ({ sentence: `Webhooks go to ${c.url ?? 'no URL yet'}${c.signing_enabled ? ', signed' : ', unsigned'}.`, unknownFields: [] }));
      partnerOk = config !== undefined;
    } catch (error) {
      partnerOk = false;
      report.checks.push({ route: 'GET /partners/webhook', ok: false, shape: [], unknownFields: [], sentence: mistakeOf(error, 'the partner keys', baseUrl) });
    }
  }

  if (gateways && documentTypes) {
    report.dialect = variants.length > 0 ? 'live' : 'contract';
    report.drivable = toCheckoutGateways(gateways, documentTypes, 'COP').map((g) => `${g.name} (${g.kind})`);
  }
  report.ready = gateways !== undefined && documentTypes !== undefined && report.drivable.length > 0 && partnerOk;
  return report;
}

function wrapperOf(text: string | undefined): string {
  try {
    const json = JSON.parse(text ?? '') as unknown;
    if (typeof json === 'object' && json !== null && 'data' in json) return 'data wrapper';
    if (typeof json === 'object' && json !== null && 'result' in json) return 'result wrapper';
    return 'no wrapper';
  } catch {
    return 'no wrapper';
  }
}

function extraFields(items: readonly object[], known: readonly string[]): string[] {
  const extra = new Set<string>();
  for (const item of items) for (const key of Object.keys(item)) if (!known.includes(key)) extra.add(key);
  return [...extra].sort();
}

/** The plain sentence for a mistake a client finds before sending (a key for the other environment). */
function mistakeOf(error: unknown, what: string, baseUrl: string): string {
  if (error instanceof InvalidRequestError) {
    const test = error.problems.some((p) => p.message.includes('is a test key'));
    if (test) return `${capitalized(what)} is a test key but ${baseUrl} is the production service; use the live key, or your sandbox's or the development service's base URL.`;
    const live = error.problems.some((p) => p.message.includes('live key'));
    if (live) return `${capitalized(what)} is a live key but ${baseUrl} is not the production service; use a test key here.`;
    return `${capitalized(what)} cannot be used: ${error.message}`;
  }
  return `${capitalized(what)} cannot be used: ${error instanceof Error ? error.message : String(error)}`;
}

function failureSentence(error: unknown, route: string, baseUrl: string, answer: { contentType: string; text: string } | undefined): string {
  const origin = new URL(baseUrl).origin;
  const html = answer !== undefined && (answer.contentType.includes('text/html') || answer.text.trimStart().startsWith('<'));
  if (html) return `${baseUrl} answered ${route} with an HTML page, not the payment API: check that the base URL points at the API and ends in /v1.`;
  if (error instanceof ServiceError) {
    if (error.status === 401 || error.status === 403) {
      return `The service refused the merchant key (HTTP ${error.status}${error.apiCode ? `, ${error.apiCode}` : ''}): check that it is this environment's key (dashboard: Settings > Integrations > API).`;
    }
    if (error.status === 404 || error.status === 405) return `${baseUrl} has no ${route} (HTTP ${error.status}): check that the base URL points at the payment API and ends in /v1.`;
    return `The service answered ${route} with HTTP ${error.status}: ${error.message}`;
  }
  if (error instanceof NetworkError) return `${origin} cannot be reached${reasonOf(error)}: check the base URL, the network, and that the service is running.`;
  if (error instanceof TimeoutError) return `${origin} did not answer ${route} within ${Math.round(error.timeoutMs / 1000)} s: check the base URL and the network.`;
  if (error instanceof InvalidResponseError) return `The service answered ${route} in a shape this package cannot read (${error.problems.map((p) => `${p.field} ${p.message}`).join('; ') || 'not JSON'}).`;
  return `${route} failed: ${error instanceof Error ? error.message : String(error)}`;
}

function reasonOf(error: NetworkError): string {
  let cause: unknown = error.cause;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? ` (${code})` : '';
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The report as the CLI prints it. */
export function formatDoctor(report: DoctorReport): string {
  const lines = [`pay-checkout doctor: ${report.baseUrl}`];
  if (report.mistake) return [...lines, `  ✗ ${report.mistake}`, 'not ready: fix the above and run doctor again.'].join('\n');
  for (const check of report.checks) {
    lines.push(`  ${check.ok ? '✓' : '✗'} ${check.route}: ${check.sentence}`);
    if (check.ok) lines.push(`      shape: ${check.shape.join(', ')}${check.unknownFields.length ? `; fields we do not use: ${check.unknownFields.join(', ')}` : ''}`);
  }
  if (report.dialect !== 'unknown') lines.push(`dialect: ${report.dialect}${report.dialect === 'live' ? ' (the service answers in the live shapes; the package reads them)' : " (the contract's shapes)"}`);
  if (report.checks.every((c) => c.ok)) lines.push(`the handler can drive: ${report.drivable.join(', ') || 'no gateway (none the handler knows is enabled for this store)'}`);
  lines.push(report.ready ? 'ready: the handler can work with this account.' : 'not ready: fix the above and run doctor again.');
  return lines.join('\n');
}
