/**
 * The request a reader builds in the try-it panel: the example request with a key, the headers
 * and query parameters they add, and the mock's controls (`Prefer: code=…, example=…,
 * dynamic=…, delay=…, fault=…`), checked and turned into what `fetch` sends and the curl command
 * that sends the same. DOM-free, so unit tests call it as the panel does.
 */
import { buildCurl, USERS_PATH } from '../../shared/curl.ts';

/** One header or query parameter the reader added: a name and a value, as typed. */
export interface RequestRow {
	name: string;
	value: string;
}

/** The mock's controls as the reader chose them; an empty text is not asked for. */
export interface MockChoices {
	/** A status of the operation, e.g. `401`. */
	code?: string;
	/** A named example of the 200 answer: a view's slug. */
	example?: string;
	/** A body generated from the schema. */
	dynamic?: boolean;
	/** Milliseconds, or a range `min-max`. */
	delay?: string;
	/** One of the faults the mock knows. */
	fault?: string;
}

/** Everything the reader chose for one request. */
export interface RequestChoices {
	/** A server address in its normal form, without a trailing slash. */
	server: string;
	/** The bearer key; empty sends no Authorization header. */
	key: string;
	headers?: readonly RequestRow[];
	query?: readonly RequestRow[];
	controls?: MockChoices;
	/** QUERY to send `body` with it (as JSON), when the contract has a QUERY; GET otherwise. */
	method?: 'GET' | 'QUERY' | undefined;
	/** The body a QUERY sends, as typed. */
	body?: string | undefined;
	/** The media type to ask the answer in (`Accept`), when the reader chose one. */
	accept?: string | undefined;
}

/** The request to send: its URL, its headers in order, and the curl command that sends it. */
export interface BuiltRequest {
	url: string;
	/** GET, or QUERY with its body. */
	method: 'GET' | 'QUERY';
	headers: [string, string][];
	/** The body a QUERY sends. */
	body?: string | undefined;
	curl: string;
}

/** A request ready to send, or every reason it cannot be sent, one line each. */
export type RequestBuild = { ok: true; request: BuiltRequest } | { ok: false; problems: string[] };

/** A header name as HTTP allows it (RFC 9110, section 5.1: a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A header value the browser and curl both send as typed: printable ASCII and spaces. */
const HEADER_VALUE = /^[\x20-\x7e]*$/;

/** A status code: three digits. */
const STATUS = /^[1-5]\d\d$/;

/** A view slug, as the 200 examples are named. */
const EXAMPLE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A delay: milliseconds, or a range, as the mock reads it (0 to 30,000 ms, low end first). */
const DELAY = /^(\d{1,5})(?:-(\d{1,5}))?$/;

/** The most headers or query parameters a reader may add. */
export const MAX_ROWS = 20;

/** The longest name or value of a row, in characters. */
const MAX_ROW_TEXT = 1024;

/** The longest body a QUERY sends, in characters, as the mock reads at most 64 KiB. */
export const MAX_BODY_TEXT = 65_536;

/** `Prefer: code=401, example=production, …` for the chosen controls, or `''` for none. */
export function preferOf(controls: MockChoices = {}): string {
	const parts: string[] = [];
	if (controls.code) parts.push(`code=${controls.code}`);
	if (controls.example) parts.push(`example=${controls.example}`);
	if (controls.dynamic) parts.push('dynamic=true');
	if (controls.delay) parts.push(`delay=${controls.delay}`);
	if (controls.fault) parts.push(`fault=${controls.fault}`);
	return parts.join(', ');
}

/** What is wrong with the chosen controls, one line each; none when all can be sent. */
function controlProblems({ code, example, delay }: MockChoices): string[] {
	const problems: string[] = [];
	if (code && !STATUS.test(code)) problems.push(`Status “${code}” is not a three-digit status.`);
	if (example && !EXAMPLE.test(example)) {
		problems.push(`Example “${example}” is not a view's slug, such as production.`);
	}
	const match = delay ? DELAY.exec(delay) : null;
	const low = Number(match?.[1]);
	const high = Number(match?.[2] ?? match?.[1]);
	if (delay && (!match || high > 30_000 || low > high)) {
		problems.push(
			`Delay “${delay}” is not milliseconds from 0 to 30000, or a range such as 100-500.`,
		);
	}
	return problems;
}

