/**
 * A vitest reporter for `npm run bench:tests`: each test file's whole time, which vitest's JSON
 * reporter does not give (its span runs from the first test's start to the last one's end, so a
 * file's import and its hooks, such as a build in beforeAll, fall outside it). Writes a JSON array
 * to the file named by TEST_TIMES_FILE.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { z } from 'zod';

/** One test file's time, in milliseconds, by phase. */
export const fileTimeSchema = z.object({
	/** The file's absolute path. */
	file: z.string(),
	/** The vitest project that ran it: unit, integration or e2e. */
	project: z.string(),
	/** Setting up the environment, the runner and the setup files. */
	setupMs: z.number(),
	/** Importing the file and running its describe blocks. */
	collectMs: z.number(),
	/** Its tests and hooks (beforeAll, afterAll…). */
	runMs: z.number(),
});

export type FileTime = z.infer<typeof fileTimeSchema>;

export default class FileTimesReporter implements Reporter {
	onTestRunEnd(testModules: readonly TestModule[]): void {
		const out = z.string().min(1).parse(process.env['TEST_TIMES_FILE']);
		const times: FileTime[] = testModules.map((module) => {
			const diagnostic = module.diagnostic();
			return {
				file: module.moduleId,
				project: module.project.name,
				setupMs:
					diagnostic.environmentSetupDuration +
					diagnostic.prepareDuration +
					diagnostic.setupDuration,
				collectMs: diagnostic.collectDuration,
				runMs: diagnostic.duration,
			};
		});
		writeFileSync(out, JSON.stringify(times));
	}
}
