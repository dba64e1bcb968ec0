import { esFirst } from './es-first.js';
import type { Messages } from './messages.js';
import { formatGroupedDigits } from './format-money.js';

/**
 * Colombian Spanish: the default catalog. The first screens' strings (es-first.ts) are in the element's first
 * script; these, for the later screens, arrive with the later steps' chunk.
 */
export const es: Messages = {
  ...esFirst,
  merchantKeyRefused:
    'Este pago está mal configurado: la página incluye una llave secreta del comercio. No se usó. Avisa al comercio.',
  link: {
    backToStore: (store) => (store ? `Volver a ${store}` : 'Volver a la tienda'),
    notFoundTitle: 'No encontramos este enlace de pago',
    notFoundBody: 'Revisa la dirección o pide al comercio un enlace nuevo.',
    paidTitle: 'Este enlace ya fue pagado',
    paidBody: 'No necesitas pagar otra vez. Si tienes dudas, contacta al comercio.',
    expiredTitle: 'Este enlace de pago venció',
    expiredBody: 'Pide al comercio un enlace nuevo.',
  },
  // es-CO's Intl name, "pesos colombianos", is longer than a Colombian buyer needs.
  sayMoney: (n, currency) =>
    currency === 'COP'
      ? `${formatGroupedDigits(n, 'es')} ${n === 1 ? 'peso' : 'pesos'}`
      : new Intl.NumberFormat('es-CO', { style: 'currency', currency, currencyDisplay: 'name' }).format(n),
  pay: (amount) => `Pagar ${amount}`,
  creatingOrder: 'Creando tu pago…',
  cancel: 'Cancelar pago',
  cancelling: 'Cancelando…',
  waiting: 'Esperando la confirmación…',
  resuming: {
    card: 'Estamos consultando tu pago con tarjeta; el servicio no responde por ahora, seguimos intentando…',
    order: 'Estamos consultando tu pago; el servicio no responde por ahora, seguimos intentando…',
  },
  details: {
    title: 'Tus datos',
    idType: 'Tipo de documento',
    idTypeChoose: 'Elige un tipo',
    idNumber: 'Número de documento',
    idNumberHint: 'Puedes escribirlo con o sin puntos',
    phone: 'Número de celular',
    phoneHint: (wallet) => `El celular registrado en ${wallet}, 10 dígitos`,
    contactPhoneHint: 'Tu celular de contacto, 10 dígitos',
    errorSummary: (count) => (count === 1 ? 'Revisa 1 dato' : `Revisa ${count} datos`),
    firstName: 'Nombre',
    lastName: 'Apellido',
    email: 'Correo electrónico',
    changeMethod: 'Cambiar medio de pago',
    dataNotice: (store) => [`${store} tratará tus datos personales según su `, 'política de tratamiento de datos', '.'],
    consentLabel: (store) => [`Autorizo a ${store} a tratar mis datos personales según su `, 'política de tratamiento de datos', ''],
    newTab: 'se abre en una pestaña nueva',
  },
  push: {
    title: (wallet) => `Acepta el pago en la app ${wallet}`,
    steps: (wallet) => [
      `Abre la notificación de ${wallet} que llegó a tu celular`,
      'Revisa los datos y acepta el pago',
      'Esta pantalla se actualizará sola',
    ],
    sentTo: (phone) => `Enviamos la notificación al celular ${phone}`,
    phoneEnding: (digits) => `terminado en ${digits}`,
    changeNumber: 'Cambiar número',
  },
  otp: {
    title: 'Ingresa el código',
    steps: (wallet) => [
      `${wallet} te envía por SMS un código de 6 dígitos`,
      'Escribe o pega el código aquí',
      'Confirma el pago y esta pantalla se actualizará sola',
    ],
    label: 'Código de 6 dígitos',
    hint: (wallet) => `Llega por SMS al celular registrado en ${wallet}`,
    submit: 'Confirmar pago',
    submitting: 'Confirmando…',
    attemptsLeft: (n) => (n === 1 ? 'Te queda 1 intento' : `Te quedan ${n} intentos`),
    newCode: 'Enviar un código nuevo',
    newCodeSent: 'Te enviamos un código nuevo por SMS',
  },
  transfer: {
    title: (network) => `Paga con ${network}`,
    instructions: 'Desde la app de tu banco, paga con la llave o escanea el código QR. Esta pantalla se actualizará sola.',
    keyLabel: 'Llave de la transferencia',
    copy: 'Copiar llave',
    copied: 'Llave copiada',
    copyFailed: 'No se pudo copiar. Dejamos la llave seleccionada: cópiala tú',
    qrAlt: (network) => `Código QR para pagar con ${network}`,
    qrLoading: 'Generando el código QR…',
    qrUnavailable: 'No se pudo mostrar el código QR; usa la llave.',
  },
  card: {
    title: 'Paga con tarjeta',
    instructions: 'Te llevaremos a la página segura del proveedor de tarjetas. Al terminar, volverás aquí.',
    go: 'Ir a pagar con tarjeta',
    returning: 'Consultando tu pago con tarjeta…',
    notYet: 'Aún no vemos tu pago con tarjeta. Si no lo terminaste, vuelve a la página de la tarjeta, elige otro medio de pago o cancela.',
    goBack: 'Volver a la página de la tarjeta',
  },
  countdown: {
    label: 'Tiempo restante',
    milestone: (s) =>
      s <= 0
        ? 'Se acabó el tiempo para pagar'
        : s < 60
          ? `Quedan ${s} segundos para pagar`
          : s === 60
            ? 'Queda 1 minuto para pagar'
            : `Quedan ${Math.round(s / 60)} minutos para pagar`,
    start: (s) => (s >= 120 ? `Tienes ${Math.round(s / 60)} minutos para pagar` : s >= 60 ? 'Tienes 1 minuto para pagar' : `Tienes ${s} segundos para pagar`),
    spoken: (min, s) => [min === 1 ? '1 minuto' : min > 0 ? `${min} minutos` : '', s === 1 ? '1 segundo' : s > 0 || min === 0 ? `${s} segundos` : ''].filter(Boolean).join(' y '),
  },
  receipt: {
    totalPaid: 'Total pagado',
    serviceReference: 'Referencia del pago',
    dateTime: 'Fecha y hora (Colombia)',
    print: 'Imprimir o guardar en PDF',
    newPayment: 'Hacer otro pago',
  },
  result: {
    paidTitle: '¡Pago exitoso!',
    paidBody: 'Tu pago fue confirmado. Guarda este comprobante.',
    method: 'Medio de pago',
    orderId: 'Número de orden',
    declinedTitle: 'El pago fue rechazado',
    declinedBody: 'No se hizo ningún cobro. Puedes intentarlo de nuevo con este u otro medio de pago.',
    tryAgain: 'Intentar de nuevo',
    cancelledTitle: 'Pago cancelado',
    cancelledBody: 'Cancelaste el pago. No se hizo ningún cobro.',
    expiredTitle: 'Se acabó el tiempo',
    expiredBody: 'El tiempo para completar el pago terminó y no se hizo ningún cobro.',
    newAttempt: 'Hacer un nuevo intento',
    otpAttemptsBody: 'Se agotaron los intentos del código. No se hizo ningún cobro.',
  },
  rules: {
    ...esFirst.rules,
    'id_type.required': () => 'Elige el tipo de documento',
    'id_type.not_accepted': () => 'Este medio de pago no acepta ese tipo de documento',
    'id_number.required': () => 'Escribe tu número de documento',
    'id_number.digits_only': () => 'Este tipo de documento lleva solo números',
    'id_number.letters_and_digits_only': () => 'Escribe solo letras y números',
    'id_number.too_short': () => 'El número de documento es muy corto',
    'id_number.too_long': () => 'El número de documento es muy largo',
    'id_number.rejected': () => 'El servicio no aceptó ese número de documento; revísalo',
    'phone_number.required': () => 'Escribe tu número de celular',
    'phone_number.invalid': () => 'Escribe un celular de 10 dígitos que empiece por 3',
    'phone_number.landline': () => 'Ese es un teléfono fijo; escribe un número de celular',
    'first_name.required': () => 'Escribe tu nombre',
    'first_name.too_long': () => 'El nombre es muy largo',
    'last_name.required': () => 'Escribe tu apellido',
    'last_name.too_long': () => 'El apellido es muy largo',
    'email.required': () => 'Escribe tu correo electrónico',
    'email.invalid': () => 'Escribe un correo válido, por ejemplo nombre@correo.com',
    'consent.required': () => 'Para pagar, autoriza el tratamiento de tus datos personales',
    'details.refused': () => 'El servicio no aceptó los datos del pago; revísalos e inténtalo de nuevo',
    'details.try_again': () => 'No pudimos confirmar el intento anterior; vuelve a pagar',
    'otp.required': () => 'Escribe el código que te llegó por SMS',
    'otp.invalid': () => 'El código tiene 6 dígitos',
    'otp.rejected': () => 'El código no es correcto o ya venció',
    'notice.status_check_failed': () => 'No pudimos consultar el estado del pago; seguimos intentando',
    'notice.cancel_failed': () => 'No pudimos cancelar; el pago sigue activo',
  },
};
