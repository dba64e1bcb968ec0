import { mount } from 'svelte';
import 'pay-checkout/define';
import App from './App.svelte';
mount(App, { target: document.body });
