/**
 * The test for a YAML or JSON mapping, shared by the contract's reader (`contract.ts`) and its
 * cache (`contract-cache.ts`), below both so that neither imports the other for it.
 */

/** Whether a value is a mapping (not an array, not null). */
export function isMapping(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
