/**
 * The OpenAPI 3.1 document of the service: paths from the route table (routes.ts), every shape generated from the
 * contract's zod schemas with `z.toJSONSchema`, webhook deliveries under `webhooks`. Never written by hand.
 */
import * as z from 'zod/mini';
import { baseUrls } from '../client/send.js';
import {
  CheckoutGatewaySchema,
  CurrencyCode,
  dataOf,
  DocumentTypeSchema,
  errorBody,
  errorCatalog,
  ErrorResponseSchema,
  idempotencyKeyHeader,
  merchantKeyHeader,
  NextActionSchema,
  OrderIdParam,
  OrderStatusSchema,
  orderTokenHeader,
  partnerKeyHeader,
  partnerSecretHeader,
  resultOf,
  ShopperSchema,
  StoreSchema,
  Timestamp,
  webhookHeaders,
  WebhookEventNameSchema,
  webhookPayloadSchemas,
  webhookUserAgent,
  type ApiCode,
} from '../contract/index.js';
import { byStatus, failuresOf, intakeRefusals, refusalsOf, retryAfterCodes } from './refusals.js';
import { routes, type Caller, type Route } from './routes.js';

type Json = Record<string, unknown>;
type Registry = z.core.$ZodRegistry<{ id: string }>;

/** Schemas used in many places: named components, so each appears once. The first two serve both sides. */
const shared: Record<string, z.ZodMiniType> = { Timestamp, CurrencyCode };
const requestShared: Record<string, z.ZodMiniType> = { Shopper: ShopperSchema };
const responseShared: Record<string, z.ZodMiniType> = {
  OrderStatus: OrderStatusSchema,
  NextAction: NextActionSchema,
  CheckoutGateway: CheckoutGatewaySchema,
  DocumentType: DocumentTypeSchema,
  Store: StoreSchema,
  ErrorResponse: ErrorResponseSchema,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const pascal = (event: string) => event.replace(/(?:^|[_.])(\w)/g, (_m, c: string) => c.toUpperCase());

/** The shape of the success body of a route and its component name. */
function successShape(route: Route): [string, z.ZodMiniType] {
  const [name, schema] = route.result;
  if (route.wrap === 'bare') return [name, schema];
  return [`${name}Response`, route.wrap === 'data' ? dataOf(schema) : resultOf(schema)];
}

/**
 * Converts a registry to `components.schemas`, reading each schema as the service reads requests (`input`) or as it
 * writes answers (`output`): a request body's defaults and transforms are the caller's view, a response's the reader's.
 * A shape JSON Schema cannot say (a transform on the output side) throws here rather than becoming `{}`.
 */
function components(registry: Registry, io: 'input' | 'output'): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, { io, target: 'draft-2020-12', unrepresentable: 'throw', uri: (id) => `#/components/schemas/${id}` });
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // A fragment-only `$id` is not allowed by 2020-12; the dialect is the document's `jsonSchemaDialect`.
    const { $id: _id, $schema: _schema, ...rest } = schema as Json;
    out[id] = rest;
  }
  return out;
}

/** One name, one shape: a name produced by both the request and the response side must come out the same. */
function merge(...parts: Record<string, Json>[]): Record<string, Json> {
  const all: Record<string, Json> = {};
  for (const part of parts) {
    for (const [id, schema] of Object.entries(part)) {
      if (id in all && JSON.stringify(all[id]) !== JSON.stringify(schema)) {
        throw new Error(`OpenAPI: component ${id} differs between request and response; give one of them its own name.`);
      }
      all[id] = schema;
    }
  }
  return all;
}

const security: Record<Caller, Json[]> = {
  merchant: [{ merchantKey: [] }, { merchantKey: [], partnerKey: [], partnerSecret: [] }],
  partner: [{ partnerKey: [], partnerSecret: [] }],
  'order-token': [{ orderToken: [] }],
  'store-key': [{ storeApiKey: [] }],
  public: [],
};

function pathParameters(path: string, idSchema: Json): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'hash' || name === 'countryCode' || name === 'store_id' ? { type: 'string', minLength: 1 } : idSchema,
  }));
}

function queryParameters(query: z.ZodMiniType | undefined): Json[] {
  if (!query) return [];
  const json = z.toJSONSchema(query, { io: 'input', unrepresentable: 'throw' }) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: json.required?.includes(name) ?? false, schema }));
}

/** The component name of a refusal's example: its `api_code`. */
const exampleRef = (code: ApiCode) => ({ $ref: `#/components/examples/${code}` });

const retryAfterHeader = {
  'Retry-After': { description: 'Seconds to wait before asking again (with `LIMIT_REACHED`, `IDEMPOTENCY_KEY_IN_USE` and `LINK_SOURCE_UNAVAILABLE`).', schema: { type: 'integer', minimum: 1 } },
};
const line = (code: ApiCode, withStatus = false) =>
  `- \`${code}\` (${errorCatalog[code].code}${withStatus ? `, HTTP ${errorCatalog[code].httpStatus}` : ''}): ${errorCatalog[code].message}`;
