/** The service contract: one schema per resource; every type comes from `z.infer`. */
export * from './common.js';
export * from './validation.js';
export * from './json-depth.js';
export * from './status-wait.js';
export * from './limits.js';
export * from './errors.js';
export * from './orders.js';
export * from './gateways.js';
export * from './links.js';
export * from './partners.js';
export * from './webhook-payloads.js';
export * from './checkout.js';
export * from './dashboard.js';
export * from './headers.js';
export * from './deliveries.js';
export * from './sandbox-control.js';
export * from './sandbox-views.js';
