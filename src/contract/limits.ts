/** Limits of the service, from the contract's Limits section and the live service's documentation. */
export const refundWindowMs = 96 * 60 * 60 * 1000;
/** Partial refunds are unsupported: a refund always returns the whole order total. */
export const fullRefundsOnly = true;
export const webhookAttemptTimeoutMs = 5_000;
export const webhookMaxAttempts = 3;
/** "About 1 second apart". */
export const webhookRetryDelayMs = 1_000;
export const orderIdMinimum = 1;
/** Request bodies larger than this are refused with 413. */
export const maxBodyBytes = 100 * 1024;
/** JSON nested deeper than this is refused before anything walks it; the contract's bodies are 3 levels deep. */
export const maxJsonDepth = 32;
/** Link descriptions: 1–255 characters. */
export const linkDescriptionMaxLength = 255;
export const orderKeyMaxLength = 100;
/** Wallet approvals and SMS codes lapse after about 5 minutes, transfers after about 15. */
export const pushApprovalTimeoutMs = 5 * 60 * 1000;
export const otpTimeoutMs = 5 * 60 * 1000;
export const transferTimeoutMs = 15 * 60 * 1000;
/** Three wrong SMS codes cancel the order. */
export const otpMaxAttempts = 3;
export const otpLength = 6;
/** Document types the digital wallet and the interbank transfer accept. */
export const walletDocumentTypes = ['CC', 'CE', 'TI'] as const;
