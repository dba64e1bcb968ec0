/**
 * A lazy chunk held back for a page that asks (the `pay-test-hold` cookie, the end of the module's path) until that
 * page lets it go (`POST /test/release` with the cookie still set, before or after it comes), for the modules named in `holdable`: on a phone's line the chunks the next screen needs arrive after the link's
 * answer, as they never do from the local dev server (quick-tap.test.ts). The browser tests run one file at a time,
 * so no other file waits; a held request goes after 10 s whatever happens.
 */
/** The modules a page may hold, never cached by the browser: a copy cached by an earlier page would not be held. */
const holdable = ['/src/element/steps/details-steps.ts', '/src/i18n/en.ts'];

export function slowChunkMiddleware() {
  // A release asked for before the held request came lets that request through at once.
  let release = () => void (released = true);
  let released = false;
  return async (context, next) => {
    const held = /(?:^|;\s*)pay-test-hold=([\w./-]+)/.exec(context.get('cookie'))?.[1];
    if (context.path === '/test/release' && context.method === 'POST') {
      // Only from a page that holds a module: a second release (an afterEach after the test's own) must not let the
      // next file's hold through before it is asked for.
      if (held) release();
      context.status = 204;
      return;
    }
    if (!holdable.includes(context.path)) return next();
    if (held && context.path.endsWith(held)) {
      if (!released) {
        await new Promise((resolve) => {
          release = resolve;
          setTimeout(resolve, 10_000);
        });
      }
      released = false;
      release = () => void (released = true);
    }
    await next();
    context.set('Cache-Control', 'no-store');
    context.remove('ETag');
    context.remove('Last-Modified');
  };
}
