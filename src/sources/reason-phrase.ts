/**
 * A status in words, for a response an OpenAPI 3.2 contract writes without a summary or
 * description. Kept apart from the contract reader (openapi.ts) so that the mock's 3.1 copy
 * (contract-3-1.ts) can use it without loading Redocly at start.
 */
import { STATUS_CODES } from 'node:http';

/**
 * The line that stands for a response written without a summary or description: its status's
 * standard reason phrase (`Not Found`), or what a range (`2XX`) or `default` covers.
 */
export function reasonPhrase(status: string): string {
	if (status === 'default') return 'Any other status';
	if (/^[1-5]XX$/i.test(status)) return `Any ${status.charAt(0)}xx status`;
	return STATUS_CODES[status] ?? `Status ${status}`;
}
