/**
 * The try-it panel's request and its reading of the answer. The answer is untrusted: the body is
 * read as a stream up to a cap, one time-out covers the whole exchange (a slow drip included), and
 * everything comes back as plain text for `textContent`. The page loads this module only when a
 * reader first sends a request.
 */
import { buildRequest, type BuiltRequest, type RequestChoices } from './request.ts';
import { MAX_SERVER_LENGTH, normalServer } from './server-url.ts';
import type { BodyEnding, CheckedAnswer } from './answer.ts';
import { badgeText } from './badge.ts';
import { JSON_LINES_TYPES } from '../../shared/contract-check.ts';
import { problemAdvice, problemAnswered } from '../../shared/problems.ts';

/** How much of a response body the panel reads and shows. */
export const BODY_CAP_BYTES = 256 * 1024;

/** How long the whole exchange may take, from sending to the last byte of the body. */
export const TIMEOUT_MS = 10_000;

/** The longest header value shown; a longer one is cut. */
const HEADER_VALUE_CAP = 512;

/** The most response headers shown. */
const HEADER_COUNT_CAP = 50;

/** The longest key the free field accepts. */
const MAX_KEY_LENGTH = 1024;

/** Reason phrases for the statuses a reader may meet; HTTP/2 sends none, and a server may lie. */
const REASONS: Readonly<Record<number, string>> = {
	200: 'OK',
	201: 'Created',
	204: 'No Content',
	301: 'Moved Permanently',
	302: 'Found',
	304: 'Not Modified',
	307: 'Temporary Redirect',
	308: 'Permanent Redirect',
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	406: 'Not Acceptable',
	408: 'Request Timeout',
	413: 'Content Too Large',
	415: 'Unsupported Media Type',
	422: 'Unprocessable Content',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	501: 'Not Implemented',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

/** A server address without a trailing slash, or why the typed text is not one. */
export type ServerParse = { ok: true; server: string } | { ok: false; problem: string };

/** Parses the server field, with a message that says what is wrong when it is not an address. */
export function parseServer(text: string, example: string): ServerParse {
	const server = normalServer(text);
	if (server) return { ok: true, server };
	const value = text.trim();
	const quoted = `“${value.length > 60 ? `${value.slice(0, 60)}…` : value}”`;
	const expected = `expected an address like ${example}`;
	let problem = `${quoted} is not a server address; ${expected}.`;
	if (!value) problem = `The server address is empty; ${expected}.`;
	else if (value.length > MAX_SERVER_LENGTH)
		problem = `The server address is too long; ${expected}.`;
	else if (/[?#]/.test(value)) problem = 'The server address must not carry a query or fragment.';
	else if (/^https?:\/\/[^/]*@/i.test(value)) {
		problem = 'The server address must not carry a user name or password.';
	} else if (/^[\w.-]+(:\d+)?(\/|$)/.test(value)) {
		problem = `${quoted} has no http:// in front; ${expected}.`;
	} else if (/^[a-z][\w+.-]*:/i.test(value) && !/^https?:/i.test(value)) {
		problem = `${quoted} is not an http or https address; ${expected}.`;
	}
	return { ok: false, problem };
}

/** A key to send (empty: no Authorization header), or why the typed text cannot be sent. */
export type KeyParse = { ok: true; key: string } | { ok: false; problem: string };

/** Parses a key typed in the free field: trimmed, printable ASCII; empty means no key at all. */
export function parseKey(text: string): KeyParse {
	const key = text.trim();
	if (key.length > MAX_KEY_LENGTH) {
		return { ok: false, problem: `The key is longer than ${MAX_KEY_LENGTH} characters.` };
	}
	if (!/^[\x20-\x7e]*$/.test(key)) {
		return {
			ok: false,
			problem: 'A key can hold only printable ASCII characters: letters, digits and punctuation.',
		};
	}
	return { ok: true, key };
}

/**
 * What the panel sends: the example request, to a server, with a key or none, and the headers,
 * query parameters and mock controls the reader added (`request.ts`).
 */
export type TryItRequest = RequestChoices;

/** The URL, headers and curl command of one request. */
export type PreparedRequest = BuiltRequest;

/**
 * The request for the reader's choices, with the curl command that sends exactly it; throws,
 * naming every problem, for choices `buildRequest` refuses (the panel checks them first).
 */
export function prepareRequest(request: TryItRequest): PreparedRequest {
	const built = buildRequest(request);
	if (!built.ok) throw new Error(built.problems.join(' '));
	return built.request;
}

/** The bytes of a body that were read, and how reading ended. */
export interface CappedBody {
	bytes: Uint8Array;
	ending: BodyEnding;
}

/** Reads a body stream up to `cap` bytes, stopping early when `signal` aborts; never throws. */
export async function readCapped(
	body: ReadableStream<Uint8Array> | null,
	cap: number,
	signal: AbortSignal,
): Promise<CappedBody> {
	const chunks: Uint8Array[] = [];
	let size = 0;
	let ending: BodyEnding = 'complete';
	if (body) {
		const reader = body.getReader();
		// Rejects when the signal aborts, so a read waiting on a silent server gives up; a body the
		// abort errors itself (as a browser's fetch body is) rejects the read: both are a time-out.
		let onAbort = (): void => {};
		const aborted = new Promise<never>((_resolve, reject) => {
			// Stryker disable next-line StringLiteral: the catch below tells a time-out by signal.aborted, never by this message, which no one sees
			onAbort = () => reject(new Error('aborted'));
			if (signal.aborted) onAbort();
			else signal.addEventListener('abort', onAbort);
		});
		try {
			for (;;) {
				const next = await Promise.race([reader.read(), aborted]);
				if (next.done) break;
				const room = cap - size;
				if (next.value.byteLength > room) {
					chunks.push(next.value.subarray(0, room));
					size += room;
					ending = 'capped';
					break;
				}
				chunks.push(next.value);
				size += next.value.byteLength;
			}
		} catch {
			// The body's stream failed: the exchange says it was cut, by the time-out or a broken
			// connection.
			ending = signal.aborted ? 'timed-out' : 'broken';
		} finally {
			signal.removeEventListener('abort', onAbort);
			// Lets go of a body cut short, so its connection closes; cancelling one read to its end
			// does nothing.
			reader.cancel().catch(() => {});
		}
	}
	const bytes = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return { bytes, ending };
}

/** Replaces control characters (tabs and newlines too) with spaces and cuts a long text. */
function oneLine(text: string, cap: number): string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
	const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
	return clean.length > cap
		? `${clean.slice(0, cap)}… (${clean.length - cap} more characters)`
		: clean;
}

/** `200 OK`: the status with its usual reason phrase, or the server's own, cleaned. */
export function formatStatus(status: number, statusText: string): string {
	const reason = REASONS[status] ?? oneLine(statusText.trim(), 60);
	return reason ? `${status} ${reason}` : String(status);
}

/** `name: value` lines of the response headers the page may read (what CORS exposes), cleaned. */
export function formatHeaders(headers: Iterable<[string, string]>): string {
	const lines: string[] = [];
	let count = 0;
	for (const [name, value] of headers) {
		count += 1;
		if (lines.length < HEADER_COUNT_CAP) {
			lines.push(`${oneLine(name.toLowerCase(), 100)}: ${oneLine(value, HEADER_VALUE_CAP)}`);
		}
	}
	if (count > HEADER_COUNT_CAP) lines.push(`… and ${count - HEADER_COUNT_CAP} more headers`);
	return lines.length ? lines.join('\n') : '(none that this page may read)';
}

/** The media type of a Content-Type header value, lowercased, or undefined when it has none. */
export function mediaType(contentType: string | null): string | undefined {
	if (contentType === null) return undefined;
	// Stryker disable next-line OptionalChaining: split always returns at least one part, so [0] is never undefined; the ?. is for the type checker
	const type = contentType.split(';')[0]?.trim().toLowerCase();
	return type && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : undefined;
}

/** `12 bytes`, `3.5 KiB`, `256 KiB`, `1.2 MiB`. */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
	const [amount, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KiB'] : [bytes / 1024 ** 2, 'MiB'];
	return `${Number.isInteger(amount) ? amount : amount.toFixed(1)} ${unit}`;
}

/** How long a request took, as the try-it panel says it: `34 ms`, `1.25 s`, `10 s`. */
export function formatElapsed(ms: number): string {
	return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${Number((ms / 1000).toFixed(2))} s`;
}

/** A body read once: its bytes decoded once, and parsed as JSON once when it arrived whole. */
export interface ReadBody {
	text: string;
	/** How many bytes arrived. */
	size: number;
	ending: BodyEnding;
	/** The body as JSON when it arrived whole and parses; `undefined` otherwise. */
	json: { value: unknown } | undefined;
	/** Whether the body could not be parsed because it nests deeper than the parser can follow. */
	tooDeep: boolean;
}

/** Decodes the bytes read and, when the body arrived whole, parses it as JSON: each once. */
export function readBody({ bytes, ending }: CappedBody): ReadBody {
	const read = {
		text: new TextDecoder().decode(bytes),
		size: bytes.byteLength,
		ending,
		json: undefined,
		tooDeep: false,
	};
	// A body cut short is neither formatted nor checked, so it is not parsed either.
	if (ending !== 'complete') return read;
	try {
		return { ...read, json: { value: JSON.parse(read.text) as unknown } };
	} catch (error) {
		// A SyntaxError is not JSON (an empty body included); a RangeError is JSON nested deeper than
		// the browser's parser can follow.
		return { ...read, tooDeep: error instanceof RangeError };
	}
}

/** A body as text to show, with notes for the reader about what they see. */
export interface ShownBody {
	text: string;
	notes: string[];
}

/** What the panel says of a JSON body it cannot format. */
const TOO_DEEP = 'The body is JSON nested too deep to format; it is shown as it came.';

/** The body read, as text to show: JSON formatted when it is complete and parses, else as is. */
export function formatBody(
	{ text, size, ending, json, tooDeep }: ReadBody,
	contentType: string | null,
	{ capBytes = BODY_CAP_BYTES, timeoutMs = TIMEOUT_MS } = {},
): ShownBody {
	const notes: string[] = [];
	if (ending === 'capped') {
		notes.push(
			`The body is larger than ${formatBytes(capBytes)}: only its first ${formatBytes(capBytes)} ` +
				'were read, and they are shown unformatted.',
		);
	} else if (ending === 'timed-out') {
		notes.push(
			`The body did not finish within ${formatElapsed(timeoutMs)} (time-out): showing the ` +
				`${formatBytes(size)} that arrived, unformatted.`,
		);
	} else if (ending === 'broken') {
		notes.push(
			`The connection broke before the body finished: showing the ${formatBytes(size)} that arrived.`,
		);
	}
	if (ending !== 'complete') return { text, notes };
	if (size === 0) return { text: '(empty body)', notes };
	if (tooDeep) return { text, notes: [...notes, TOO_DEEP] };
	if (!json) {
		const type = mediaType(contentType);
		if (type && JSON_LINES_TYPES.includes(type)) {
			notes.push(
				`The body is a stream of JSON lines (Content-Type: ${type}), one item a line; it is shown as it came.`,
			);
			return { text, notes };
		}
		const declared = type ? ` (Content-Type: ${type})` : '';
		notes.push(`The body is not JSON${declared}; it is shown as text.`);
		return { text, notes };
	}
	let formatted: string;
	try {
		formatted = JSON.stringify(json.value, null, 2);
	} catch {
		// A value that parsed fails to stringify only by nesting deeper than the stack can follow.
		return { text, notes: [...notes, TOO_DEEP] };
	}
	if (formatted.length > capBytes) {
		notes.push(
			`The formatted body is longer than ${formatBytes(capBytes)}; only its start is shown.`,
		);
		return { text: formatted.slice(0, capBytes), notes };
	}
	return { text: formatted, notes };
}

/** What the panel says when the page's Content-Security-Policy refused to connect to a server. */
export function blockedByPolicy(server: string, defaultServer: string): string {
	return (
		`This page may not call ${server}: its Content-Security-Policy lets it reach only the mock ` +
		`it was built for, ${defaultServer}, and a mock of your own on 127.0.0.1 or localhost at ` +
		'the port it was built for (`MOCK_PORT`). Send to one of those, or build the portal with ' +
		'`PORTAL_MOCK_URL` set to the mock you use.'
	);
}

/** The header in which the mock as a validating proxy names the violations of a console's answer. */
export const VIOLATIONS_HEADER = 'sl-violations';

/** The most proxy findings listed; the rest are counted. */
const FINDINGS_CAP = 20;

/**
 * The findings of the validating proxy in its `sl-violations` header (a JSON array of
 * `{ location, severity, message }`, as Prism's proxy writes it), each its message, cleaned and
 * cut. A header that is not such an array is said to be unreadable rather than dropped.
 */
export function proxyFindings(header: string | null): string[] {
	if (header === null || !header.trim()) return [];
	let value: unknown;
	try {
		value = JSON.parse(header);
	} catch {
		// Not JSON: said below as a header that is no list, with the header itself.
	}
	if (!Array.isArray(value)) {
		return [`(the ${VIOLATIONS_HEADER} header could not be read: ${oneLine(header, 120)})`];
	}
	const lines = value.map((entry: unknown) => {
		const message =
			// Stryker disable next-line ConditionalExpression: without the object test a text, number or boolean entry gives no message either
			typeof entry === 'object' && entry !== null
				? (entry as Record<string, unknown>)['message']
				: undefined;
		return typeof message === 'string'
			? oneLine(message, HEADER_VALUE_CAP)
			: `(an entry without a message: ${oneLine(JSON.stringify(entry), 120)})`;
	});
	return lines.length > FINDINGS_CAP
		? [...lines.slice(0, FINDINGS_CAP), `… and ${lines.length - FINDINGS_CAP} more`]
		: lines;
}

/**
 * Whether a proxy in front of the mock answered in its place (the portal's nginx, on a portal
 * serving its mock on its own origin): its `Proxy-Status` header (RFC 9209) names an error.
 */
export function answeredByProxy(proxyStatus: string | null): boolean {
	// No header (null) reads as "null", which names no error.
	return /;\s*error=/.test(String(proxyStatus));
}

/** The faults that break the connection, which no proxy can pass on to the browser. */
const BREAKING_FAULTS: ReadonlySet<string | undefined> = new Set(['reset', 'empty', 'garbage']);

/**
 * What the panel says when a proxy in front of the mock answered `status` itself: it replaced the
 * fault the request asked for, or the mock behind it did not answer (in time, for a 504).
 */
export function proxyAnswerSummary(
	server: string,
	status: { code: number; shown: string },
	fault: string | undefined,
): string {
	if (BREAKING_FAULTS.has(fault)) {
		return (
			`No answer to show: the portal’s proxy replaced the fault you asked for (fault=${fault}) ` +
			`with its own ${status.shown}, since it cannot hand a broken connection on to the ` +
			'browser. Nothing is wrong with the mock; a client that reaches it directly meets the ' +
			'fault itself.'
		);
	}
	const what =
		status.code === 504
			? 'did not answer in time: the portal’s proxy gave up waiting and answered'
			: 'did not answer: the portal’s proxy could not get an answer from it and answered';
	return (
		`The mock behind ${server} ${what} ${status.shown} itself. Send again in a moment; if it ` +
		'keeps happening, tell the team that runs this portal.'
	);
}

/**
 * Whether a request's URL (its host in lower case, as `normalServer` writes it) is on this
 * machine, where the reader can start a mock of their own.
 */
function onThisMachine(url: string): boolean {
	return /^https?:\/\/(?:localhost|127(?:\.\d+){3}|\[::1\])[:/]/.test(url);
}

/** What came of sending: an answer, read and formatted, or no answer and why. */
export type TryItOutcome =
	| {
			kind: 'answer';
			/** The curl command of the request that was sent. */
			curl: string;
			/** One line for the live region, e.g. `200 OK in 34 ms`; a command stands in backticks. */
			summary: string;
			/** Whether the status is 2xx. */
			ok: boolean;
			/** The status badge: `200 OK · 34 ms · 649 B`. */
			badge: string;
			headers: string;
			body: string;
			notes: string[];
			/** The answer as the contract check reads it. */
			checked: CheckedAnswer;
			/**
			 * What the mock, as a validating proxy in front of a real console, found wrong with the
			 * console's answer (its `sl-violations` header), one line each; empty when it found nothing.
			 */
			proxyFindings: string[];
	  }
	| {
			/**
			 * `failure`: no answer came (refused, unreachable, time-out, or a proxy in front of the mock
			 * answered in its place); `blocked`: the page's CSP stopped it.
			 */
			kind: 'failure' | 'blocked';
			/** The curl command of the request that was tried. */
			curl: string;
			/** What went wrong and what to do, for the live region; a command stands in backticks. */
			summary: string;
	  };

/** Whether a `securitypolicyviolation` event is the page's CSP refusing a call to `url`. */
export function blocksRequest(
	event: { effectiveDirective: string; blockedURI: string },
	url: string,
): boolean {
	if (event.effectiveDirective !== 'connect-src') return false;
	try {
		return new URL(event.blockedURI).origin === new URL(url).origin;
	} catch {
		// new URL throws only for an address that is no URL: such a report is of no request of
		// ours.
		return false;
	}
}

/** A failure that the page's CSP caused, said as such; any other outcome stays as it is. */
export function withPolicyBlock(
	outcome: TryItOutcome,
	blocked: boolean,
	{ server, defaultServer }: { server: string; defaultServer: string },
): TryItOutcome {
	if (outcome.kind !== 'failure' || !blocked) return outcome;
	return { kind: 'blocked', curl: outcome.curl, summary: blockedByPolicy(server, defaultServer) };
}

/**
 * Everything the result block shows after a Send, every part set each time so nothing of an
 * earlier request stays: hidden when nothing was sent (`undefined`, e.g. a refused server
 * address), the request with a heading that says whether it was sent, and the answer if any.
 */
export interface ResultShown {
	hidden: boolean;
	heading: string;
	curl: string;
	answerHidden: boolean;
	headers: string;
	body: string;
	notes: string[];
}

/** What the result block shows for an outcome, or for nothing sent. */
export function shownResult(outcome: TryItOutcome | undefined): ResultShown {
	const answer = outcome?.kind === 'answer' ? outcome : undefined;
	const headings = {
		answer: 'Request sent',
		failure: 'Request tried, no answer',
		blocked: 'Request not sent: blocked by this page',
	} as const;
	return {
		hidden: !outcome,
		heading: outcome ? headings[outcome.kind] : '',
		curl: outcome?.curl ?? '',
		answerHidden: !answer,
		headers: answer?.headers ?? '',
		body: answer?.body ?? '',
		notes: answer?.notes ?? [],
	};
}

/** What `sendExampleRequest` needs from its surroundings; tests pass fakes. */
export interface SendOptions {
	fetch: typeof fetch;
	now: () => number;
	timeoutMs?: number;
	capBytes?: number;
	/** The request headers the mock lets a page send (its preflight's); empty when not known. */
	pageHeaders?: readonly string[];
}

/** Sends the example request and reads the answer as untrusted text, within one time-out. */
export async function sendExampleRequest(
	request: TryItRequest,
	{
		fetch: fetchBody,
		now,
		timeoutMs = TIMEOUT_MS,
		capBytes = BODY_CAP_BYTES,
		pageHeaders = [],
	}: SendOptions,
): Promise<TryItOutcome> {
	const { url, method, headers, body: sent, curl } = prepareRequest(request);
	const controller = new AbortController();
	const timer = setTimeout(() => controller.abort(), timeoutMs);
	const started = now();
	try {
		let response: Response;
		try {
			response = await fetchBody(url, {
				method,
				...(sent === undefined ? {} : { body: sent }),
				headers,
				signal: controller.signal,
				cache: 'no-store',
				// Cookies only to the portal's own origin: a mock served there (PORTAL_MOCK_URL=/) sits
				// behind the same sign-in as the pages; a mock on any other origin gets none.
				credentials: 'same-origin',
				referrerPolicy: 'no-referrer',
			});
		} catch {
			// fetch rejects only when no answer came: what follows says why, from the signal and
			// the request.
			const fault = request.controls?.fault;
			const refused = headers
				.map(([name]) => name)
				.filter(
					(name) => !pageHeaders.some((allowed) => allowed.toLowerCase() === name.toLowerCase()),
				);
			// Only a mock on this machine is one the reader can start; a team's mock is not.
			let summary = onThisMachine(url)
				? `Could not reach the mock at ${request.server}. Start it with \`npm run mock\`, then ` +
					'send again. If it is running, check the server address.'
				: `Could not reach the mock at ${request.server}. Check the server address; if it is ` +
					'right, the mock there is down or out of this browser’s reach: send again in a ' +
					'moment, or tell the team that runs it.';
			if (controller.signal.aborted) {
				summary =
					`The mock at ${request.server} did not answer within ${formatElapsed(timeoutMs)} ` +
					'(time-out). Check that the server address points at the mock, then send again.';
			} else if (fault) {
				summary =
					`No answer: the mock broke the connection as asked (fault=${fault}), so the browser ` +
					'has nothing to show. Run the curl command to see what a client meets.';
			} else if (pageHeaders.length && refused.length) {
				summary =
					`The browser did not send the request: the mock lets a page send only ${pageHeaders.join(', ')}, ` +
					`not ${refused.join(', ')}. Remove it, or run the curl command, which sends it.`;
			}
			return { kind: 'failure', curl, summary };
		}
		if (answeredByProxy(response.headers.get('proxy-status'))) {
			const status = {
				code: response.status,
				shown: formatStatus(response.status, response.statusText),
			};
			const summary = proxyAnswerSummary(request.server, status, request.controls?.fault);
			return { kind: 'failure', curl, summary };
		}
		const body = readBody(await readCapped(response.body, capBytes, controller.signal));
		const elapsed = formatElapsed(now() - started);
		const shown = formatBody(body, response.headers.get('content-type'), { capBytes, timeoutMs });
		const status = formatStatus(response.status, response.statusText);
		const unfinished = body.ending === 'timed-out' ? ', body cut off by the time-out' : '';
		const type = mediaType(response.headers.get('content-type'));
		// A problem of the table is said in its words first: its title and what to change.
		const problem = problemAnswered(type, body.json?.value);
		return {
			kind: 'answer',
			curl,
			summary: `${status} in ${elapsed}${unfinished}`,
			ok: response.status >= 200 && response.status < 300,
			badge: badgeText(status, elapsed, body.size),
			headers: formatHeaders(response.headers),
			body: shown.text,
			notes: problem ? [problemAdvice(problem), ...shown.notes] : shown.notes,
			checked: {
				status: response.status,
				mediaType: type,
				text: body.text,
				ending: body.ending,
				json: body.json,
				headers: Object.fromEntries(response.headers),
			},
			proxyFindings: proxyFindings(response.headers.get(VIOLATIONS_HEADER)),
		};
	} finally {
		clearTimeout(timer);
		// Lets go of a body that was capped or cut off, so the connection closes.
		controller.abort();
	}
}
