/**
 * Checks real answers against an OpenAPI 3.1 document with Ajv's 2020-12 validator: the schema of the matching
 * path, method and status (else `default`), and webhook bodies against `webhooks.{event}`.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Json } from './sandbox-harness.js';

// ajv-formats is CommonJS with a default export; under Node's ESM interop it arrives on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

const docId = 'urn:pay-checkout:openapi';
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export interface Checked {
  /** `METHOD /template STATUS`, e.g. `GET /orders/{orderId} 200`. */
  operation: string;
  errors: string[];
}

export function openApiChecker(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: docId });
  const templates = Object.keys(document.paths as object).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    // A literal segment beats a parameter (`/orders/paymentGateways` over `/orders/{orderId}`).
    literal: template.replace(/\{\w+\}/g, '').length,
  }));
  const validatorFor = (path: string) => ajv.getSchema(`${docId}#/${path}`) ?? ajv.compile({ $ref: `${docId}#/${path}` });
  const errorsOf = (validate: ReturnType<typeof validatorFor>, body: unknown) =>
    validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);

  return {
    /** The documented template of a path under `/v1`, or undefined. */
    templateOf(path: string): string | undefined {
      const matches = templates.filter((t) => t.regex.test(path)).sort((a, b) => b.literal - a.literal);
      return matches[0]?.template;
    },
    /** Validates one answer; throws when the path, method or status is not documented at all. */
    response(method: string, path: string, status: number, body: unknown): Checked {
      const template = this.templateOf(path);
      if (!template) throw new Error(`${method} ${path}: no such path in the document`);
      const op = document.paths[template][method.toLowerCase()];
      if (!op) throw new Error(`${method} ${template}: method not in the document`);
      const key = String(status) in op.responses ? String(status) : 'default';
      if (!(key in op.responses)) throw new Error(`${method} ${template}: status ${status} not in the document`);
      const shared: string | undefined = op.responses[key].$ref;
      const response = shared ? shared.replace(/^#\//, '') : pointer('paths', template, method.toLowerCase(), 'responses', key);
      const validate = validatorFor(`${response}/content/application~1json/schema`);
      const errors = errorsOf(validate, body);
      // A failure names the api_codes it can carry as its examples: an answer with another code is undocumented. Every
      // 4xx has one; a 5xx without one (a proxy's page, a dropped connection's stand-in) has nothing to compare.
      const examples = op.responses[key].content?.['application/json']?.examples as Record<string, unknown> | undefined;
      const apiCode = (body as { api_code?: unknown } | null)?.api_code;
      const named = (status >= 400 && status < 500) || (status >= 500 && apiCode !== undefined);
      if (named && !(examples && typeof apiCode === 'string' && apiCode in examples)) {
        errors.push(`${status} ${String(apiCode)} is not among the documented api_codes (${Object.keys(examples ?? {}).join(', ') || 'none'})`);
      }
      return { operation: `${method.toUpperCase()} ${template} ${key}`, errors };
    },
    /** Validates one webhook body against `webhooks.{event}.post.requestBody`. */
    webhook(event: string, body: unknown): Checked {
      if (!document.webhooks?.[event]) throw new Error(`webhook ${event}: not in the document`);
      const validate = validatorFor(pointer('webhooks', event, 'post', 'requestBody', 'content', 'application/json', 'schema'));
      return { operation: `webhook ${event}`, errors: errorsOf(validate, body) };
    },
  };
}
