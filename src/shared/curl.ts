/** Builds the example request as a curl command a reader can paste into a POSIX shell. */

/** The path every view's example request calls, whatever its API label says. */
export const USERS_PATH = '/api/v2/users';

/** Quotes a shell word only when it needs it, so the common case reads cleanly. */
export function shellQuote(word: string, preferDouble = false): string {
	if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
	if (preferDouble && /^[^"$`\\!\n]*$/.test(word)) return `"${word}"`;
	return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** What a curl command sends. */
export interface CurlRequest {
	/** The server, e.g. `http://203.0.113.24:8443`, with no trailing slash needed. */
	baseUrl: string;
	/** The bearer key; no Authorization header when empty. */
	key: string;
	/** The request path; `/api/v2/users` by default. */
	path?: string;
	/** Further headers, each sent as `-H "name: value"` after the key's, in order. */
	headers?: readonly (readonly [string, string])[];
	/** The query string, without its `?`, e.g. `__code=401`; none when empty. */
	query?: string;
	/** The method, when not GET: sent as `-X <method>` (a QUERY, say). */
	method?: string | undefined;
	/** The body to send as written (`--data-raw`); its Content-Type goes among the headers. */
	body?: string | undefined;
}

/**
 * A shell command over several lines: the command, then each argument (an option with its value,
 * or the URL) on a line of its own, indented, every line but the last ending in ` \`. With one
 * argument or none it stays on one line.
 */
export function shellLines(command: string, args: readonly string[]): string {
	return [command, ...args].join(args.length > 1 ? ' \\\n  ' : ' ');
}

/** `curl -H "Authorization: Bearer <key>" <baseUrl>/api/v2/users`, quoted for a POSIX shell. */
export function buildCurl({
	baseUrl,
	key,
	path = USERS_PATH,
	headers = [],
	query = '',
	method = 'GET',
	body,
}: CurlRequest): string {
	const url = `${baseUrl.replace(/\/+$/, '')}${path}${query ? `?${query}` : ''}`;
	const lines = [
		...(key ? [`Authorization: Bearer ${key}`] : []),
		// `-H "name:"` would make curl drop the header; `-H "name;"` sends it empty.
		...headers.map(([name, value]) => (value ? `${name}: ${value}` : `${name};`)),
	].map((line) => `-H ${shellQuote(line, true)}`);
	const sent = body === undefined ? [] : [`--data-raw ${shellQuote(body)}`];
	return shellLines(method === 'GET' ? 'curl' : `curl -X ${method}`, [
		...lines,
		...sent,
		shellQuote(url),
	]);
}
