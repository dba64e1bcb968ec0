import { createApp } from 'vue';
import 'pay-checkout/define';
import App from './App.vue';

createApp(App).mount('#app');
