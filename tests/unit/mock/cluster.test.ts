/** The primary of MOCK_WORKERS writes a message every worker sends alike once. */
import { describe, expect, it } from 'vitest';
import { onceForAll } from '../../../mock/cluster.ts';

describe('onceForAll', () => {
	it('writes a message once when each worker sends it in turn, and again when it comes again', () => {
		const fresh = onceForAll();
		const reload = 'Mock reloaded: 9 views (added qa-eu-west).';
		expect([fresh(1, reload), fresh(2, reload)]).toEqual([true, false]);
		// The same worker saying it again is news: another edit with the same outcome.
		expect(fresh(2, reload)).toBe(true);
		expect(fresh(1, reload)).toBe(false);
		expect([fresh(1, 'Mock kept its last good state'), fresh(2, reload)]).toEqual([true, true]);
	});
});
