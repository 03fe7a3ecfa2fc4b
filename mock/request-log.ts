/**
 * The mock's request log: one line per request, in logfmt after the time, so a developer sees
 * what their client sent and why it got its answer, and can grep it. A key is never printed:
 * anything shaped like one in the target, in any case, with `+` or `_` for its dashes, as the
 * base64, base64url or hex of its bytes (`src/shared/key-forms.ts`), percent-encoded any number of
 * times or not, beside malformed escapes or not, is replaced by `<key>`.
 *
 *   2026-11-21T21:30:00.123Z GET /api/v2/users 200 1.3ms view=production user="Nina Okafor" role=viewer
 *   2026-11-21T21:30:01.002Z GET /api/v2/users 401 0.4ms refused="the key is in no view's directory"
 *   2026-11-21T21:30:02.500Z GET /api/v2/users 500 3.1ms failed="SyntaxError: Invalid regular expression"
 *   2026-11-21T21:30:03.900Z GET /api/v2/users 200 251.0ms view=production … delay=250ms fault=truncated
 *   2026-11-21T21:30:04.100Z GET /api/v2/users reset 0.6ms view=production … fault=reset
 */
import { maskKeys, percentDecoded } from '../src/shared/key-forms.ts';
import type { KeyHolder } from './directory.ts';

/** What the log line says of an answer beyond its status. */
export interface Logged {
	/** Who the key belongs to, when it opened a view. */
	holder?: KeyHolder | undefined;
	/** Why the request was refused, in a reader's words. */
	refused?: string | undefined;
	/** The controls the request carried, as `shownControls` shows them: never a key in disguise. */
	controls?: string | undefined;
	/** Why the mock failed to answer (a 500), in one line. */
	failed?: string | undefined;
	/** The delay served before the answer (or over its body, for `slow-body`), in milliseconds. */
	delay?: number | undefined;
	/** The fault served instead of the answer, or on it. */
	fault?: string | undefined;
	/** What MOCK_CHAOS served this request (`chaos.ts`): `#42 delay=120ms code=503`. */
	chaos?: string | undefined;
}

/** What one request was and how it was answered. */
export interface LoggedRequest extends Logged {
	time: Date;
	method: string;
	/** The request target as sent: path and query. */
	target: string;
	/** The status sent, or the fault sent instead of any status line (`reset`, `empty`, `garbage`). */
	status: number | string;
	durationMs: number;
	/**
	 * The whole error behind a 500, in the JSON form only: the logfmt line's server prints it on
	 * the lines below, where a log collector would take each for a request.
	 */
	error?: string | undefined;
	/** The node:cluster worker that answered, when MOCK_WORKERS serves with more than one. */
	worker?: number | undefined;
}

/** The longest request target printed. */
const MAX_TARGET = 200;

