/**
 * `check_answer`: an answer's status, headers and body checked against the contract of
 * GET /api/v2/users, or of its QUERY when the contract has one (OpenAPI 3.2), with the contract's
 * one check (src/shared/exchange-check.ts), which try-it, the mock as a validating proxy and the
 * conformance run make too, with the validators compiled once per reading of the contract
 * (src/sources/contract-validators.ts). So a 401 without a Bearer challenge breaks here as it does
 * there.
 */
import { USERS_PATH } from '../src/shared/curl.ts';
import { checkExchange, readExchange } from '../src/shared/exchange-check.ts';
import { contractValidators, operationName } from '../src/sources/contract-validators.ts';
import type { ApiReference, Operation } from '../src/sources/openapi.ts';
import { ToolInputError, type CHECKED_METHODS } from './tool-names.ts';

/** An answer to check: what a client saw. */
export interface AnswerToCheck {
	status: number;
	headers?: Record<string, string> | undefined;
	body?: string | undefined;
}

/** The check's result: whether it conforms, the headline, and each violation. */
export interface AnswerCheck {
	conforms: boolean;
	verdict: 'matches' | 'breaks' | 'unchecked';
	headline: string;
	violations: string[];
}

/**
 * The contract's operation of the users path for a method, or a ToolInputError naming the
 * methods it has: a QUERY asked of a contract without one (OpenAPI 3.1) is said in one line.
 */
export function usersOperation(reference: ApiReference, method: string): Operation {
	const onPath = reference.operations.filter(({ path }) => path === USERS_PATH);
	const operation = onPath.find((candidate) => candidate.method === method);
	if (operation) return operation;
	throw new ToolInputError(
		`method ${method}: the contract has no ${operationName(method, USERS_PATH)} operation; expected one of ${onPath.map((candidate) => candidate.method).join(', ')}`,
	);
}

/**
 * Checks a status, headers and body against the contract's operation of `method` (GET unless
 * told), as try-it, the proxy and conform do.
 */
export function checkAnswer(
	reference: ApiReference,
	sent: AnswerToCheck,
	method: (typeof CHECKED_METHODS)[number] = 'GET',
): AnswerCheck {
	if (!Number.isInteger(sent.status) || sent.status < 100 || sent.status > 599) {
		throw new ToolInputError(`status ${sent.status}: expected an HTTP status from 100 to 599`);
	}
	const { path } = usersOperation(reference, method);
	const contract = contractValidators(reference).get(operationName(method, path));
	if (!contract) throw new ToolInputError(`contract: expected a ${method} ${USERS_PATH} operation`);
	const { answer, headers } = readExchange(sent.status, sent.headers ?? {}, sent.body ?? '');
	const { verdict, headline, violations } = checkExchange(answer, headers, contract);
	return { conforms: verdict === 'matches', verdict, headline, violations };
}
