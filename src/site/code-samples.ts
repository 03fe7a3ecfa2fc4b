/**
 * Code samples for an operation, generated from the contract: the server, method, path, query
 * parameters (or the whole query string of an OpenAPI 3.2 `querystring` parameter) and the auth
 * header its security scheme asks for. The key comes from the environment variable API_KEY, so
 * no sample ever holds a real key.
 */
import { shellLines, shellQuote, USERS_PATH } from '../shared/curl.ts';
import { isMapping } from '../sources/mapping.ts';
import type { Parameter } from '../sources/openapi.ts';

/** What a sample sends. */
export interface SampleRequest {
	method: string;
	/** The server URL, e.g. `http://127.0.0.1:4010`. */
	server: string;
	path: string;
	/** Query parameters with an example value. */
	query: readonly { name: string; value: string }[];
	/**
	 * The whole query string, without its `?`, that a `querystring` parameter (OpenAPI 3.2) sends,
	 * serialized by its media type (`sampleQuerystring`): e.g. `__code=401&__example=invalid-key`.
	 */
	querystring?: string | undefined;
	/** Header parameters with an example value, such as a preflight's `Origin`. */
	headers?: readonly { name: string; value: string }[] | undefined;
	/** The header that carries the key, when the operation needs one. */
	auth?: { header: string; prefix: string } | undefined;
	/**
	 * Whether the answer has a body to print; without one (HEAD, a 204) a sample prints the
	 * status and headers instead.
	 */
	body?: boolean | undefined;
	/** The body the request sends, as text, and its media type (a QUERY's filter, say). */
	content?: SentBody | undefined;
}

/** A request body as a sample sends it: its media type, sent as Content-Type, and its text. */
export interface SentBody {
	mediaType: string;
	text: string;
}

/** What a sample says, on one line, when API_KEY is unset or empty, instead of sending a request. */
export const NO_KEY_MESSAGE = 'export a key from a view page first';

/**
 * What runs a sample as it is copied: a POSIX shell, python3, Node saved as an `.mjs` file,
 * `go run main.go`, ruby, php (with its curl extension), or `java Main.java`.
 */
export type SampleRunner = 'sh' | 'python' | 'node' | 'go' | 'ruby' | 'php' | 'java';

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
export function sampleUrl({ server, path, query, querystring }: SampleRequest): string {
	const url = new URL(`${server.replace(/\/+$/, '')}${path}`);
	// A querystring parameter is the whole query; the URL encodes only what a query cannot hold.
	if (querystring !== undefined) url.search = querystring;
	for (const { name, value } of query) url.searchParams.append(name, value);
	return url.href;
}

/**
 * The query string, without its `?`, an operation's `querystring` parameter (OpenAPI 3.2) sends in
 * its samples: its example, else its schema's (`example`, else the first of `examples`),
 * serialized by its media type (`serializedQuery`); undefined when it has none, or no such
 * parameter.
 */
export function sampleQuerystring(
	parameters: readonly Pick<Parameter, 'in' | 'example' | 'content'>[],
): string | undefined {
	const parameter = parameters.find((candidate) => candidate.in === 'querystring');
	if (parameter === undefined) return undefined;
	const [media] = Object.entries(parameter.content ?? {});
	const example = parameter.example ?? schemaExample(media?.[1].schema);
	// Stryker disable next-line StringLiteral: without a media type, any text is not a form's
	return example === undefined ? undefined : serializedQuery(media?.[0] ?? '', example);
}

/** The example a schema gives: its `example`, else the first of its `examples`. */
function schemaExample(schema: unknown): unknown {
	if (!isMapping(schema)) return undefined;
	const { example, examples } = schema;
	return example ?? (Array.isArray(examples) ? (examples[0] as unknown) : undefined);
}

/** A form's media type, with or without parameters (`; charset=utf-8`). */
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/**
 * A query string's value as sent, by its media type (OpenAPI 3.2, querystring): a string is the
 * text sent, as written; an object of a form (`application/x-www-form-urlencoded`) is its fields
 * as `name=value&…`, a list repeating its name; any other value is its JSON text, percent-encoded.
 */
export function serializedQuery(mediaType: string, value: unknown): string {
	if (typeof value === 'string') return value.replace(/^\?/, '');
	if (!isMapping(value) || !FORM_TYPE.test(mediaType)) {
		return encodeURIComponent(JSON.stringify(value));
	}
	const fields = new URLSearchParams();
	for (const [name, field] of Object.entries(value)) {
		for (const item of Array.isArray(field) ? field : [field]) {
			fields.append(name, typeof item === 'string' ? item : JSON.stringify(item));
		}
	}
	return fields.toString();
}

