/**
 * `check_answer`: an answer's status, headers and body checked against the contract of
 * GET /api/v2/users with the contract's one check (src/shared/exchange-check.ts), which try-it,
 * the mock as a validating proxy and the conformance run make too, with the validators compiled
 * once per reading of the contract (src/sources/contract-validators.ts). So a 401 without a
 * Bearer challenge breaks here as it does there.
 */
import { USERS_PATH } from '../src/shared/curl.ts';
import { checkExchange, readExchange } from '../src/shared/exchange-check.ts';
import { contractValidators, operationName } from '../src/sources/contract-validators.ts';
import type { ApiReference } from '../src/sources/openapi.ts';
import { ToolInputError } from './tool-names.ts';

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

/** Checks a status, headers and body against the contract, as try-it, the proxy and conform do. */
export function checkAnswer(reference: ApiReference, sent: AnswerToCheck): AnswerCheck {
	if (!Number.isInteger(sent.status) || sent.status < 100 || sent.status > 599) {
		throw new ToolInputError(`status ${sent.status}: expected an HTTP status from 100 to 599`);
	}
	const contract = contractValidators(reference).get(operationName('GET', USERS_PATH));
	if (!contract) throw new ToolInputError(`contract: expected a GET ${USERS_PATH} operation`);
	const { answer, headers } = readExchange(sent.status, sent.headers ?? {}, sent.body ?? '');
	const { verdict, headline, violations } = checkExchange(answer, headers, contract);
	return { conforms: verdict === 'matches', verdict, headline, violations };
}
