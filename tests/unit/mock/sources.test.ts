/** What the mock refuses to load, with the same message the build gives. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadState } from '../../../mock/state.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { ROOT } from '../../../support/processes.ts';

describe('the mock reads the fixtures by the build’s rules', () => {
	it('refuses two views that would share a name, naming both files', async () => {
		const loading = loadState({
			viewsDir: path.join(ROOT, 'tests/fixtures/duplicate-names/views'),
			contractFile: readSettings({}).openApiFile,
			mockOrigin: 'http://127.0.0.1:1',
		});
		await expect(loading).rejects.toThrow(
			'tests/fixtures/duplicate-names/views/dr-eu-west.json: name: expected a name no other view has, but tests/fixtures/duplicate-names/views/dr-eu-west-failover.json and this view are both named "dr-eu-west · DR"',
		);
		await expect(loading).rejects.toHaveProperty('name', 'SourceError');
	});
});
