import { InvalidRequestError } from './errors.js';
import { baseUrls } from './send.js';

/**
 * A key whose prefix names an environment (`mk_test_`, `pk_test_`, `sk_test_`: the sandbox's; `*_live_`: production)
 * must not be sent anywhere else. Keys without such a prefix are not judged. The key itself never enters the message.
 */
export function checkKeyTarget(key: string, field: string, baseUrl: string): void {
  const prefix = /^(?:mk|pk|sk)_(test|live)_/.exec(key);
  if (!prefix) return;
  const target = targetOf(baseUrl);
  const shown = `${prefix[0]}…`;
  if (prefix[1] === 'test' && target === 'production') {
    throw new InvalidRequestError([
      {
        field,
        message: `is a test key (${shown}) but the base URL is production (${baseUrl}); pass baseUrl: your sandbox's /v1 (e.g. http://127.0.0.1:4010/v1) or environment: 'development', or use your live key`,
      },
    ]);
  }
  if (prefix[1] === 'live' && target === 'test') {
    throw new InvalidRequestError([
      {
        field,
        message: `is a live key (${shown}) but the base URL ${baseUrl} is a sandbox or development service; use that service's test key there, or leave baseUrl out to reach production`,
      },
    ]);
  }
}

/** Production, a test service (the development base URL, a sandbox on loopback), or a host we cannot judge (a proxy). */
function targetOf(baseUrl: string): 'production' | 'test' | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.origin === new URL(baseUrls.production).origin) return 'production';
  if (url.origin === new URL(baseUrls.development).origin) return 'test';
  return /^(?:localhost|127(?:\.\d+){3}|\[::1\])$/.test(url.hostname) ? 'test' : undefined;
}
