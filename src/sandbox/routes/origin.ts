import type { Context } from 'hono';
import type { SandboxContext } from '../context.js';

/** The origin buyers reach the sandbox at: the configured public URL, else this request's own. */
export function originOf(ctx: SandboxContext, c: Context): string {
  return (ctx.publicUrl ?? new URL(c.req.url).origin).replace(/\/+$/, '');
}
