// Test-server route `GET /ssr?markup=…`: the markup server-rendered by Lit SSR (scripts/ssr-render.ts), for the
// browser test that hydrates it. Loaded on first use, so other test files pay nothing for it.
import { tsImport } from 'tsx/esm/api';

let renderer;

export function ssrMiddleware() {
  return async function ssr(ctx, next) {
    if (!ctx.url.startsWith('/ssr?')) return next();
    renderer ??= tsImport('./ssr-render.ts', import.meta.url);
    const { renderMarkup } = await renderer;
    ctx.type = 'text/html';
    ctx.body = await renderMarkup(new URL(ctx.url, 'http://localhost').searchParams.get('markup') ?? '');
  };
}