const errorContent = (codes: readonly ApiCode[]) => ({
  'application/json': { schema: ref('ErrorResponse'), examples: Object.fromEntries(codes.map((code) => [code, exampleRef(code)])) },
});

/** `default`: the 5xx failures, each `api_code` with its HTTP status; a proxy in front may answer others of its own. */
function failureResponse(codes: readonly ApiCode[]): Json {
  return {
    description: `The service or the server in front of it could not answer, with one of these \`api_code\`s:\n\n${codes.map((code) => line(code, true)).join('\n')}`,
    ...(codes.some((code) => retryAfterCodes.has(code)) ? { headers: retryAfterHeader } : {}),
    content: errorContent(codes),
  };
}

/**
 * One response per 4xx status: the ErrorResponse schema, and each `api_code` it can carry named in the description
 * and given as an example (the catalog's body), so a reader branches on `api_code` knowing which to expect.
 */
function refusalResponses(codes: readonly ApiCode[], lead = 'Refused'): Json {
  const out: Json = {};
  for (const [status, ofStatus] of byStatus(codes)) {
    out[String(status)] = {
      description: `${lead}, with one of these \`api_code\`s:\n\n${ofStatus.map((code) => line(code)).join('\n')}`,
      ...(ofStatus.some((code) => retryAfterCodes.has(code)) ? { headers: retryAfterHeader } : {}),
      content: errorContent(ofStatus),
    };
  }
  return out;
}

/** `components.examples`: the catalog's body of every code some operation or webhook documents, once each. */
function refusalExamples(): Json {
  const used = new Set<ApiCode>([...routes.flatMap(refusalsOf), ...routes.flatMap(failuresOf), ...intakeRefusals]);
  const order = Object.keys(errorCatalog) as ApiCode[];
  return Object.fromEntries(order.filter((code) => used.has(code)).map((code) => [code, { summary: errorCatalog[code].message, value: errorBody(code) }]));
}

function operation(route: Route, bodyNames: Map<z.ZodMiniType, string>, idSchema: Json): Json {
  const [successName] = successShape(route);
  const content = { 'application/json': { schema: ref(successName) } };
  const replay = route.replayHeader
    ? { headers: { 'Idempotent-Replayed': { description: '`true` when this answer repeats the one for the same key.', schema: { type: 'string', enum: ['true'] } } } }
    : {};
  const responses: Json = {};
  for (const status of route.success) {
    responses[String(status)] = route.redirect
      ? { description: 'Redirect', headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string', format: 'uri' } } } }
      : { description: status === 201 ? 'Created' : 'OK', content, ...replay };
  }
  Object.assign(responses, refusalResponses(refusalsOf(route)));
  responses.default = failureResponse(failuresOf(route));
  const optional = (route.optionalHeaders ?? []).map((name) => ({
    name,
    in: 'header',
    required: false,
    description:
      name === idempotencyKeyHeader
        ? 'Makes the call safe to repeat: the same key and body answer the same link again; another body is 409.'
        : 'A bot-check token (Turnstile, hCaptcha) for the merchant’s `botCheck` hook; without one, a handler that checks answers 403 `BOT_CHECK_FAILED`.',
    schema: { type: 'string' },
  }));
  const headers = (route.headers ?? []).map((name) => ({
    name,
    in: 'header',
    required: true,
    description: name === idempotencyKeyHeader ? 'One key per buyer intent: the same key and body returns the same order; another body is 409.' : undefined,
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  }));
  const body = route.body && bodyNames.get(route.body);
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: [route.tag],
    security: security[route.caller],
    parameters: [...pathParameters(route.path, idSchema), ...queryParameters(route.query), ...headers, ...optional],
    ...(body ? { requestBody: { required: !route.optionalBody, content: { 'application/json': { schema: ref(body) } } } } : {}),
    responses,
  };
}

function webhook(event: string, payloadName: string): Json {
  const header = (name: string, description: string, schema: Json = { type: 'string' }) => ({ name, in: 'header', required: true, description, schema });
  return {
    post: {
      operationId: `webhook_${event.replace(/\W/g, '_')}`,
      summary: `The ${event} delivery`,
      tags: ['Webhooks'],
      description:
        'No credential is sent: the receiver authenticates the delivery by its signature header (HMAC-SHA256 of the raw body under the signing secret) and refuses one that does not verify or is older than 5 minutes.',
      security: [],
      parameters: [
        header(webhookHeaders.event, 'The event name, the same as the body’s `event`.', ref('WebhookEventName')),
        header(webhookHeaders.timestamp, 'When the delivery was made; the same on every attempt.'),
        header(webhookHeaders.signature, 'HMAC-SHA256 of the raw body under the signing secret, lowercase hex, no prefix.'),
        header('User-Agent', `\`${webhookUserAgent}\`.`),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref(payloadName) } } },
      responses: {
        '200': { description: 'Received. Any 2xx counts, unless its JSON body has `"error": true`; 5xx and timeouts (5 s) are retried up to 3 attempts.' },
        ...refusalResponses(intakeRefusals, 'Rejected for good (the service never delivers a 4xx again); `createCheckoutHandler()`’s intake answers'),
      },
    },
  };
}

