/// <reference types="vite/client" />
// README "Vue": pay-checkout/vue types <pay-checkout> in templates (vue-tsc).
import 'pay-checkout/vue';
