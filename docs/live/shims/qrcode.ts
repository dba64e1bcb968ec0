/** `qrcode` in the Service Worker sandbox: no PNG (the live service's `qr_png`); the element draws `qr_data` itself. */
export default {
  toBuffer: async () => ({ toString: () => '' }),
};
