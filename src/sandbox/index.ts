/** `pay-checkout/sandbox` (Node only): the local service, on a socket, inside Vite, or as a bare fetch handler. */
export { createSandbox, type Sandbox, type SandboxOptions } from './app.js';
export { sandboxDialects, type SandboxDialect } from './dialect.js';
export { startSandbox, type RunningSandbox, type StartSandboxOptions } from './server.js';
export { paySandbox, sandboxPrefixes } from './vite-plugin.js';
export { sandboxBanner } from './banner.js';
export { SandboxGuard, type SandboxGuardOptions } from './guard.js';
export { createClock, type SandboxClock } from './clock.js';
export type { SandboxTimings } from './context.js';
export { demoLinks, demoMerchantKey, demoPartner, gatewayAmountLimits, otherMerchantKey, otherPartner, testCards } from './fixtures.js';
export { crc16ccittFalse, hasValidCrc, parseTlv, transferQrPayload } from './gateways/emvco.js';
export { acceptedOtpCodes, sandboxOtpCode } from './gateways/simulators.js';
// Deprecated: the deploy helpers live in pay-checkout/server/hosted-page; these names stay for one minor version.
export { configureHostedPage, hostedBuildBase, writeHostedPage, type HostedPageOptions } from './hosted-page.js';
