/** Lives with the webhooks, which may not import the server, and both need it. */
export { nodeBuiltin } from '../webhooks/node-builtin.js';
