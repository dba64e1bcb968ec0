// Paying each live checkout as a reader would: the checkout's screens, then the phone simulator beside them (or the
// sandbox's card page), up to the receipt. Nequi also stops the Service Worker and reloads mid-payment.
const hashOf = { Nequi: 'live-nequi', Daviplata: 'live-daviplata', 'Bre-B': 'live-breb', Tarjeta: 'live-card' };
const waitingStep = { Nequi: 'push', Daviplata: 'otp', 'Bre-B': 'transfer', Tarjeta: 'redirect' };

const stepOf = (page, hash) =>
  page.evaluate((h) => document.querySelector(`.live-example[data-link="${h}"] pay-checkout`)?.step ?? '', hash);

async function waitForStep(page, hash, step) {
  await page
    .waitForFunction(([h, s]) => document.querySelector(`.live-example[data-link="${h}"] pay-checkout`)?.step === s, [hash, step])
    .catch(async (error) => {
      throw new Error(`${hash}: waited for "${step}", at "${await stepOf(page, hash)}" (${error.message.split('\n')[0]})`);
    });
}

export async function payThroughPhone(page, method, context) {
  const hash = hashOf[method];
  const checkout = page.locator(`.live-example[data-link="${hash}"] pay-checkout`);
  const phone = page.locator('.live-phone');
  await checkout.scrollIntoViewIfNeeded();
  await waitForStep(page, hash, 'method');
  await checkout.getByRole('button', { name: new RegExp(`^${method}`) }).click();
  await waitForStep(page, hash, 'details');
  await checkout.locator('select#id_type').selectOption({ label: 'Cédula de Ciudadanía (CC)' });
  await checkout.locator('input#id_number').fill('1020304050');
  if (method === 'Nequi') await checkout.locator('input#phone_number').fill('300 123 4567');
  await checkout.locator('button[part~="pay-button"]').click();
  await waitForStep(page, hash, waitingStep[method]);

  if (method === 'Nequi') {
    // Mid-payment: the browser stops the worker, the reader reloads; the order must still be there to approve.
    const cdp = await context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await page.reload({ waitUntil: 'load' });
    await page.locator(`.live-example[data-link="${hash}"] pay-checkout`).waitFor();
    await waitForStep(page, hash, 'push');
    await phone.getByRole('button', { name: /^Aprobar el pago/ }).first().click();
  } else if (method === 'Daviplata') {
    const code = (await phone.locator('.otp').last().textContent()).replace(/\D/g, '');
    if (code.length !== 6) throw new Error(`the phone shows no SMS code (${code})`);
    await checkout.locator('input#code').fill(code);
    await checkout.locator('form button[type="submit"]').click();
  } else if (method === 'Bre-B') {
    // The key as the reader sees it on the checkout, typed into the phone's bank app.
    const key = await checkout.locator('[part~="transfer-key"] .value').textContent();
    await phone.getByLabel('Llave Bre-B o contenido del código QR').fill(key.trim());
    await phone.getByRole('button', { name: 'Buscar transferencia' }).click();
    await phone.getByRole('button', { name: /^Pagar \$/ }).click();
  } else {
    await checkout.locator('a[part~="card-link"]').click();
    await page.waitForURL(/\/sandbox\/card\//);
    await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.waitForURL(/\/sandbox\/live\.html/);
    await page.locator(`.live-example[data-link="${hash}"] pay-checkout`).waitFor();
  }
  await waitForStep(page, hash, 'paid');
  const receipt = await page.locator(`.live-example[data-link="${hash}"] pay-checkout [part~="receipt"]`).innerText();
  if (!/Pago exitoso|Payment successful/.test(receipt) || !/50[.,]000/.test(receipt)) throw new Error(`no receipt: ${receipt.slice(0, 300)}`);
}
