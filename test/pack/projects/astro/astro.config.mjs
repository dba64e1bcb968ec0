// A static build (output: 'static', the default): nothing to configure for pay-checkout.
import { defineConfig } from 'astro/config';

export default defineConfig({});
