/**
 * A lazy chunk held back for a page that asks (the `pay-test-hold` cookie, the end of the module's path) until that
 * page lets it go (`POST /test/release`): on a phone's line the chunks the next screen needs arrive after the link's
 * answer, as they never do from the local dev server (quick-tap.test.ts). The browser tests run one file at a time,
 * so no other file waits; a held request goes after 10 s whatever happens.
 */
export function slowChunkMiddleware() {
  let release = () => {};
  return async (context, next) => {
    if (context.path === '/test/release' && context.method === 'POST') {
      release();
      context.status = 204;
      return;
    }
    const held = /(?:^|;\s*)pay-test-hold=([\w./-]+)/.exec(context.get('cookie'))?.[1];
    if (held && context.path.endsWith(held)) {
      await new Promise((resolve) => {
        release = resolve;
        setTimeout(resolve, 10_000);
      });
    }
    return next();
  };
}
