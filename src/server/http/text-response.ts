/**
 * The handler's answers as web Responses. Each keeps its text beside it, so the Node adapter writes it in one go
 * instead of reading the Response's body stream back (a stream read costs more than the answer's whole JSON on a busy
 * server); where the adapter reaches the handler natively, no Response is made at all (incoming.ts).
 */
import type { Answer } from './incoming.js';

const texts = new WeakMap<Response, string>();

export function textResponse(text: string, init: ResponseInit): Response {
  const response = new Response(text, init);
  texts.set(response, text);
  return response;
}

/** The whole body of a `textResponse` nobody has read yet; undefined for any other Response. */
export const unreadText = (response: Response): string | undefined => (response.bodyUsed ? undefined : texts.get(response));

export const toResponse = ({ status, headers, text, bytes }: Answer): Response =>
  bytes ? new Response(bytes as Uint8Array<ArrayBuffer>, { status, headers }) : text === null ? new Response(null, { status, headers }) : textResponse(text, { status, headers });

/** `base` (already lower-case) with `extra` added under lower-case names, as `Headers` would name them. */
export function answerHeaders(base: Record<string, string>, extra: Record<string, string> = {}): Record<string, string> {
  for (const [name, value] of Object.entries(extra)) base[name.toLowerCase()] = value;
  return base;
}
