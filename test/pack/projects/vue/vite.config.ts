import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

// Vue must leave <pay-checkout> to the browser (docs/site/frameworks/vue.md).
export default defineConfig({
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'pay-checkout' } } })],
});
