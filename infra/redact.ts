/**
 * A library's error text made fit for the server log. Libraries put the URL they called in their
 * messages (viem's "URL: …"), and providers put their keys in those URLs: a URL keeps its scheme
 * and host only, and runs that look like secrets (64 hex digits, long tokens mixing letters and
 * digits, `key=…` pairs) are replaced. Addresses (0x and 40 hex digits) stay: they are public and
 * name what failed.
 */
const URL_RE = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/?#@'"]*@)?([^\s/?#'"]+)([^\s'"]*)/gi;
const PAIR_RE = /\b((?:api[-_]?key|access[-_]?key|key|token|secret|password|passwd|auth(?:orization)?)["']?(?:\s*[:=]\s*["']|\s*=\s*|:)|bearer\s+)[^\s"'&,;]+/gi;
const HEX64_RE = /\b(?:0x)?[0-9a-f]{64}\b/gi;
const TOKEN_RE = /(?<![A-Za-z0-9_-])(?!0x[0-9a-fA-F]{40}(?![A-Za-z0-9_-]))(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{24,}/g;

export const REDACTED = '[redacted]';

export function redact(text: string): string {
  return text
    .replace(URL_RE, (_m, scheme: string, host: string, rest: string) => `${scheme}${host}${rest === '' ? '' : `/${REDACTED}`}`)
    .replace(PAIR_RE, `$1${REDACTED}`)
    .replace(HEX64_RE, REDACTED)
    .replace(TOKEN_RE, REDACTED);
}

/** an error of any kind as one redacted line for the log: its message, and its causes' */
export function redactedError(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e !== undefined && e !== null && depth < 4; depth += 1) {
    parts.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return redact(parts.join(' <- ')).replace(/\s+/g, ' ');
}
