/**
 * The base URL of an OpenAI-compatible endpoint as a person types it, read once for both hosts:
 * `localhost:11434` (no scheme) is completed to `http://localhost:11434/v1` rather than refused
 * with a puzzling "got localhost:", and anything that cannot be an endpoint gets one sentence that
 * says what to type instead.
 */

export type EndpointUrl =
  | {
      readonly ok: true;
      readonly url: string;
      /** The text was completed: the scheme (and `/v1`) added. */ readonly completed: boolean;
    }
  | { readonly ok: false; readonly error: string };

export const EXAMPLE_BASE_URL = 'http://localhost:11434/v1';

/** A host name on this machine or a private network: such servers speak plain http and usually need no key. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '0.0.0.0' ||
    host === 'host.docker.internal' ||
    host.endsWith('.local') ||
    /^10\.\d+\.\d+\.\d+$/.test(host) ||
    /^192\.168\.\d+\.\d+$/.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\.\d+\.\d+$/.test(host)
  );
}

/** `host`, `host:port` or `host:port/path` with no scheme. */
const SCHEMELESS = /^(\[[0-9a-f:.]+\]|[a-z0-9][a-z0-9.-]*)(:\d{1,5})?(\/\S*)?$/i;

export function readEndpointUrl(text: string): EndpointUrl {
  const raw = text.trim();
  if (raw === '') return { ok: false, error: `The base URL is empty; give the API root, such as ${EXAMPLE_BASE_URL}.` };
  let candidate = raw;
  let completed = false;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && SCHEMELESS.test(raw)) {
    const m = SCHEMELESS.exec(raw)!;
    const scheme = isPrivateHost(m[1]!) ? 'http' : 'https';
    candidate = `${scheme}://${raw}${m[3] === undefined || m[3] === '/' ? '/v1' : ''}`.replace(/\/\/v1$/, '/v1');
    completed = true;
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { ok: false, error: `"${raw}" is not a URL; give the API root, such as ${EXAMPLE_BASE_URL}.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      ok: false,
      error: `"${raw}" must start with http:// or https://, such as ${EXAMPLE_BASE_URL}.`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, error: 'The base URL must not contain a user name or password; keep the key out of it.' };
  }
  return { ok: true, url: url.toString().replace(/\/+$/, ''), completed };
}
