/**
 * Fault modes (`POST /sandbox/faults`): the next N requests matching a path glob are slowed, failed, dropped or
 * broken, so a client can be tested against what real networks do. Never applied to the control API itself.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { MiddlewareHandler } from 'hono';
import { errorBody, type SandboxFault, type SandboxFaultBody } from '../contract/index.js';
import type { SandboxState } from './state.js';

/** The default field `missing_field` removes: every buyer and merchant order answer has it. */
export const defaultMissingField = 'data.status';
const controlApi = /^\/sandbox(\/|$)/;

/** `*` matches within one path segment, `/**` any number of segments (none included); everything else is literal. */
export function pathPattern(glob: string): RegExp {
  const part = (token: string) => {
    if (token === '/**') return '(?:/.*)?';
    if (token === '**') return '.*';
    if (token === '*') return '[^/]*';
    return token.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  };
  return new RegExp(`^${glob.split(/(\/\*\*|\*\*|\*)/).map(part).join('')}$`);
}

export function addFault(state: SandboxState, body: SandboxFaultBody): SandboxFault {
  const delaying = body.mode === 'latency' || body.mode === 'slow_first_byte';
  const fault: SandboxFault = {
    id: `flt_${state.nextFaultId}`,
    path: body.path,
    method: body.method ?? null,
    mode: body.mode,
    count: body.count,
    remaining: body.count,
    latency_ms: delaying ? (body.latency_ms ?? 0) : null,
    status: body.mode === 'error_5xx' ? (body.status ?? 503) : null,
    field: body.mode === 'missing_field' ? (body.field ?? defaultMissingField) : null,
  };
  state.nextFaultId += 1;
  state.faults.push({ fault, pattern: pathPattern(body.path) });
  return fault;
}

export const listFaults = (state: SandboxState): SandboxFault[] => state.faults.map(({ fault }) => ({ ...fault }));

/** Whether a live fault waits for this request, without spending it. */
export const faultPending = (state: SandboxState, method: string, path: string): boolean =>
  state.faults.some(({ fault, pattern }) => fault.remaining > 0 && (fault.method === null || fault.method === method) && pattern.test(path));

/** The first live fault for this request, its count spent by one. Without a method, OPTIONS (CORS preflight) is spared. */
export function takeFault(state: SandboxState, method: string, path: string): SandboxFault | undefined {
  if (controlApi.test(path)) return undefined;
  const found = state.faults.find(
    ({ fault, pattern }) => fault.remaining > 0 && (fault.method === null ? method !== 'OPTIONS' : fault.method === method) && pattern.test(path),
  )?.fault;
  if (found) found.remaining -= 1;
  return found;
}

/** Thrown by `Sandbox.fetch` for a `drop` fault: what `fetch` itself throws when the server hangs up. */
export class ConnectionDropped extends TypeError {
  constructor() {
    super('fetch failed', { cause: new Error('the sandbox dropped the connection (fault "drop")') });
  }
}

/** Marks the app's answer to a `drop` fault; `Sandbox.fetch` turns it into ConnectionDropped, so it is never sent. */
const dropHeader = 'x-pay-sandbox-drop';
export const isDroppedConnection = (response: Response) => response.headers.get(dropHeader) === '1';

const badGatewayPage = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';

function serverError(status: number): Response {
  const description = 'Injected by a sandbox fault (POST /sandbox/faults).';
  if (status === 502) return new Response(badGatewayPage, { status, headers: { 'Content-Type': 'text/html' } });
  const body = status === 503 ? errorBody('SERVICE_UNAVAILABLE', { description }) : errorBody('INTERNAL_SERVER_ERROR', { description });
  return Response.json(body, { status });
}

/** Responses whose status forbids a body are passed through as they are. */
async function rewriteBody(response: Response, rewrite: (text: string) => string, contentType?: string): Promise<Response> {
  if (response.body === null || [101, 204, 205, 304].includes(response.status)) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  if (contentType) headers.set('content-type', contentType);
  return new Response(rewrite(await response.text()), { status: response.status, statusText: response.statusText, headers });
}

/** The first half of the text: an object's opening without its end is never valid JSON. */
const truncated = (text: string) => (text.length > 1 ? text.slice(0, Math.ceil(text.length / 2)) : '{"data":');

/** Deletes a dotted field (`data.status`, `data.gateways.0.kind`); a body that is not JSON, or lacks it, is kept. */
function withoutField(text: string, dotted: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  const keys = dotted.split('.');
  const last = keys.pop() ?? '';
  let parent = json;
  for (const key of keys) parent = parent !== null && typeof parent === 'object' ? (parent as Record<string, unknown>)[key] : undefined;
  if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, last)) return text;
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else delete (parent as Record<string, unknown>)[last];
  return JSON.stringify(json);
}

/** Runs first on every request: applies the first matching fault, if any. */
export function faultMiddleware(state: SandboxState): MiddlewareHandler {
  return async (c, next) => {
    const fault = takeFault(state, c.req.method, c.req.path);
    if (!fault) return next();
    const replace = (response: Response) => {
      // Cleared first, so Hono does not copy the old headers (Content-Length among them) onto the new body.
      c.res = undefined;
      c.res = response;
    };
    switch (fault.mode) {
      case 'latency':
        await sleep(fault.latency_ms ?? 0);
        return next();
      case 'error_5xx':
        return serverError(fault.status ?? 503);
      case 'drop':
        return new Response(null, { headers: { [dropHeader]: '1' } });
      case 'slow_first_byte':
        await next();
        await sleep(fault.latency_ms ?? 0);
        return;
      case 'malformed_json':
        await next();
        replace(await rewriteBody(c.res, truncated, 'application/json; charset=UTF-8'));
        return;
      case 'missing_field':
        await next();
        replace(await rewriteBody(c.res, (text) => withoutField(text, fault.field ?? defaultMissingField)));
        return;
    }
  };
}
