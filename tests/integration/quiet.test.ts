/**
 * A healthy build prints nothing that looks like a failure: warnings that are not the reader's to
 * act on are fixed at their cause or dropped where they arise, with the reason beside the code.
 */
import { describe, expect, inject, it } from 'vitest';
import { sharedBuild } from '../support/shared-build.ts';

const { output } = await sharedBuild(inject('distDir'));

describe('a healthy build is quiet', () => {
	it('prints no warning and no error line', () => {
		const lines = output
			.split('\n')
			.filter((line) => /\[(WARN|ERROR)\]|\bwarn(ing)?\b/i.test(line));
		expect(lines).toEqual([]);
	});

	it('still says that it built its pages', () => {
		expect(output).toMatch(/\d+ page\(s\) built in/);
	});
});
