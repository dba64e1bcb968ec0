import { PayStepAmount } from './pay-step-amount.js';
import { PayStepCard } from './pay-step-card.js';
import { PayStepDetails } from './pay-step-details.js';
import { PayStepMethod } from './pay-step-method.js';
import { PayStepOtp } from './pay-step-otp.js';
import { PayStepPush } from './pay-step-push.js';
import { PayStepResult } from './pay-step-result.js';
import { PayStepStatus } from './pay-step-status.js';
import { PayStepTransfer } from './pay-step-transfer.js';

/** The internal step elements by tag. */
export const stepElements = {
  'pay-step-status': PayStepStatus,
  'pay-step-amount': PayStepAmount,
  'pay-step-method': PayStepMethod,
  'pay-step-details': PayStepDetails,
  'pay-step-push': PayStepPush,
  'pay-step-otp': PayStepOtp,
  'pay-step-transfer': PayStepTransfer,
  'pay-step-card': PayStepCard,
  'pay-step-result': PayStepResult,
} as const;

/**
 * Registers the step elements the first time a checkout connects (not on import,
 * so importing the package has no side effects); tolerates a second copy of the script.
 */
export function defineSteps(registry: CustomElementRegistry = customElements): void {
  for (const [tag, element] of Object.entries(stepElements)) {
    if (!registry.get(tag)) registry.define(tag, element);
  }
}
