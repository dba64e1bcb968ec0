// The one Vite base the three builds extend (vite.config.ts: the library for bundlers; vite.script.config.ts: the
// script tag; vite.hosted.config.ts: the hosted page), so a browser target or a plugin that changes what ships is
// added here once, not three times.
import { mergeConfig, type UserConfig } from 'vite';
import { browserTarget } from './browser-target.js';
import { liteLinkCheck } from './lite-link-check.js';
import { minifyTemplates } from './minify-templates.js';
import { ownOrderSchemas } from './own-order-schemas.js';
import { pureSchemas } from './pure-schemas.js';

/** Every build of shipped code: the supported browsers, minified, no source maps, lean templates and schemas. */
const everyBuildBase = (): UserConfig => ({
  // `vite build` only: whitespace out of the elements' `css`/`html` templates, unused contract schemas dropped.
  plugins: [minifyTemplates(), pureSchemas()],
  build: {
    target: browserTarget,
    // No maps in the package: they pointed at TypeScript sources it does not ship (design decision in README).
    sourcemap: false,
    // Library mode keeps whitespace unless asked.
    rolldownOptions: { output: { minify: true } },
  },
});

/**
 * The builds a buyer's browser loads as they are (script tag, hosted page): no later bundler reads them, so they carry
 * production Lit, no comments, and the first screen's lean link check and order schemas.
 */
const browserBase = (): UserConfig =>
  mergeConfig(everyBuildBase(), {
    // Lit and the libraries read the production condition; nothing here reads NODE_ENV at runtime after this.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    plugins: [liteLinkCheck(), ownOrderSchemas()],
    build: {
      copyPublicDir: false,
      rolldownOptions: {
        // Library mode keeps the entry's exports strict, which forces code shared with lazy chunks into a third file
        // (one more request before the first screen); let the entry export it to them instead.
        preserveEntrySignatures: 'allow-extension',
        // No pure annotations (no later bundler reads them); licences are in the third-party notices.
        output: { comments: false },
      },
    },
  });

/** `own` over `base`, with `own`'s plugins first: a build's own plugins keep running before the shared ones. */
function extend(base: UserConfig, own: UserConfig): UserConfig {
  return mergeConfig({ ...base, plugins: [...(own.plugins ?? []), ...(base.plugins ?? [])] }, { ...own, plugins: [] });
}

/** The ESM library for bundlers (dist/*.js): the merchant's bundler does the rest. */
export const libraryBuild = (own: UserConfig): UserConfig => extend(everyBuildBase(), own);

/** A build the browser loads as it is: the script tag and the hosted page. */
export const browserBuild = (own: UserConfig): UserConfig => extend(browserBase(), own);

/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`) for the chunks whose functions all run at once: the
 * details step's (as the details screen opens) and, where `entry`, the entry's (before the first interactive screen).
 * Chromium then compiles them eagerly, off the main thread where it streams the file, not one by one during a tap.
 * For `rolldownOptions.output.postBanner`.
 */
export const compileHint =
  ({ entry }: { entry: boolean }) =>
  (chunk: { isEntry: boolean; name: string }): string =>
    (entry && chunk.isEntry) || chunk.name === 'details-steps' ? '//# allFunctionsCalledOnLoad' : '';