/** A logfmt value: bare when it can be, else quoted with `"` and `\` escaped. */
function value(text: string): string {
	if (/^[\w./:@-]+$/.test(text)) return text;
	// \p{Cc}: the control characters, a line break among them, so a line stays one line.
	const printable = text.replace(/\p{Cc}/gu, '?');
	return `"${printable.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * A target with every key replaced, read part by part (path segments, query names and values):
 * a part that holds a key after any number of decodings is shown decoded, with the key replaced;
 * any other part is shown as sent, so a malformed escape in one leaves the others as they were.
 */
function withoutKeys(target: string): string {
	return target.replace(/[^/?&=;#]+/g, (part) => {
		const plain = percentDecoded(part);
		const masked = maskKeys(plain);
		return masked === plain ? part : masked;
	});
}

/** Printable ASCII only, keys replaced in any encoding, long targets cut. */
function shownTarget(target: string): string {
	const clean = withoutKeys(target).replace(/[^\x21-\x7e]/g, '?');
	return clean.length > MAX_TARGET ? `${clean.slice(0, MAX_TARGET)}…` : clean;
}

/** How a request's line is written: logfmt after the time, or one JSON object (MOCK_LOG=json). */
export type LogFormat = 'logfmt' | 'json';

/** What a log line says of a request besides its time and duration, in the two parts around them. */
export interface LineParts {
	/** The form the parts are written in. */
	format: LogFormat;
	/** Method, target and status. */
	before: string;
	/** The fields after the duration (view, user, role, refused, controls, failed), or ''. */
	after: string;
}

/** A text with every key replaced and the control characters made `?`, so a line stays one line. */
function cleaned(text: string): string {
	return maskKeys(text).replace(/\p{Cc}/gu, '?');
}

/**
 * A JSON string, with U+2028 and U+2029 escaped too: JSON allows them raw, but some readers of
 * a log take them for line breaks.
 */
function jsonString(text: string): string {
	return JSON.stringify(text).replace(/[\u2028\u2029]/g, (character) =>
		character === '\u2028' ? '\\u2028' : '\\u2029',
	);
}

/**
 * The parts of a request's log line that are the same each time the same request gets the same
 * answer, so a server can work them out once. Both forms carry the same fields, with the same
 * keys replaced.
 */
export function lineParts(
	request: Omit<LoggedRequest, 'time' | 'durationMs'>,
	format: LogFormat = 'logfmt',
): LineParts {
	const fields: [string, string][] = [];
	if (request.holder) {
		const { slug, name, role } = request.holder;
		fields.push(['view', slug], ['user', name], ['role', role]);
	}
	if (request.refused) fields.push(['refused', request.refused]);
	if (request.controls) fields.push(['controls', request.controls]);
	if (request.failed) fields.push(['failed', request.failed]);
	if (request.delay !== undefined) fields.push(['delay', `${request.delay}ms`]);
	if (request.fault) fields.push(['fault', request.fault]);
	if (request.chaos) fields.push(['chaos', request.chaos]);
	const method = request.method.replace(/[^A-Z]/gi, '?').slice(0, 16);
	const target = shownTarget(request.target);
	if (format === 'json') {
		// Line breaks stay line breaks here, escaped by JSON: a stack trace is read as one.
		if (request.error) fields.push(['error', request.error]);
		return {
			format,
			before: `"method":${jsonString(method)},"target":${jsonString(target)},"status":${typeof request.status === 'number' ? request.status : jsonString(request.status)}`,
			after: `${fields
				.map(([name, text]) => {
					const shown = name === 'error' ? maskKeys(text) : cleaned(text);
					return `,"${name}":${jsonString(shown)}`;
				})
				.join('')}${request.worker === undefined ? '' : `,"worker":${request.worker}`}`,
		};
	}
	return {
		format,
		before: `${method} ${target} ${request.status}`,
		after: [
			...fields.map(([name, text]) => `${name}=${name === 'role' ? text : value(maskKeys(text))}`),
			...(request.worker === undefined ? [] : [`worker=${request.worker}`]),
		].join(' '),
	};
}

/** The second last written, and its ISO 8601 text up to the milliseconds. */
const lastSecond = { second: Number.NaN, text: '' };

/**
 * A time as `Date#toISOString` writes it (`2026-11-21T09:30:00.123Z`), from milliseconds since
 * the epoch. The text up to the second is kept from the last call: a busy mock logs many
 * requests a second, and `toISOString` costs about ten times as much.
 */
export function isoTime(epochMs: number): string {
	const second = Math.floor(epochMs / 1000);
	if (second !== lastSecond.second) {
		lastSecond.second = second;
		lastSecond.text = new Date(second * 1000).toISOString().slice(0, 20);
	}
	return `${lastSecond.text}${String(epochMs - second * 1000).padStart(3, '0')}Z`;
}

/** A log line from its parts, the time (milliseconds since the epoch) and the duration. */
export function lineOf(parts: LineParts, epochMs: number, durationMs: number): string {
	const duration = durationMs.toFixed(1);
	if (parts.format === 'json') {
		// toFixed's text is a JSON number, as long as the duration is one (never NaN or infinite).
		return `{"time":"${isoTime(epochMs)}",${parts.before},"durationMs":${Number(duration)}${parts.after}}`;
	}
	const line = `${isoTime(epochMs)} ${parts.before} ${duration}ms`;
	return parts.after === '' ? line : `${line} ${parts.after}`;
}

/** One log line for one request, in logfmt unless asked for JSON. */
export function logLine(request: LoggedRequest, format: LogFormat = 'logfmt'): string {
	return lineOf(lineParts(request, format), request.time.getTime(), request.durationMs);
}
