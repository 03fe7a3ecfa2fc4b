/** Prints one closing line, `vitest: N passed, N failed, N skipped`, that any CI can read. */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
	onTestRunEnd(testModules: readonly TestModule[]): void {
		const counts = { passed: 0, failed: 0, skipped: 0 };
		for (const module of testModules) {
			for (const test of module.children.allTests()) {
				const { state } = test.result();
				if (state === 'passed') counts.passed += 1;
				else if (state === 'failed') counts.failed += 1;
				else counts.skipped += 1;
			}
			if (module.state() === 'failed' && module.children.size === 0) counts.failed += 1;
		}
		console.log(
			`vitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
		);
	}
}
