/**
 * Every problem (RFC 9457) the console's contract, the mock, the validating proxy and the
 * conformance run can name, in one table: its name, status and title, what went wrong and what to
 * change. The mock's and the proxy's problem+json bodies are built from it, the conformance run's
 * lines and MCP's answers say its titles and advice, try-it shows them, and the problems guide
 * (/docs/problems/) is generated from it, one row per name, anchored by the name.
 *
 * A problem's `type` is `https://portal.example/problems/<name>`, the identifier the contract's
 * examples use; the guide documents each at `/docs/problems/#<name>`. It runs in the browser too,
 * so it imports nothing Node-only.
 */
import { guideHref } from './urls.ts';

/** Who sends a problem: the console (and the mock, from the contract), the mock, or the proxy. */
export type ProblemSender = 'console' | 'mock' | 'proxy';

/** One kind of problem. */
export interface ProblemType {
	/** The last segment of its `type` URI, and its anchor on the problems guide. */
	readonly name: string;
	readonly status: number;
	/** The same words for every occurrence, wherever it is shown. */
	readonly title: string;
	/** What went wrong, in one sentence. */
	readonly what: string;
	/** What to change, in one sentence naming the setting, flag, header or parameter. */
	readonly change: string;
	/** What to change in a conformance run (`npm run conform`), where its flags differ. */
	readonly changeInRun?: string;
	readonly sender: ProblemSender;
}

/** The start of every problem's `type`: the identifier the contract's examples use. */
export const PROBLEM_TYPE_BASE = 'https://portal.example/problems/';

/** The guide that documents every problem, one row per name. */
export const PROBLEMS_GUIDE = 'problems';

const ADDRESS_IN_UPSTREAM =
	"Check the console's address in MOCK_UPSTREAM (--upstream), its scheme (http: or https:) among it, and that the console is up.";
const ADDRESS_IN_RUN =
	"Check the console's address given to --base-url (CONFORM_BASE_URL), its scheme (http: or https:) among it, and that the console is up.";

