import type { FirstMessages } from './messages.js';

/** Colombian Spanish for the first screens and the frame: bundled with the element (es.ts has the rest). */
export const esFirst: FirstMessages = {
  locale: 'es',
  checkoutLabel: 'Pago',
  loading: 'Cargando el pago…',
  total: 'Total a pagar',
  back: 'Volver',
  continue: 'Continuar',
  merchantKeyRefused:
    'Este pago está mal configurado: la página incluye una llave secreta del comercio. No se usó. Avisa al comercio.',
  amount: {
    title: '¿Cuánto vas a pagar?',
    label: 'Valor en pesos',
    range: (min, max) => `Entre ${min} y ${max}`,
  },
  method: {
    title: 'Elige cómo pagar',
    legend: 'Medio de pago',
    none: 'Este enlace no tiene medios de pago disponibles.',
  },
  link: {
    notFoundTitle: 'No encontramos este enlace de pago',
    notFoundBody: 'Revisa la dirección o pide al comercio un enlace nuevo.',
    paidTitle: 'Este enlace ya fue pagado',
    paidBody: 'No necesitas pagar otra vez. Si tienes dudas, contacta al comercio.',
    expiredTitle: 'Este enlace de pago venció',
    expiredBody: 'Pide al comercio un enlace nuevo.',
  },
  error: {
    title: 'Algo salió mal',
    retry: 'Reintentar',
  },
  rules: {
    'amount.required': () => 'Escribe el valor a pagar',
    'amount.invalid': () => 'Escribe solo números, por ejemplo 50.000',
    'amount.decimals': () => 'Escribe el valor en pesos, sin centavos',
    'amount.zero': () => 'El valor debe ser mayor que cero',
    'amount.below_min': ({ min }) => `El valor mínimo es ${min ?? ''}`,
    'amount.above_max': ({ max }) => `El valor máximo es ${max ?? ''}`,
    'amount.out_of_range': () => 'Este medio de pago no acepta ese valor',
    'method.amount_out_of_range': ({ min, max }) => `Acepta valores entre ${min ?? ''} y ${max ?? ''}`,
    'error.network': () => 'No pudimos conectarnos. Revisa tu conexión a internet e inténtalo de nuevo.',
    'error.service': () => 'El servicio de pagos rechazó la solicitud. Inténtalo de nuevo.',
    'error.rate_limited': () => 'Hay demasiadas solicitudes. Espera un momento e inténtalo de nuevo.',
    'error.unavailable': () => 'El servicio de pagos no está disponible en este momento. Inténtalo de nuevo en un momento.',
    'error.checking': () => 'Estamos verificando si tu pedido se creó. Espera unos segundos e inténtalo de nuevo: no se cobrará dos veces.',
    'error.invalid_response': () => 'El servicio de pagos respondió algo que no entendimos. Inténtalo de nuevo.',
    'error.config': () => 'Este pago está mal configurado. Avisa al comercio.',
    'error.no_methods': () => 'Este enlace no tiene medios de pago disponibles.',
  },
};