/** What is wrong with one added row, or undefined; `kind` names it in the message. */
function rowProblem(
	{ name, value }: RequestRow,
	kind: 'Header' | 'Query parameter',
): string | undefined {
	const shown = name.length > 40 ? `${name.slice(0, 40)}…` : name;
	if (!name) return value ? `A ${kind.toLowerCase()} has a value but no name.` : undefined;
	if (name.length > MAX_ROW_TEXT || value.length > MAX_ROW_TEXT) {
		return `${kind} “${shown}” is longer than ${MAX_ROW_TEXT} characters.`;
	}
	if (kind === 'Header' && !TOKEN.test(name)) {
		return `Header name “${shown}” may hold only letters, digits and !#$%&'*+.^_\`|~-.`;
	}
	if (kind === 'Header' && !HEADER_VALUE.test(value)) {
		return `Header “${shown}” may hold only printable ASCII characters in its value.`;
	}
	return undefined;
}

/**
 * Checks the reader's choices and builds the request: the key's `Authorization` first, then the
 * added headers in order (empty rows left out), then `Prefer` with the controls (joined to a
 * `Prefer` the reader typed), a QUERY's `Content-Type` and the chosen `Accept`; the query
 * parameters in order, encoded as a form.
 */
export function buildRequest({
	server,
	key,
	headers = [],
	query = [],
	controls = {},
	method = 'GET',
	body = '',
	accept = '',
}: RequestChoices): RequestBuild {
	const rows = headers.filter((row) => row.name.trim() || row.value);
	const params = query.filter((row) => row.name || row.value);
	const trimmed = rows.map(({ name, value }) => ({ name: name.trim(), value: value.trim() }));
	const problems = [
		...(rows.length > MAX_ROWS || params.length > MAX_ROWS
			? [`At most ${MAX_ROWS} headers and ${MAX_ROWS} query parameters can be added.`]
			: []),
		...trimmed.flatMap((row) => rowProblem(row, 'Header') ?? []),
		...params.flatMap((row) => rowProblem(row, 'Query parameter') ?? []),
		...controlProblems(controls),
		...(method === 'QUERY' && body.length > MAX_BODY_TEXT
			? [`The body is longer than ${MAX_BODY_TEXT} characters.`]
			: []),
	];
	if (problems.length) return { ok: false, problems };
	// A typed Authorization header stands in for the key's.
	const keyHeader = trimmed.some(({ name }) => /^authorization$/i.test(name)) ? '' : key;
	const prefer = preferOf(controls);
	const typedPrefer = trimmed.findIndex(({ name }) => /^prefer$/i.test(name));
	const extra: [string, string][] = trimmed.map(({ name, value }, index) => [
		name,
		index === typedPrefer && prefer ? [value, prefer].filter(Boolean).join(', ') : value,
	]);
	if (prefer && typedPrefer < 0) extra.push(['Prefer', prefer]);
	// A QUERY's body is JSON unless the reader typed a Content-Type of their own.
	const typedType = trimmed.some(({ name }) => /^content-type$/i.test(name));
	if (method === 'QUERY' && !typedType) extra.push(['Content-Type', 'application/json']);
	// The answer type chosen, unless the reader typed an Accept of their own.
	const typedAccept = trimmed.some(({ name }) => /^accept$/i.test(name));
	if (accept && !typedAccept) extra.push(['Accept', accept]);
	const sent = method === 'QUERY' ? { body } : {};
	const search = new URLSearchParams(params.map(({ name, value }) => [name, value])).toString();
	const base = server.replace(/\/+$/, '');
	return {
		ok: true,
		request: {
			url: `${base}${USERS_PATH}${search ? `?${search}` : ''}`,
			method,
			headers: [
				...(keyHeader ? [['Authorization', `Bearer ${keyHeader}`] as [string, string]] : []),
				...extra,
			],
			...sent,
			curl: buildCurl({
				baseUrl: base,
				key: keyHeader,
				headers: extra,
				query: search,
				method,
				...sent,
			}),
		},
	};
}
