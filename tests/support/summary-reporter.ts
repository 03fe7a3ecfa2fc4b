/**
 * Prints one closing line, `vitest: N passed, N failed, N skipped`, that any CI can read. Before
 * it, a run that chose no tests by name (`-t`) names each skipped test, its file and the reason it
 * gave, so no test is skipped unseen.
 */
import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

export default class SummaryReporter implements Reporter {
	/** Whether the run picks tests by name, skipping the others as asked. */
	private filtered = false;
	private root = '';

	onInit(vitest: Vitest): void {
		this.filtered = vitest.config.testNamePattern !== undefined;
		this.root = vitest.config.root;
	}

	onTestRunEnd(testModules: readonly TestModule[]): void {
		const counts = { passed: 0, failed: 0, skipped: 0 };
		const skipped: string[] = [];
		for (const module of testModules) {
			for (const test of module.children.allTests()) {
				const result = test.result();
				if (result.state === 'passed') counts.passed += 1;
				else if (result.state === 'failed') counts.failed += 1;
				else {
					counts.skipped += 1;
					const note = result.state === 'skipped' && result.note ? ` (${result.note})` : '';
					const how = test.options.mode === 'todo' ? 'todo' : 'skipped';
					skipped.push(
						`vitest: ${how}: ${path.relative(this.root, module.moduleId)} > ${test.fullName}${note}`,
					);
				}
			}
			if (module.state() === 'failed' && module.children.size === 0) counts.failed += 1;
		}
		if (!this.filtered) for (const line of skipped) console.log(line);
		console.log(
			`vitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
		);
	}
}
