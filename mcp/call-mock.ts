/**
 * `call_mock`: a view's example request (`GET /api/v2/users`, or HEAD or OPTIONS, or a QUERY with
 * its JSON body when the contract has one), sent to a mock as one person of the view, asking by
 * `Accept` for JSON or another media type the operation's 200 declares (a stream of JSON lines).
 * The key is read from the fixture here and goes only into the request's Authorization header,
 * and only to a mock the settings name (see places.ts); the result is made of the answer's status,
 * headers and body, and any of the view's secret values that came back in the answer (or in the
 * body sent) is replaced before it is returned, so the result never holds a key or a configuration
 * value. A mock that breaks its answer (a reset, bytes that are not HTTP, a delay past the wait)
 * is reported as what it did.
 */
import { USERS_PATH } from '../src/shared/curl.ts';
import { emailKey } from '../src/shared/person-key.ts';
import type { ViewEntry } from '../src/sources/fixtures.ts';
import type { ApiReference } from '../src/sources/openapi.ts';
import type { SentBody } from '../src/site/code-samples.ts';
import { sampleContent } from '../src/site/reference-layout.ts';
import { usersOperation } from './check-answer.ts';
import { mayCall, refusal, type MockAddresses } from './places.ts';
import { CALL_TIMEOUT_MS, MOCK_METHODS, ToolInputError } from './tool-names.ts';

export { MOCK_METHODS };

/** A request `call_mock` sends. */
export interface MockCall {
	slug: string;
	email: string;
	method: (typeof MOCK_METHODS)[number];
	/** The mock's base address, e.g. `http://127.0.0.1:4010`. */
	baseUrl: string;
	/** The mock's controls as a `Prefer` header: `code=401, example=invalid-key, dynamic=true`. */
	prefer?: string | undefined;
	/** How long to wait for the whole answer, in milliseconds; `CALL_TIMEOUT_MS` by default. */
	timeoutMs?: number | undefined;
	/** The body a QUERY sends, as `requestBody` gives it; none for another method. */
	body?: SentBody | undefined;
	/** The media type asked for by `Accept`, as `acceptOf` gives it; `application/json` by default. */
	accept?: string | undefined;
}

/** The media type a call asks for when not told. */
const JSON_TYPE = 'application/json';

/**
 * The media type a call asks for by `Accept`: the one given, when the operation's 200 declares it
 * (a stream of JSON lines, say), else `application/json`; a type it does not declare is a
 * ToolInputError of one line naming those it does.
 */
export function acceptOf(
	reference: ApiReference,
	method: MockCall['method'],
	given: string | undefined,
): string {
	if (given === undefined) return JSON_TYPE;
	const operation = usersOperation(reference, method);
	const declared = (operation.responses.find(({ status }) => status === '200')?.bodies ?? []).map(
		({ mediaType }) => mediaType,
	);
	const asked = declared.find(
		(mediaType) => mediaType.toLowerCase() === given.trim().toLowerCase(),
	);
	if (asked !== undefined) return asked;
	const answers = declared.length
		? `answers 200 as ${declared.join(', ')}; expected one of those`
		: 'declares no 200 with a body; leave accept out';
	throw new ToolInputError(`accept "${given}": ${method} ${USERS_PATH} ${answers}`);
}

/**
 * The body a call sends: for a QUERY, the text given, else the contract's first example of its
 * request body as the samples send it (else `{}`); none for another method. A QUERY asked of a
 * contract without one, or a body given to another method, is a ToolInputError of one line.
 */
export function requestBody(
	reference: ApiReference,
	method: MockCall['method'],
	given: string | undefined,
): SentBody | undefined {
	if (method !== 'QUERY') {
		if (given === undefined) return undefined;
		throw new ToolInputError(
			`body: only a QUERY sends a body; ${method} ${USERS_PATH} takes none (method QUERY sends it)`,
		);
	}
	const example = sampleContent(usersOperation(reference, method));
	const mediaType = example?.mediaType ?? 'application/json';
	return { mediaType, text: given ?? example?.text ?? '{}' };
}

/** The mock's answer, without a secret. */
export interface MockAnswer {
	request: string;
	status: number;
	headers: Record<string, string>;
	body: string;
	/** Whose key was sent: the person and their role, never the key. */
	as: string;
}

/** What stands in for a secret value that came back in an answer. */
export const REDACTED = '[secret removed]';

/** The longest request body the result's `request` line repeats, in characters. */
const SHOWN_BODY = 200;

/** The longest body returned, in characters. */
export const BODY_LIMIT = 100_000;

/** Every secret value of some views: their users' keys and configuration values, longest first. */
export function secretsOf(...entries: readonly ViewEntry[]): string[] {
	return entries
		.flatMap(({ view }) => [
			...view.users.map((user) => user.apiKey),
			...Object.values(view.config),
		])
		.filter((value) => value.length > 0)
		.sort((a, b) => b.length - a.length);
}

/** Text with every given secret replaced. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
	let clean = text;
	for (const secret of secrets) clean = clean.split(secret).join(REDACTED);
	return clean;
}

/** The mock's base address checked: http(s), no credentials, query or fragment. */
function baseOf(baseUrl: string): URL {
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch (error) {
		throw new ToolInputError(
			`baseUrl "${baseUrl}": expected an http(s) address such as http://127.0.0.1:4010`,
			{ cause: error },
		);
	}
	if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) {
		throw new ToolInputError(
			`baseUrl "${baseUrl}": expected an http(s) address without credentials, query or fragment`,
		);
	}
	return url;
}

