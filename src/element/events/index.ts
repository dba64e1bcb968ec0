/** Public events of `<pay-checkout>`, one file each. */
export { payReadyEvent } from './pay-ready.js';
export type { PayReadyDetail, PayReadyEvent } from './pay-ready.js';
export { payOrderCreatedEvent } from './pay-order-created.js';
export type { PayOrderCreatedDetail, PayOrderCreatedEvent } from './pay-order-created.js';
export { payStatusChangeEvent } from './pay-status-change.js';
export type { PayStatusChangeDetail, PayStatusChangeEvent } from './pay-status-change.js';
export { payPaidEvent } from './pay-paid.js';
export type { PayPaidDetail, PayPaidEvent } from './pay-paid.js';
export { payFailedEvent } from './pay-failed.js';
export type { PayFailedDetail, PayFailedEvent } from './pay-failed.js';
export { payCancelledEvent } from './pay-cancelled.js';
export type { PayCancelledDetail, PayCancelledEvent } from './pay-cancelled.js';
export { payErrorEvent } from './pay-error.js';
export type { PayErrorDetail, PayErrorEvent } from './pay-error.js';
