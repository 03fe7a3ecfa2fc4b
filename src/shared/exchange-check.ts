/**
 * The contract's check of a whole answer, for the mock's proxy and the conformance run: the body
 * check try-it makes (`contract-check.ts`), and around it the status the operation declares and
 * the headers each status requires (a 401's Bearer challenge, RFC 6750), each violation located
 * as Prism's proxy locates them.
 */
import { checkAnswer, type AnswerToCheck, type ContractAnswers } from './contract-check.ts';

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

/**
 * Every way an answer breaks the contract: a status it does not declare, a required header
 * missing (a 401's `WWW-Authenticate` must be a Bearer challenge, RFC 6750, section 3), a media
 * type it does not list, a body its schema refuses, each violation named by where it is. `headers`
 * are the answer's, by lower-case name. An answer that conforms has none.
 */
export function exchangeViolations(
	answer: AnswerToCheck,
	headers: Readonly<Record<string, string | undefined>>,
	contract: OperationContract,
): ExchangeViolation[] {
	const found: ExchangeViolation[] = [];
	const violation = (location: string[], message: string): void => {
		found.push({ location: ['response', ...location], severity: 'Error', message });
	};
	const checked = checkAnswer(answer, contract.answers, contract.operation);
	if (checked.verdict === 'breaks' && checked.headline.startsWith('The contract has no ')) {
		violation(['status'], checked.headline);
		return found;
	}
	for (const { name, required } of headersFor(contract, answer.status)) {
		const value = headers[name.toLowerCase()];
		if (required && value === undefined) {
			violation(
				['headers', name],
				`${name}: is required on the contract's ${answer.status} answer but missing`,
			);
		}
	}
	const challenge = headers['www-authenticate'];
	if (answer.status === 401 && challenge !== undefined && !BEARER_CHALLENGE.test(challenge)) {
		violation(
			['headers', 'WWW-Authenticate'],
			`WWW-Authenticate: must be a Bearer challenge (RFC 6750, section 3), not "${shown(challenge)}"`,
		);
	}
	if (checked.verdict !== 'breaks') return found;
	if (checked.violations.length === 0) violation(['body'], checked.headline);
	for (const message of checked.violations) violation(['body'], message);
	return found;
}
