/**
 * What every build emits for (docs/site/install.md "Supported browsers"): ES2022, with the syntax Safari 15 cannot parse lowered.
 * Without `safari15` the bundler keeps class static blocks (`static { … }`), a syntax error before Safari 16.4,
 * which would stop the whole element on the iPhones that stay on iOS 15.
 */
export const browserTarget = ['es2022', 'safari15'];
