import type { FirstMessages } from './messages.js';

/** English for the first screens and the frame: bundled with the element, as es-first.ts (en.ts has the rest). */
export const enFirst: FirstMessages = {
  locale: 'en',
  checkoutLabel: 'Payment',
  loading: 'Loading the payment…',
  total: 'Total to pay',
  back: 'Back',
  continue: 'Continue',
  amount: {
    title: 'How much are you paying?',
    label: 'Amount in pesos',
    range: (min, max) => `Between ${min} and ${max}`,
    presets: 'Suggested amounts',
  },
  method: {
    title: 'Choose how to pay',
    legend: 'Payment method',
    noneForAmount: (amount) => `None of this link’s payment methods takes ${amount}. Ask the store for another link.`,
    kinds: {
      push: (name) => `Approve the payment in the ${name} app`,
      otp: (name) => `Confirm with a code ${name} sends you by SMS`,
      transfer: (name) => `Instant transfer from any bank with ${name}`,
      card: () => 'Credit or debit',
    },
  },
  error: {
    title: 'Something went wrong',
    retry: 'Retry',
  },
  errorPrefix: 'Error:',
  rules: {
    'amount.required': () => 'Enter the amount to pay',
    'amount.invalid': () => 'Enter digits only, for example 50000 or 50.000',
    'amount.decimals': () => 'Enter whole pesos, no cents; for example 25000',
    'amount.zero': () => 'The amount must be more than zero',
    'amount.below_min': ({ min }) => `The minimum is ${min ?? ''}`,
    'amount.above_max': ({ max }) => `The maximum is ${max ?? ''}`,
    'amount.out_of_range': () => 'This payment method does not take that amount',
    'method.amount_out_of_range': ({ min, max }) => `Takes amounts between ${min ?? ''} and ${max ?? ''}`,
    'error.network': () => 'We could not connect. Check your internet connection and try again.',
    'error.service': () => 'The payment service refused the request. Try again.',
    'error.rate_limited': () => 'There were too many attempts. Try again in a minute.',
    'error.rate_limited_minutes': () => 'There were too many attempts. Try again in a few minutes.',
    'error.rate_limited_hours': () => 'There were too many attempts with these details. Try again in a few hours, or use another payment method.',
    'error.unavailable': () => 'The payment service is unavailable right now. Try again in a moment.',
    'error.checking': () => 'We are checking whether your order was created. Wait a few seconds and try again: you will not be charged twice.',
    'error.invalid_response': () => 'The payment service sent an answer we could not read. Try again.',
    'error.config': () => 'This payment is misconfigured. Please tell the store.',
    'error.no_methods': () => 'This link has no payment methods available.',
  },
};
