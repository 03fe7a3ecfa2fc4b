/**
 * Code samples for an operation, generated from the contract: the server, method, path, query
 * parameters and the auth header its security scheme asks for. The key comes from the
 * environment variable API_KEY, so no sample ever holds a real key.
 */
import { shellLines, shellQuote } from '../shared/curl.ts';

/** What a sample sends. */
export interface SampleRequest {
	method: string;
	/** The server URL, e.g. `http://127.0.0.1:4010`. */
	server: string;
	path: string;
	/** Query parameters with an example value. */
	query: readonly { name: string; value: string }[];
	/** Header parameters with an example value, such as a preflight's `Origin`. */
	headers?: readonly { name: string; value: string }[] | undefined;
	/** The header that carries the key, when the operation needs one. */
	auth?: { header: string; prefix: string } | undefined;
	/**
	 * Whether the answer has a body to print; without one (HEAD, a 204) a sample prints the
	 * status and headers instead.
	 */
	body?: boolean | undefined;
}

/** What a sample says, on one line, when API_KEY is unset or empty, instead of sending a request. */
export const NO_KEY_MESSAGE = 'export a key from a view page first';

/** What runs a sample as it is copied: a POSIX shell, python3, or Node saved as an `.mjs` file. */
export type SampleRunner = 'sh' | 'python' | 'node';

/** One code sample. */
export interface CodeSample {
	/** The tool or language, as the tab shows it. */
	label: string;
	/** The language for a reader (and a highlighter). */
	language: string;
	/** What runs it; the samples test runs each one this way. */
	runner: SampleRunner;
	code: string;
}

/** The full URL of a sample request, with its query string. */
export function sampleUrl({ server, path, query }: SampleRequest): string {
	const url = new URL(`${server.replace(/\/+$/, '')}${path}`);
	for (const { name, value } of query) url.searchParams.append(name, value);
	return url.href;
}

const jsString = (value: string): string =>
	`'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const pyString = (value: string): string =>
	`"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/**
 * curl, JavaScript fetch, Python requests and HTTPie samples for one request. A sample that
 * sends the key from API_KEY stops with one line when it is unset or empty, so none ever sends
 * `Bearer undefined` or an empty key.
 */
export function codeSamples(request: SampleRequest): CodeSample[] {
	const url = sampleUrl(request);
	const { auth, headers = [] } = request;
	const method = request.method.toUpperCase();
	const body = request.body ?? method !== 'HEAD';
	// `${API_KEY:?…}`: the shell prints "API_KEY: …" and runs nothing when it is unset or empty.
	const shellKey = `\${API_KEY:?${NO_KEY_MESSAGE}}`;
	// One header a line, then the URL: a reader sees the whole request without scrolling sideways.
	const curl = shellLines(
		[
			'curl',
			...(method === 'HEAD' ? ['--head'] : body ? [] : ['-i']),
			...(method === 'GET' || method === 'HEAD' ? [] : ['-X', method]),
		].join(' '),
		[
			...headers.map(({ name, value }) => `-H ${shellQuote(`${name}: ${value}`, true)}`),
			...(auth ? [`-H "${auth.header}: ${auth.prefix}${shellKey}"`] : []),
			shellQuote(url),
		],
	);
	const fetchHeaders = [
		...headers.map(({ name, value }) => `${jsString(name)}: ${jsString(value)}`),
		...(auth ? [`${jsString(auth.header)}: \`${auth.prefix}\${process.env.API_KEY}\``] : []),
	];
	const fetchLines = [
		...(auth
			? [
					'if (!process.env.API_KEY) {',
					`  console.error(${jsString(`API_KEY: ${NO_KEY_MESSAGE}`)});`,
					'  process.exit(1);',
					'}',
				]
			: []),
		`const response = await fetch(${jsString(url)}, {`,
		`  method: ${jsString(method)},`,
		...(fetchHeaders.length > 0 ? [`  headers: { ${fetchHeaders.join(', ')} },`] : []),
		'});',
		body
			? 'console.log(response.status, JSON.stringify(await response.json(), null, 2));'
			: 'console.log(response.status, Object.fromEntries(response.headers));',
	];
	const pyHeaders = [
		...headers.map(({ name, value }) => `${pyString(name)}: ${pyString(value)}`),
		...(auth ? [`${pyString(auth.header)}: ${pyString(auth.prefix)} + os.environ["API_KEY"]`] : []),
	];
	const python = [
		'import os',
		...(auth ? ['import sys'] : []),
		'import requests',
		'',
		...(auth
			? [
					'if not os.environ.get("API_KEY"):',
					`    sys.exit(${pyString(`API_KEY: ${NO_KEY_MESSAGE}`)})`,
					'',
				]
			: []),
		`response = requests.request(`,
		`    ${pyString(method)},`,
		`    ${pyString(url)},`,
		...(pyHeaders.length > 0 ? [`    headers={${pyHeaders.join(', ')}},`] : []),
		'    timeout=10,',
		')',
		body
			? 'print(response.status_code, response.json())'
			: 'print(response.status_code, dict(response.headers))',
	];
	// --ignore-stdin: run from a script, HTTPie would otherwise send stdin as a body, and POST it.
	const httpie = [
		'http',
		'--ignore-stdin',
		...(body ? [] : ['--headers']),
		method,
		shellQuote(url),
		...headers.map(({ name, value }) => shellQuote(`${name}:${value}`, true)),
		...(auth ? [`"${auth.header}:${auth.prefix}${shellKey}"`] : []),
	].join(' ');
	return [
		{ label: 'curl', language: 'sh', runner: 'sh', code: curl },
		{ label: 'Node (fetch)', language: 'js', runner: 'node', code: fetchLines.join('\n') },
		{ label: 'Python (requests)', language: 'python', runner: 'python', code: python.join('\n') },
		{ label: 'HTTPie', language: 'sh', runner: 'sh', code: httpie },
	];
}

/** The header a security scheme puts the key in, or undefined when samples cannot send it. */
export function authHeader(scheme: {
	type: string;
	scheme?: string | undefined;
	name?: string | undefined;
	in?: string | undefined;
}): { header: string; prefix: string } | undefined {
	if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') {
		return { header: 'Authorization', prefix: 'Bearer ' };
	}
	if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) {
		return { header: scheme.name, prefix: '' };
	}
	return undefined;
}
