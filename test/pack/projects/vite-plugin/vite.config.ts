// docs/site/sandbox/index.md, "In a Vite dev server": the sandbox's API on the dev server's own port.
import { defineConfig } from 'vite';
import { paySandbox } from 'pay-checkout/sandbox';

export default defineConfig({ plugins: [paySandbox()] });