/** Every problem, grouped by who sends it; its names typed one by one. */
const TABLE = [
	{
		name: 'missing-key',
		status: 401,
		title: 'A directory key is required',
		what: 'The request carries no bearer credentials: no Authorization header, an empty one, or another scheme such as Basic.',
		change: 'Send a key from a view\'s directory as "Authorization: Bearer <key>".',
		sender: 'console',
	},
	{
		name: 'invalid-key',
		status: 401,
		title: 'The key is not a directory key',
		what: "The key has the shape of a directory key but is in no view's directory.",
		change: "Copy a key from a view page's directory into the Authorization header.",
		sender: 'console',
	},
	{
		name: 'wrong-shape',
		status: 401,
		title: 'The token is not shaped like a directory key',
		what: 'The bearer token is not shaped ick-<8 lowercase hex>-<4 letters or digits>, as a directory key is, or is far longer than one.',
		change: "Copy a key from a view page's directory into the Authorization header.",
		sender: 'console',
	},
	{
		name: 'console-key',
		status: 401,
		title: "The console's own key is not a directory key",
		what: "The token is the api_key of a view's configuration block, the console's own key.",
		change: "Send the key of a user in that view's directory in the Authorization header instead.",
		sender: 'console',
	},
	{
		name: 'invalid-request',
		status: 400,
		title: 'The Authorization header is malformed',
		what: 'The bearer credentials are malformed: "Bearer" with no token, a token with characters a bearer token cannot hold, or more than one Authorization header.',
		change:
			'Send exactly one header "Authorization: Bearer <key>", with a key from a view\'s directory.',
		sender: 'console',
	},
	{
		name: 'not-found',
		status: 404,
		title: 'No such path',
		what: 'The path is not part of the contract.',
		change:
			'Ask for a path the contract lists, such as GET /api/v2/users; the API reference lists them.',
		sender: 'console',
	},
	{
		name: 'method-not-allowed',
		status: 405,
		title: 'Method not allowed',
		what: 'The path exists, but not for this method.',
		change: "Use a method the answer's Allow header names, such as GET or HEAD.",
		sender: 'console',
	},
	{
		name: 'invalid-control',
		status: 422,
		title: 'The mock cannot read a control',
		what: 'A control of the mock (a Prefer header such as code=401, or a query parameter such as __code) is not one it can read.',
		change:
			'Mend the control the detail names, in the Prefer header or its __ query parameter, e.g. Prefer: code=401 or __code=401.',
		sender: 'mock',
	},
	{
		name: 'unknown-code',
		status: 404,
		title: 'The contract has no such response',
		what: 'A code control asked for a status the operation does not answer in the contract.',
		change: 'Ask for a status the detail lists, with Prefer: code=<status> or __code=<status>.',
		sender: 'mock',
	},
	{
		name: 'unknown-example',
		status: 404,
		title: 'The contract has no such example',
		what: 'An example control asked for an example the contract does not name for that status.',
		change:
			'Ask for an example the detail lists, with Prefer: example=<name> or __example=<name>; the 200 examples are named by view slug.',
		sender: 'mock',
	},
	{
		name: 'invalid-body',
		status: 422,
		title: 'The body does not match the contract',
		what: "A QUERY request's body is empty, not JSON, too large, or not what the operation's schema allows, and the contract gives no problem of its own for it.",
		change:
			"Send a JSON body the operation's schema allows; the detail names each field that is wrong.",
		sender: 'mock',
	},
	{
		name: 'host-not-allowed',
		status: 403,
		title: 'The mock is not served under this host',
		what: 'The request names a host (its Host header, or an absolute-form target) the mock is not served under.',
		change:
			'To serve the mock under another name, add it to MOCK_ALLOWED_HOSTS (comma-separated names); else call it as 127.0.0.1, localhost or [::1].',
		sender: 'mock',
	},
	{
		name: 'sources-not-loaded',
		status: 503,
		title: 'The mock cannot load its sources yet',
		what: 'The fixtures or the contract the mock answers from are still loading, or do not load.',
		change:
			"Mend the file and field the detail or the mock's log names, under PORTAL_VIEWS_DIR (--views) or in PORTAL_OPENAPI (--contract); the mock answers once they load.",
		sender: 'mock',
	},
	{
		name: 'mock-failure',
		status: 500,
		title: 'The mock failed',
		what: 'The mock could not compute an answer to this request.',
		change:
			"Nothing in the request: the mock's terminal shows the whole error; report it with that error.",
		sender: 'mock',
	},
	{
		name: 'request-body',
		status: 400,
		title: 'The request carries a body, which the operation does not take',
		what: 'The mock in front of a console (MOCK_UPSTREAM) got a request announcing a body, which it never forwards.',
		change:
			'Send the request without a body: no Content-Length other than 0, no Transfer-Encoding.',
		sender: 'proxy',
	},
	{
		name: 'query-in-proxy-mode',
		status: 501,
		title: 'The mock in front of a console does not forward QUERY',
		what: 'A QUERY carries its filter in a body, which the mock in front of a console (MOCK_UPSTREAM) never forwards; it will not answer from its fixtures as if the console had.',
		change:
			"Send the QUERY to the console itself, or run the mock without MOCK_UPSTREAM (--upstream) to get the fixtures' answer.",
		sender: 'proxy',
	},
	{
		name: 'control-in-proxy-mode',
		status: 422,
		title: 'The mock forwards to the console, which takes no mock controls',
		what: "The mock forwards every request to the console (MOCK_UPSTREAM), which decides its answer; the mock's controls have no meaning there.",
		change:
			"Send the request without the mock's controls (Prefer: code=…, __code…), or run the mock without MOCK_UPSTREAM (--upstream).",
		sender: 'proxy',
	},
	{
		name: 'contract-violation',
		status: 502,
		title: "The console's answer breaks the contract",
		what: "The console's answer breaks the contract, and MOCK_PROXY_ERRORS=on turns such an answer into this 502.",
		change:
			"Mend the console's answer as each violation says, or set MOCK_PROXY_ERRORS=off to get its answer as it came, the violations in the sl-violations header.",
		sender: 'proxy',
	},
	{
		name: 'upstream-unreachable',
		status: 502,
		title: 'The console cannot be reached',
		what: 'No connection to the console could be made (refused, no such host, or no TLS connection).',
		change: ADDRESS_IN_UPSTREAM,
		changeInRun: ADDRESS_IN_RUN,
		sender: 'proxy',
	},
	{
		name: 'upstream-timeout',
		status: 504,
		title: 'The console did not answer in time',
		what: "The console's whole answer did not come within the time allowed.",
		change: 'Raise MOCK_UPSTREAM_TIMEOUT_MS, or find out why the console is slow.',
		changeInRun: 'Raise --timeout-ms (CONFORM_TIMEOUT_MS), or find out why the console is slow.',
		sender: 'proxy',
	},
	{
		name: 'upstream-broken',
		status: 502,
		title: 'The console broke off its answer',
		what: 'The console closed the connection before its whole answer.',
		change: ADDRESS_IN_UPSTREAM,
		changeInRun: ADDRESS_IN_RUN,
		sender: 'proxy',
	},
	{
		name: 'upstream-not-http',
		status: 502,
		title: 'The console did not answer in HTTP',
		what: 'The console answered something that is not HTTP.',
		change: ADDRESS_IN_UPSTREAM,
		changeInRun: ADDRESS_IN_RUN,
		sender: 'proxy',
	},
	{
		name: 'upstream-too-large',
		status: 502,
		title: "The console's answer is too large",
		what: "The console's answer is larger than the proxy reads to check it.",
		change: "Make the console's answer smaller; the proxy checks answers up to its limit only.",
		sender: 'proxy',
	},
	{
		name: 'upstream-not-ready',
		status: 503,
		title: 'The console the mock forwards to does not answer',
		what: "The console the mock forwards to (MOCK_UPSTREAM) does not answer /readyz's HEAD request, or answers it with a 5xx.",
		change:
			"Check MOCK_UPSTREAM (--upstream) and the mock's log, which says why; /readyz answers 200 once the console does.",
		sender: 'proxy',
	},
] as const satisfies readonly ProblemType[];

