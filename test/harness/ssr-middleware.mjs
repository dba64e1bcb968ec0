// Test-server routes `GET /ssr?markup=…` (the markup server-rendered by Lit SSR, test/harness/ssr-render.ts, for the
// browser test that hydrates it) and `GET /ssr-hosted?…` (the hosted page's first screen, for the takeover tests).
// Loaded on first use, so other test files pay nothing for it.
import { tsImport } from 'tsx/esm/api';

let renderer;

export function ssrMiddleware() {
  return async function ssr(ctx, next) {
    // `/ssr-hosted?hash=…&locale=…&link=JSON`: the hosted page's first screen, drawn by renderHostedPage.
    if (!ctx.url.startsWith('/ssr?') && !ctx.url.startsWith('/ssr-hosted?')) return next();
    renderer ??= tsImport('./ssr-render.ts', import.meta.url);
    const { renderMarkup, renderHostedMain } = await renderer;
    const query = new URL(ctx.url, 'http://localhost').searchParams;
    ctx.type = 'text/html';
    ctx.body = ctx.url.startsWith('/ssr-hosted?')
      ? await renderHostedMain(query.get('hash') ?? '', JSON.parse(query.get('link') ?? 'null'), query.get('locale') === 'en' ? 'en' : 'es')
      : await renderMarkup(query.get('markup') ?? '');
  };
}
