// The one line pay-checkout needs: Vue must leave <pay-checkout> to the browser (on the server too, with SSR on).
export default defineNuxtConfig({
  compatibilityDate: '2025-01-01',
  telemetry: false,
  vue: { compilerOptions: { isCustomElement: (tag) => tag === 'pay-checkout' } },
});
