/**
 * vitest's JSON reporter, writing its report to its `outputFile` without the line "JSON report
 * written to …" that would follow the summary reporter's closing line of every `npm test`
 * (vitest.config.ts records each run's report into `reports/test-times/` with it).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { JsonReporter } from 'vitest/reporters';

export default class QuietJsonReporter extends JsonReporter {
	override async writeReport(report: string): Promise<void> {
		const out = this.options.outputFile;
		if (typeof out !== 'string') {
			throw new Error('quiet-json-reporter needs an outputFile in vitest.config.ts');
		}
		await mkdir(path.dirname(out), { recursive: true });
		await writeFile(out, report);
	}
}