/** A duration in seconds as a line says it: `1 s`, `2.5 s`. */
function seconds(ms: number): string {
	return `${Number((ms / 1000).toFixed(1))} s`;
}

/** The error an exchange failed with, and where: before the status came, or in the body. */
interface Broken {
	error: unknown;
	/** The status and headers came, the body did not. */
	status?: number | undefined;
}

/**
 * What a mock did when an exchange failed, in words: a wait that ran out, a reset, a connection
 * closed without an answer or in the middle of one, bytes that are not HTTP; or that no mock is
 * there (nothing listens, no such host), which asks for one to be started.
 */
export function whatTheMockDid(broken: Broken, origin: string, timeoutMs: number): string {
	const { error, status } = broken;
	const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
	const code = cause instanceof Error && 'code' in cause ? String(cause.code) : '';
	const name = cause instanceof Error ? cause.name : '';
	const reason = cause instanceof Error ? cause.message : String(cause);
	const mock = `the mock at ${origin}`;
	const answered = status === undefined ? undefined : `${mock} sent ${status} and its headers but`;
	if (error instanceof Error && error.name === 'TimeoutError') {
		return answered
			? `${answered} not its whole body within ${seconds(timeoutMs)}`
			: `${mock} did not answer within ${seconds(timeoutMs)} (timeoutMs waits longer)`;
	}
	if (code === 'ECONNRESET') {
		return answered
			? `${answered} then reset the connection (ECONNRESET), its body cut short`
			: `${mock} reset the connection before answering (ECONNRESET)`;
	}
	if (name === 'HTTPParserError') {
		return `${mock} answered with bytes that are not HTTP (${reason})`;
	}
	if (code === 'UND_ERR_SOCKET') {
		return answered
			? `${answered} then closed the connection, its body cut short (${reason})`
			: `${mock} closed the connection without answering (${reason})`;
	}
	if (answered) return `${answered} its body could not be read (${reason})`;
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return `no host ${new URL(origin).hostname} was found (${code})`;
	}
	return `no mock answered at ${origin} (${reason}); start one with npm run mock`;
}

/** Sends the example request as a person of a view, to a mock of `mocks`, and returns the answer without secrets. */
export async function callMock(
	entries: readonly ViewEntry[],
	call: MockCall,
	mocks: MockAddresses,
	send: typeof fetch = fetch,
): Promise<MockAnswer> {
	const base = baseOf(call.baseUrl);
	if (!mayCall(mocks, base)) throw new ToolInputError(refusal(mocks, call.baseUrl));
	const entry = entries.find(({ slug }) => slug === call.slug);
	if (!entry) {
		throw new ToolInputError(
			`slug "${call.slug}": no such view; expected one of ${entries.map(({ slug }) => slug).join(', ')}`,
		);
	}
	const user = entry.view.users.find(({ email }) => emailKey(email) === emailKey(call.email));
	if (!user) {
		throw new ToolInputError(
			`email "${call.email}": not in the directory of ${call.slug}; expected one of ${entry.view.users.map(({ email }) => email).join(', ')}`,
		);
	}
	const url = new URL(USERS_PATH, base.href.endsWith('/') ? base.href : `${base.href}/`);
	const headers: Record<string, string> = {
		Authorization: `Bearer ${user.apiKey}`,
		Accept: call.accept ?? JSON_TYPE,
	};
	if (call.prefer) headers['Prefer'] = call.prefer;
	if (call.body) headers['Content-Type'] = call.body.mediaType;
	const secrets = secretsOf(entry);
	const timeoutMs = call.timeoutMs ?? CALL_TIMEOUT_MS;
	const failed = (broken: Broken): ToolInputError => {
		const what = withoutSecrets(whatTheMockDid(broken, url.origin, timeoutMs), secrets);
		const asked = call.prefer
			? `; the request asked for Prefer: ${withoutSecrets(call.prefer, secrets)}`
			: '';
		return new ToolInputError(`baseUrl "${call.baseUrl}": ${what}${asked}`);
	};
	let response: Response;
	try {
		response = await send(url, {
			method: call.method,
			headers,
			...(call.body ? { body: call.body.text } : {}),
			redirect: 'manual',
			signal: AbortSignal.timeout(timeoutMs),
		});
	} catch (error) {
		throw failed({ error });
	}
	let text = '';
	try {
		if (call.method !== 'HEAD') text = await response.text();
	} catch (error) {
		throw failed({ error, status: response.status });
	}
	const answerHeaders: Record<string, string> = {};
	response.headers.forEach((value, name) => {
		answerHeaders[name] = withoutSecrets(value, secrets);
	});
	const body = withoutSecrets(text, secrets);
	const sentText = call.body && withoutSecrets(call.body.text, secrets);
	const sentBody = sentText
		? ` with the body ${sentText.length > SHOWN_BODY ? `${sentText.slice(0, SHOWN_BODY)}…` : sentText}`
		: '';
	const prefer = call.prefer ? ` with Prefer: ${withoutSecrets(call.prefer, secrets)}` : '';
	const asking = call.accept && call.accept !== JSON_TYPE ? ` asking for ${call.accept}` : '';
	return {
		request: `${call.method} ${url.href}${sentBody}${asking}${prefer}, with the key of ${user.name}`,
		status: response.status,
		headers: answerHeaders,
		body: body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}…` : body,
		as: `${user.name} <${user.email}>, ${user.role} in ${entry.slug}`,
	};
}
