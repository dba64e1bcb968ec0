/**
 * The handler's answers keep their text beside them, so the Node adapter writes it in one go instead of reading the
 * Response's body stream back (a stream read costs more than the answer's whole JSON on a busy server).
 */
const texts = new WeakMap<Response, string>();

export function textResponse(text: string, init: ResponseInit): Response {
  const response = new Response(text, init);
  texts.set(response, text);
  return response;
}

/** The whole body of a `textResponse` nobody has read yet; undefined for any other Response. */
export const unreadText = (response: Response): string | undefined => (response.bodyUsed ? undefined : texts.get(response));
