/**
 * Code samples for an operation, generated from the contract: the server, method, path, query
 * parameters and the auth header its security scheme asks for. The key comes from the
 * environment variable API_KEY, so no sample ever holds a real key.
 */
import { shellQuote } from '../shared/curl.ts';

/** What a sample sends. */
export interface SampleRequest {
	method: string;
	/** The server URL, e.g. `http://127.0.0.1:4010`. */
	server: string;
	path: string;
	/** Query parameters with an example value. */
	query: readonly { name: string; value: string }[];
	/** The header that carries the key, when the operation needs one. */
	auth?: { header: string; prefix: string } | undefined;
}

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

/** curl, JavaScript fetch, Python requests and HTTPie samples for one request. */
export function codeSamples(request: SampleRequest): CodeSample[] {
	const url = sampleUrl(request);
	const { method, auth } = request;
	const isGet = method.toUpperCase() === 'GET';
	const curl = [
		'curl',
		...(isGet ? [] : ['-X', method.toUpperCase()]),
		...(auth ? ['-H', `"${auth.header}: ${auth.prefix}$API_KEY"`] : []),
		shellQuote(url),
	].join(' ');
	const fetchLines = [
		`const response = await fetch(${jsString(url)}, {`,
		`  method: ${jsString(method.toUpperCase())},`,
		...(auth
			? [`  headers: { ${jsString(auth.header)}: \`${auth.prefix}\${process.env.API_KEY}\` },`]
			: []),
		'});',
		'console.log(response.status, JSON.stringify(await response.json(), null, 2));',
	];
	const python = [
		'import os',
		'import requests',
		'',
		`response = requests.request(`,
		`    ${pyString(method.toUpperCase())},`,
		`    ${pyString(url)},`,
		...(auth
			? [
					`    headers={${pyString(auth.header)}: ${pyString(auth.prefix)} + os.environ["API_KEY"]},`,
				]
			: []),
		'    timeout=10,',
		')',
		'print(response.status_code, response.json())',
	];
	// --ignore-stdin: run from a script, HTTPie would otherwise send stdin as a body, and POST it.
	const httpie = [
		'http',
		'--ignore-stdin',
		method.toUpperCase(),
		shellQuote(url),
		...(auth ? [`"${auth.header}:${auth.prefix}$API_KEY"`] : []),
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
