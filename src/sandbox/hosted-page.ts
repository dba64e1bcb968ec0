/**
 * The hosted page's deploy helpers, kept here for imports of `pay-checkout/sandbox` written before they moved to
 * `pay-checkout/server/hosted-page` (src/server/hosted-page/deploy.ts), where a production server may import them.
 */
import {
  configureHostedPage as configure,
  hostedBuildBase as buildBase,
  writeHostedPage as write,
  type HostedPageOptions as Options,
} from '../server/hosted-page/deploy.js';

/** @deprecated Import it from `pay-checkout/server/hosted-page`; this re-export goes in the next minor version. */
export const configureHostedPage = configure;
/** @deprecated Import it from `pay-checkout/server/hosted-page`; this re-export goes in the next minor version. */
export const writeHostedPage = write;
/** @deprecated Import it from `pay-checkout/server/hosted-page`; this re-export goes in the next minor version. */
export const hostedBuildBase = buildBase;
/** @deprecated Import it from `pay-checkout/server/hosted-page`; this re-export goes in the next minor version. */
export type HostedPageOptions = Options;
