/**
 * The contract's one check of an exchange, for every caller: the try-it panel (in the browser,
 * with validators compiled at build time), the mock as a validating proxy, the conformance run and
 * MCP's `check_answer` (with validators compiled in Node, src/sources/contract-validators.ts).
 * Around the body check (`contract-check.ts`) it checks the status the operation declares and the
 * headers each status requires (a 401's Bearer challenge, RFC 6750). `exchangeViolations` locates
 * each violation as Prism's proxy does; `checkExchange` says the same as a verdict and a headline.
 */
import {
	checkAnswer,
	type AnswerToCheck,
	type ContractAnswers,
	type ContractCheck,
} from './contract-check.ts';

/** A header value made safe to quote on one line, cut when long. */
function shown(text: string, cap = 60): string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
	const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
	return clean.length > cap ? `${clean.slice(0, cap)}…` : clean;
}

/** A header the contract declares on an answer, as the check reads it. */
export interface DeclaredHeader {
	name: string;
	required: boolean;
}

/** What the contract says of one operation: its answers' bodies, and the headers of each status. */
export interface OperationContract {
	/** `GET /api/v2/users`, as messages name it. */
	operation: string;
	answers: ContractAnswers;
	headers: Readonly<Record<string, readonly DeclaredHeader[]>>;
}

/** An answer's headers, by lower-case name. */
export type AnswerHeaders = Readonly<Record<string, string | undefined>>;

/** One way an answer breaks the contract, where it is and what is wrong, as Prism reports it. */
export interface ExchangeViolation {
	/** Where: `response` then `status`, `headers` and a name, or `body`. */
	location: string[];
	severity: 'Error';
	/** `/users/3/role: must be one of admin, deployer, operator, viewer`. */
	message: string;
}

/** An RFC 6750 challenge: the Bearer scheme, then nothing or its parameters. */
const BEARER_CHALLENGE = /^bearer(?:\s|$)/i;

/** The headers declared for a status: its own, else its range (`4XX`), else `default`. */
function headersFor(contract: OperationContract, status: number): readonly DeclaredHeader[] {
	const { headers } = contract;
	return headers[String(status)] ?? headers[`${String(status)[0]}XX`] ?? headers['default'] ?? [];
}

/** Whether the body check refused the status itself: the operation does not declare it. */
function undeclared(checked: ContractCheck): boolean {
	return checked.verdict === 'breaks' && checked.headline.startsWith('The contract has no ');
}

/**
 * Each way an answer's headers break the contract, by header name: a required header missing,
 * and a 401's `WWW-Authenticate` that is not a Bearer challenge (RFC 6750, section 3).
 */
function headerViolations(
	status: number,
	headers: AnswerHeaders,
	contract: OperationContract,
): { name: string; message: string }[] {
	const found: { name: string; message: string }[] = [];
	for (const { name, required } of headersFor(contract, status)) {
		if (required && headers[name.toLowerCase()] === undefined) {
			found.push({
				name,
				message: `${name}: is required on the contract's ${status} answer but missing`,
			});
		}
	}
	const challenge = headers['www-authenticate'];
	if (status === 401 && challenge !== undefined && !BEARER_CHALLENGE.test(challenge)) {
		found.push({
			name: 'WWW-Authenticate',
			message: `WWW-Authenticate: must be a Bearer challenge (RFC 6750, section 3), not "${shown(challenge)}"`,
		});
	}
	return found;
}

/**
 * Every way an answer breaks the contract: a status it does not declare, a required header
 * missing (a 401's `WWW-Authenticate` must be a Bearer challenge, RFC 6750, section 3), a media
 * type it does not list, a body its schema refuses, each violation named by where it is. `headers`
 * are the answer's, by lower-case name. An answer that conforms has none.
 */
export function exchangeViolations(
	answer: AnswerToCheck,
	headers: AnswerHeaders,
	contract: OperationContract,
): ExchangeViolation[] {
	const found: ExchangeViolation[] = [];
	const violation = (location: string[], message: string): void => {
		found.push({ location: ['response', ...location], severity: 'Error', message });
	};
	const checked = checkAnswer(answer, contract.answers, contract.operation);
	if (undeclared(checked)) {
		violation(['status'], checked.headline);
		return found;
	}
	for (const { name, message } of headerViolations(answer.status, headers, contract)) {
		violation(['headers', name], message);
	}
	if (checked.verdict !== 'breaks') return found;
	if (checked.violations.length === 0) violation(['body'], checked.headline);
	for (const message of checked.violations) violation(['body'], message);
	return found;
}

/** `1 problem`, `3 problems`. */
function problems(amount: number): string {
	return amount === 1 ? '1 problem' : `${amount} problems`;
}

/**
 * The check of an exchange as the try-it panel and MCP say it: the body's verdict and headline
 * (`checkAnswer`), turned to `breaks` by a header the contract requires or a challenge that is
 * not Bearer, whose lines come first. `headers` are the answer's, by lower-case name.
 */
export function checkExchange(
	answer: AnswerToCheck,
	headers: AnswerHeaders,
	contract: OperationContract,
): ContractCheck {
	const checked = checkAnswer(answer, contract.answers, contract.operation);
	if (undeclared(checked)) return checked;
	const lines = headerViolations(answer.status, headers, contract).map(({ message }) => message);
	if (lines.length === 0) return checked;
	const { status } = answer;
	if (checked.verdict !== 'breaks') {
		const body = checked.headline.charAt(0).toLowerCase() + checked.headline.slice(1);
		return {
			verdict: 'breaks',
			headline: `The headers break the contract's ${status} answer (${problems(lines.length)}); ${body}`,
			violations: lines,
		};
	}
	const body = checked.violations.length ? checked.violations : [checked.headline];
	return {
		verdict: 'breaks',
		headline: `The answer breaks the contract's ${status} answer in its headers and its body:`,
		violations: [...lines, ...body],
	};
}

/**
 * An answer as a client saw it (status, headers by any case, body as text), read as the check
 * reads it: the media type of its Content-Type, lowercased, and the body parsed when it is JSON.
 */
export function readExchange(
	status: number,
	headers: Readonly<Record<string, string>>,
	text: string,
): { answer: AnswerToCheck; headers: Record<string, string> } {
	const byName: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) byName[name.toLowerCase()] = value;
	const mediaType = byName['content-type']?.split(';', 1)[0]?.trim().toLowerCase() || undefined;
	let json: { value: unknown } | undefined;
	if (text.trim() !== '') {
		try {
			json = { value: JSON.parse(text) as unknown };
		} catch (error) {
			// A body that is not JSON is what the check judges: it has no `json`, and its media type says.
			if (!(error instanceof SyntaxError)) throw error;
		}
	}
	return { answer: { status, mediaType, text, ending: 'complete', json }, headers: byName };
}
