/** An HTTP answer as the tests read it: status, headers and the body as JSON (`{ _text }` when it is not JSON). */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

/** reads a fetch response whole into a JsonAnswer */
export async function readJsonAnswer(res: Response): Promise<JsonAnswer> {
  const text = await res.text();
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { _text: text };
  }
  return { status: res.status, headers: res.headers, json };
}
