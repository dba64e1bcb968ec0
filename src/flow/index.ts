/** The buyer flow as data: states, events, `transition()`, and the buyer input rules. No DOM, no I/O. */
export * from './types.js';
export { initialState, transition } from './machine.js';
export { emptyFields } from './screens.js';
export { stepOf, hasOrder, isWaiting, isWaitingStep, orderOf, savedOrderOf, expiresAtOf, isNewRequest } from './selectors.js';
export { toFlowError, errorMessage, isRetryable } from './errors.js';
export {
  parseAmount,
  formatAmountInput,
  normalizePhone,
  normalizeIdNumber,
  validateOtp,
  otpInput,
  validateEmail,
  validateDetails,
  amountRange,
  gatewayAcceptsAmount,
  neededFields,
  idTypeChoices,
  type ShopperDetails,
  type DetailsResult,
} from './rules.js';
