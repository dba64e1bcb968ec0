// The site's navigation by audience: [section, [[title, source path under docs/site/]]]. A page not listed here
// still builds; the browser test checks that every listed page exists and loads.
export const nav = [
  ['Start', [['What it is', 'index.md'], ['Install', 'install.md'], ['Screens', 'screens.md'], ['Accessibility', 'accessibility.md']]],
  ['Merchants', [['Any stack: PHP, Java, Python', 'merchants/any-stack.md'], ['Embed by script tag', 'merchants/index.md'], ['The hosted page', 'merchants/hosted-page.md'], ['Prefill, methods, consent', 'merchants/buyer-details.md'], ['Theming and playground', 'merchants/theming.md']]],
  ['Plugin authors', [
    ['For plugin authors', 'plugin-authors/index.md'], ['Events', 'plugin-authors/events.md'], ['Passing what the platform knows', 'plugin-authors/prefill.md'], ['Partner onboarding', 'plugin-authors/partner-onboarding.md'], ['For platforms', 'plugin-authors/platforms.md'],
    ['Frameworks', 'frameworks/index.md'], ['React', 'frameworks/react.md'], ['Vue', 'frameworks/vue.md'], ['Svelte', 'frameworks/svelte.md'],
    ['Next.js', 'frameworks/nextjs.md'], ['Nuxt', 'frameworks/nuxt.md'], ['SvelteKit', 'frameworks/sveltekit.md'], ['Astro', 'frameworks/astro.md'],
    ['Angular', 'frameworks/angular.md'], ['React Router', 'frameworks/react-router.md'], ['Lit SSR', 'frameworks/lit-ssr.md'], ['Editors', 'frameworks/editors.md'],
  ]],
  ['Servers', [
    ['For servers', 'servers/index.md'], ['The server handler', 'servers/handler.md'], ['pay-checkout serve', 'servers/serve.md'], ['Exactly once on N instances', 'servers/exactly-once.md'],
    ['Limits', 'servers/limits.md'], ['Performance', 'servers/performance.md'], ['Node', 'servers/node.md'], ['Operating it', 'servers/operating.md'], ['Webhook verification', 'servers/webhooks.md'], ['Typed clients', 'servers/clients.md'], ['The live service as it answers', 'servers/live-service.md'],
  ]],
  ['Sandbox', [['The sandbox', 'sandbox/index.md'], ['Live checkouts', 'sandbox/live.md'], ['The control API', 'sandbox/control-api.md'], ['Security', 'sandbox/security.md']]],
  ['Reference', [['The element', 'reference/element.md'], ['The HTTP API', 'reference/http.md']]],
  ['Contributing', [
    ['Contributing', 'contributing/index.md'], ['Architecture', 'contributing/architecture.md'], ['What npm test does', 'contributing/testing.md'], ['Decisions', 'contributing/decisions.md'],
    ['Dependencies', 'contributing/dependencies.md'], ['Benchmarks', 'contributing/benchmarks.md'],
  ]],
];

/** `merchants/index.md` → `merchants/index.html`: every page is a file, so relative links work at any base path. */
export const htmlPath = (source) => source.replace(/\.md$/, '.html');
