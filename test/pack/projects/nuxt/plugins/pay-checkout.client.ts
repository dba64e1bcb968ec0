// Registers the tag in the browser only (.client): the server renders it as plain HTML.
import 'pay-checkout/define';

export default defineNuxtPlugin(() => {});
