/**
 * What the MCP server's tool list needs before any tool runs: the values its input schemas offer
 * and its one kind of error. Kept apart from the tools themselves, so that the server answers
 * `initialize` and `tools/list` without loading them (the contract's parser, Pagefind, git).
 */

/** A tool input the server cannot answer for: its message is one line naming the input. */
export class ToolInputError extends Error {
	override name = 'ToolInputError';
}

/** The page kinds search tells apart, as the dialog's kind filter names them. */
export { PAGE_KINDS as SEARCH_KINDS, type PageKind as SearchKind } from '../src/shared/search.ts';

/** The methods `call_mock` sends: QUERY (OpenAPI 3.2) only to a contract that has one. */
export const MOCK_METHODS = ['GET', 'HEAD', 'OPTIONS', 'QUERY'] as const;

/** The methods whose answers `check_answer` checks: QUERY only against a contract that has one. */
export const CHECKED_METHODS = ['GET', 'QUERY'] as const;

/** How long `call_mock` waits for a mock's whole answer unless told otherwise, in milliseconds. */
export const CALL_TIMEOUT_MS = 15_000;

/** The longest wait a call may ask for: past the mock's longest delay (30 s). */
export const LONGEST_CALL_TIMEOUT_MS = 60_000;

/** The pages `read_page` reads, as address patterns. */
export const READABLE_PAGES =
	'/, /environments/<environment>/ (and its /<n>/ pages), /views/<slug>/, /people/<person>/, /access/environments/<environment>/ and its /<role>/, /access/roles/<role>/, /reference/, /docs/, /docs/<guide>/ and /llms.txt (each page also by its .md twin)';
