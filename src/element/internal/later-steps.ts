import { PayStepCard } from './pay-step-card.js';
import { PayStepDetails } from './pay-step-details.js';
import { PayStepOtp } from './pay-step-otp.js';
import { PayStepPush } from './pay-step-push.js';
import { PayStepResult } from './pay-step-result.js';
import { PayStepTransfer } from './pay-step-transfer.js';

/** The steps after the first screen: a lazy chunk (see `loadLaterSteps`). */
export const laterSteps = {
  'pay-step-details': PayStepDetails,
  'pay-step-push': PayStepPush,
  'pay-step-otp': PayStepOtp,
  'pay-step-transfer': PayStepTransfer,
  'pay-step-card': PayStepCard,
  'pay-step-result': PayStepResult,
} as const;