// Functions rather than constants holding arrow functions: the mutation run loads this module
// once, so only a change inside a function body is seen by the tests of each mutant.

/** A single-quoted JavaScript string. */
function jsString(value: string): string {
	return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** A double-quoted Python string. */
function pyString(value: string): string {
	return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** A double-quoted string Go and Java read back: JSON's escapes are a subset of theirs. */
function cString(value: string): string {
	return JSON.stringify(value);
}

/** A single-quoted Ruby or PHP string, which expands nothing. */
function singleQuoted(value: string): string {
	return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/**
 * curl, JavaScript fetch, Python requests, HTTPie, Go, Ruby, PHP and Java samples for one request. A sample that
 * sends the key from API_KEY stops with one line when it is unset or empty, so none ever sends
 * `Bearer undefined` or an empty key.
 */
export function codeSamples(request: SampleRequest): CodeSample[] {
	const url = sampleUrl(request);
	const { auth, content } = request;
	// The body's media type goes as Content-Type, after the contract's header parameters.
	const headers = [
		...(request.headers ?? []),
		...(content ? [{ name: 'Content-Type', value: content.mediaType }] : []),
	];
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
			...(content ? [`--data-raw ${shellQuote(content.text)}`] : []),
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
		...(content ? [`  body: ${jsString(content.text)},`] : []),
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
		...(content ? [`    data=${pyString(content.text)},`] : []),
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
		// --raw: the body as written, not built from key=value items.
		...(content ? [`--raw ${shellQuote(content.text)}`] : []),
	].join(' ');
	const sample = { url, method, headers, auth, body, content: content?.text };
	return [
		{ label: 'curl', language: 'sh', runner: 'sh', code: curl },
		{ label: 'Node (fetch)', language: 'js', runner: 'node', code: fetchLines.join('\n') },
		{ label: 'Python (requests)', language: 'python', runner: 'python', code: python.join('\n') },
		{ label: 'HTTPie', language: 'sh', runner: 'sh', code: httpie },
		{ label: 'Go', language: 'go', runner: 'go', code: goSample(sample) },
		{ label: 'Ruby', language: 'ruby', runner: 'ruby', code: rubySample(sample) },
		{ label: 'PHP', language: 'php', runner: 'php', code: phpSample(sample) },
		{ label: 'Java', language: 'java', runner: 'java', code: javaSample(sample) },
	];
}

/** A request as the samples in compiled and scripting languages write it. */
interface SampleParts {
	url: string;
	method: string;
	headers: readonly { name: string; value: string }[];
	auth: { header: string; prefix: string } | undefined;
	body: boolean;
	/** The request body's text, when it sends one; its Content-Type is among the headers. */
	content: string | undefined;
}

/** Go's net/http, run with `go run main.go`; indented with spaces, as every sample is. */
function goSample({ url, method, headers, auth, body, content }: SampleParts): string {
	const check = ['    if err != nil {', '        panic(err)', '    }'];
	return [
		'package main',
		'',
		'import (',
		'    "fmt"',
		...(body ? ['    "io"'] : []),
		'    "net/http"',
		...(auth ? ['    "os"'] : []),
		...(content === undefined ? [] : ['    "strings"']),
		')',
		'',
		'func main() {',
		...(auth
			? [
					'    key := os.Getenv("API_KEY")',
					'    if key == "" {',
					`        fmt.Fprintln(os.Stderr, ${cString(`API_KEY: ${NO_KEY_MESSAGE}`)})`,
					'        os.Exit(1)',
					'    }',
				]
			: []),
		`    request, err := http.NewRequest(${cString(method)}, ${cString(url)}, ${content === undefined ? 'nil' : `strings.NewReader(${cString(content)})`})`,
		...check,
		...headers.map(
			({ name, value }) => `    request.Header.Set(${cString(name)}, ${cString(value)})`,
		),
		...(auth
			? [`    request.Header.Set(${cString(auth.header)}, ${cString(auth.prefix)}+key)`]
			: []),
		'    response, err := http.DefaultClient.Do(request)',
		...check,
		'    defer response.Body.Close()',
		...(body
			? [
					'    answer, err := io.ReadAll(response.Body)',
					...check,
					'    fmt.Println(response.StatusCode, string(answer))',
				]
			: ['    fmt.Println(response.StatusCode, response.Header)']),
		'}',
	].join('\n');
}

/** Ruby's net/http, run with `ruby`. */
function rubySample({ url, method, headers, auth, body, content }: SampleParts): string {
	const verb = method.charAt(0) + method.slice(1).toLowerCase();
	// net/http has a class per method it knows; another (QUERY) is a generic request with a body.
	const known = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'].includes(
		method,
	);
	return [
		"require 'net/http'",
		'',
		...(auth
			? [
					`abort ${singleQuoted(`API_KEY: ${NO_KEY_MESSAGE}`)} if ENV.fetch('API_KEY', '').empty?`,
					'',
				]
			: []),
		`uri = URI(${singleQuoted(url)})`,
		known
			? `request = Net::HTTP::${verb}.new(uri)`
			: `request = Net::HTTPGenericRequest.new(${singleQuoted(method)}, ${content !== undefined}, ${body}, uri)`,
		...headers.map(({ name, value }) => `request[${singleQuoted(name)}] = ${singleQuoted(value)}`),
		...(auth
			? [`request[${singleQuoted(auth.header)}] = ${singleQuoted(auth.prefix)} + ENV['API_KEY']`]
			: []),
		...(content === undefined ? [] : [`request.body = ${singleQuoted(content)}`]),
		'response = Net::HTTP.start(uri.hostname, uri.port) { |http| http.request(request) }',
		body ? 'puts response.code, response.body' : 'puts response.code, response.to_hash',
	].join('\n');
}

/** PHP's curl extension, run with `php`. */
function phpSample({ url, method, headers, auth, body, content }: SampleParts): string {
	const sent = [
		...headers.map(({ name, value }) => singleQuoted(`${name}: ${value}`)),
		...(auth ? [`${singleQuoted(`${auth.header}: ${auth.prefix}`)} . $key`] : []),
	];
	return [
		'<?php',
		...(auth
			? [
					"$key = getenv('API_KEY');",
					"if ($key === false || $key === '') {",
					`    fwrite(STDERR, ${singleQuoted(`API_KEY: ${NO_KEY_MESSAGE}`)} . PHP_EOL);`,
					'    exit(1);',
					'}',
				]
			: []),
		`$curl = curl_init(${singleQuoted(url)});`,
		'curl_setopt_array($curl, [',
		// HEAD through CURLOPT_NOBODY: a custom HEAD would wait for a body that never comes.
		...(method === 'HEAD'
			? ['    CURLOPT_NOBODY => true,']
			: [`    CURLOPT_CUSTOMREQUEST => ${singleQuoted(method)},`]),
		...(sent.length > 0 ? [`    CURLOPT_HTTPHEADER => [${sent.join(', ')}],`] : []),
		...(content === undefined ? [] : [`    CURLOPT_POSTFIELDS => ${singleQuoted(content)},`]),
		...(body ? [] : ['    CURLOPT_HEADER => true,']),
		'    CURLOPT_RETURNTRANSFER => true,',
		']);',
		'$answer = curl_exec($curl);',
		'if ($answer === false) {',
		'    fwrite(STDERR, curl_error($curl) . PHP_EOL);',
		'    exit(1);',
		'}',
		"echo curl_getinfo($curl, CURLINFO_RESPONSE_CODE), ' ', $answer, PHP_EOL;",
	].join('\n');
}

/** Java's java.net.http, run as a single file with `java Main.java`. */
function javaSample({ url, method, headers, auth, body, content }: SampleParts): string {
	return [
		'import java.net.URI;',
		'import java.net.http.HttpClient;',
		'import java.net.http.HttpRequest;',
		'import java.net.http.HttpResponse;',
		'',
		'public class Main {',
		'    public static void main(String[] args) throws Exception {',
		...(auth
			? [
					'        String key = System.getenv("API_KEY");',
					'        if (key == null || key.isEmpty()) {',
					`            System.err.println(${cString(`API_KEY: ${NO_KEY_MESSAGE}`)});`,
					'            System.exit(1);',
					'        }',
				]
			: []),
		`        HttpRequest request = HttpRequest.newBuilder(URI.create(${cString(url)}))`,
		`            .method(${cString(method)}, HttpRequest.BodyPublishers.${content === undefined ? 'noBody()' : `ofString(${cString(content)})`})`,
		...headers.map(({ name, value }) => `            .header(${cString(name)}, ${cString(value)})`),
		...(auth
			? [`            .header(${cString(auth.header)}, ${cString(auth.prefix)} + key)`]
			: []),
		'            .build();',
		'        HttpResponse<String> response = HttpClient.newHttpClient()',
		'            .send(request, HttpResponse.BodyHandlers.ofString());',
		body
			? '        System.out.println(response.statusCode() + " " + response.body());'
			: '        System.out.println(response.statusCode() + " " + response.headers().map());',
		'    }',
		'}',
	].join('\n');
}

/** `GET /api/v2/users` with the key from API_KEY as a bearer token: the guides' and views' sample. */
export function usersSampleRequest(server: string): SampleRequest {
	return {
		method: 'GET',
		server,
		path: USERS_PATH,
		query: [],
		auth: authHeader({ type: 'http', scheme: 'bearer' }),
	};
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
