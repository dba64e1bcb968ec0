/** `GET /openapi.json`: the contract's OpenAPI document, generated from the zod schemas, with this sandbox as its server. */
import { Hono } from 'hono';
import { buildOpenApiDocument } from '../../openapi/index.js';
import type { SandboxContext } from '../context.js';
import { originOf } from './origin.js';

export function openApiRoutes(ctx: SandboxContext): Hono {
  const app = new Hono();
  // Built once per process on first use (about 100 KB of JSON): the schemas cannot change while it runs.
  let document: Record<string, unknown> | undefined;
  app.get('/openapi.json', (c) => {
    document ??= buildOpenApiDocument();
    const servers = [{ url: `${originOf(ctx, c)}/v1`, description: 'this sandbox' }];
    return c.json({ ...document, servers }, 200, { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-cache' });
  });
  return app;
}
