import type { FirstMessages } from './messages.js';

/** Colombian Spanish for the first screens and the frame: bundled with the element (es.ts has the rest). */
export const esFirst: FirstMessages = {
  locale: 'es',
  checkoutLabel: 'Pago',
  loading: 'Cargando el pago…',
  total: 'Total a pagar',
  back: 'Volver',
  continue: 'Continuar',
  amount: {
    title: '¿Cuánto vas a pagar?',
    label: 'Valor en pesos',
    range: (min, max) => `Entre ${min} y ${max}`,
    presets: 'Valores sugeridos',
  },
  method: {
    title: 'Elige cómo pagar',
    legend: 'Medio de pago',
    noneForAmount: (amount) => `Ningún medio de pago de este enlace acepta ${amount}. Pide al comercio otro enlace.`,
    kinds: {
      push: (name) => `Aprueba el pago en la app ${name}`,
      otp: (name) => `Confirma con un código que ${name} te envía por SMS`,
      transfer: (name) => `Transferencia inmediata desde cualquier banco con ${name}`,
      card: () => 'Crédito o débito',
    },
  },
  error: {
    title: 'Algo salió mal',
    retry: 'Reintentar',
  },
  errorPrefix: 'Error:',
  rules: {
    'amount.required': () => 'Escribe el valor a pagar',
    'amount.invalid': () => 'Escribe solo números, por ejemplo 50.000',
    'amount.decimals': () => 'El valor va en pesos enteros, sin centavos; por ejemplo 25.000',
    'amount.zero': () => 'El valor debe ser mayor que cero',
    'amount.below_min': ({ min }) => `El valor mínimo es ${min ?? ''}`,
    'amount.above_max': ({ max }) => `El valor máximo es ${max ?? ''}`,
    'amount.out_of_range': () => 'Este medio de pago no acepta ese valor',
    'method.amount_out_of_range': ({ min, max }) => `Acepta valores entre ${min ?? ''} y ${max ?? ''}`,
    'error.network': () => 'No pudimos conectarnos. Revisa tu conexión a internet e inténtalo de nuevo.',
    'error.service': () => 'El servicio de pagos rechazó la solicitud. Inténtalo de nuevo.',
    'error.rate_limited': () => 'Hubo demasiados intentos. Inténtalo de nuevo en un minuto.',
    'error.rate_limited_minutes': () => 'Hubo demasiados intentos. Inténtalo de nuevo en unos minutos.',
    'error.rate_limited_hours': () => 'Hubo demasiados intentos con estos datos. Inténtalo de nuevo en unas horas o usa otro medio de pago.',
    'error.unavailable': () => 'El servicio de pagos no está disponible en este momento. Inténtalo de nuevo en un momento.',
    'error.checking': () => 'Estamos verificando si tu pedido se creó. Espera unos segundos e inténtalo de nuevo: no se cobrará dos veces.',
    'error.invalid_response': () => 'El servicio de pagos respondió algo que no entendimos. Inténtalo de nuevo.',
    'error.config': () => 'Este pago está mal configurado. Avisa al comercio.',
    'error.no_methods': () => 'Este enlace no tiene medios de pago disponibles.',
  },
};