/** The name of a problem of the table. */
export type ProblemName = (typeof TABLE)[number]['name'];

/** A problem of the table. */
export type KnownProblem = ProblemType & { readonly name: ProblemName };

/** Every problem, grouped by who sends it: the console's, the mock's own, the proxy's. */
export const PROBLEM_TYPES: readonly KnownProblem[] = TABLE;

const BY_NAME: ReadonlyMap<string, KnownProblem> = new Map(
	PROBLEM_TYPES.map((problem) => [problem.name, problem]),
);

/** The problem of the table by its name. */
export function problemOf(name: ProblemName): KnownProblem {
	const problem = BY_NAME.get(name);
	if (!problem) throw new Error(`problemOf: no problem named "${name}" in the table`);
	return problem;
}

/** A problem's `type` URI: `https://portal.example/problems/<name>`. */
export function problemTypeUri(name: ProblemName): string {
	return `${PROBLEM_TYPE_BASE}${name}`;
}

/** Where the problems guide documents a problem: `/docs/problems/#<name>`. */
export function problemHref(name: string): string {
	return `${guideHref(PROBLEMS_GUIDE)}#${encodeURIComponent(name)}`;
}

/** A problem body (RFC 9457): the table's type, title and status, this occurrence's detail. */
export interface ProblemBody {
	type: string;
	title: string;
	status: number;
	detail: string;
}

/** The body of a problem of the table, with this occurrence's detail. */
export function problemBody(name: ProblemName, detail: string): ProblemBody {
	const { title, status } = problemOf(name);
	return { type: problemTypeUri(name), title, status, detail };
}

/** The problem of the table a body's `type` names, or undefined for any other body. */
export function problemNamed(body: unknown): KnownProblem | undefined {
	if (typeof body !== 'object' || body === null || !('type' in body)) return undefined;
	const { type } = body;
	if (typeof type !== 'string' || !type.startsWith(PROBLEM_TYPE_BASE)) return undefined;
	return BY_NAME.get(type.slice(PROBLEM_TYPE_BASE.length));
}

/**
 * A problem as one line for a reader (try-it's note, MCP's answer): its title, what to change,
 * and where the problems guide says more: `The mock cannot read a control. Mend … (/docs/problems/#invalid-control)`.
 */
export function problemAdvice(problem: ProblemType): string {
	return `${problem.title}. ${problem.change} (${problemHref(problem.name)})`;
}

/**
 * The problem of the table an answer says: a problem+json body (media type lowercased, without
 * parameters) whose `type` is one of the table's; undefined for any other answer.
 */
export function problemAnswered(
	mediaType: string | undefined,
	json: unknown,
): KnownProblem | undefined {
	return mediaType === 'application/problem+json' ? problemNamed(json) : undefined;
}