export interface OpenApiOptions {
  /** `servers`; default the live service's production and development `{base_url}`. */
  servers?: readonly { url: string; description?: string }[];
}

/** Builds the whole document. Pure: the same contract gives the same document. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): Json {
  const requests: Registry = z.registry<{ id: string }>();
  const responses: Registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(shared)) {
    requests.add(schema, { id });
    responses.add(schema, { id });
  }
  for (const [id, schema] of Object.entries(requestShared)) requests.add(schema, { id });
  for (const [id, schema] of Object.entries(responseShared)) responses.add(schema, { id });
  responses.add(WebhookEventNameSchema, { id: 'WebhookEventName' });

  const bodyNames = new Map<z.ZodMiniType, string>();
  const wrapped = new Set<string>();
  for (const route of routes) {
    if (route.body && !bodyNames.has(route.body)) {
      const name = `${pascal(route.operationId)}Body`;
      bodyNames.set(route.body, name);
      requests.add(route.body, { id: name });
    }
    const [resultName, result] = route.result;
    if (!responses.has(result)) responses.add(result, { id: resultName });
    const [successName, success] = successShape(route);
    if (success !== result && !wrapped.has(successName)) {
      wrapped.add(successName);
      responses.add(success, { id: successName });
    }
  }
  const webhookNames: Record<string, string> = {};
  for (const [event, schema] of Object.entries(webhookPayloadSchemas)) {
    webhookNames[event] = `${pascal(event)}Payload`;
    responses.add(schema, { id: webhookNames[event] });
  }

  const paths: Record<string, Record<string, Json>> = {};
  const idSchema = z.toJSONSchema(OrderIdParam, { io: 'input' }) as Json;
  delete idSchema.$schema;
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operation(route, bodyNames, idSchema);

  const apiKey = (name: string, description: string) => ({ type: 'apiKey', in: 'header', name, description });
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'pay-checkout service API',
      version: '1.0.0',
      summary: 'Merchant, partner and buyer APIs and webhook deliveries of the payment service, as pay-checkout speaks them.',
      description:
        'Generated from the zod schemas of `pay-checkout/contract`. Success bodies are wrapped in `{ "data": … }` (the refund and the dashboard statistics in `{ "result": … }`); every failure is an ErrorResponse. The buyer API (`/checkout/…`) is what `<pay-checkout>` speaks; the sandbox and `createCheckoutHandler()` serve it.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: options.servers ?? [
      { url: baseUrls.production, description: 'production' },
      { url: baseUrls.development, description: 'development' },
    ],
    tags: [
      { name: 'Merchant', description: 'Authorized by the store’s `merchant-key`; a partner acting for the store adds its key pair.' },
      { name: 'Partner', description: 'Authorized by the partner’s `X-API-Key` and `X-API-Secret`.' },
      { name: 'Shop', description: 'Served by `pay-checkout serve` in partner mode, not by the service: a shop registers, connects and makes links with its `api_key` as a bearer token.' },
      { name: 'Buyer', description: 'No secrets: what the checkout page calls. An order is readable only with its `X-Order-Token`.' },
      { name: 'Webhooks', description: 'Signed POSTs the service sends to the partner’s (or store’s) webhook URL.' },
    ],
    paths,
    webhooks: Object.fromEntries(Object.keys(webhookPayloadSchemas).map((event) => [event, webhook(event, webhookNames[event] ?? '')])),
    components: {
      schemas: merge(components(requests, 'input'), components(responses, 'output')),
      examples: refusalExamples(),
      securitySchemes: {
        merchantKey: apiKey(merchantKeyHeader, 'The store’s secret key. Server-side only.'),
        partnerKey: apiKey(partnerKeyHeader, 'The partner’s key.'),
        partnerSecret: apiKey(partnerSecretHeader, 'The partner’s secret.'),
        orderToken: apiKey(orderTokenHeader, 'The `order_token` returned when the buyer’s order was created.'),
        storeApiKey: { type: 'http', scheme: 'bearer', description: 'A shop’s `api_key` from `POST /stores` (`pay-checkout serve` in partner mode).' },
      },
    },
  };
}
