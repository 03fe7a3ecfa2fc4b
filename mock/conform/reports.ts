/**
 * The conformance run's reports: a table for people, JUnit XML for CI and Markdown for a review,
 * each from the results `decide.ts` judged. Keys are masked by the caller (`masked`) before any
 * report is shown or written.
 */
import type { ConformResult } from './decide.ts';

/** The expected column: the status the contract says. */
const expectedOf = (result: ConformResult): string =>
	`${result.check.expected}${result.check.method === 'HEAD' ? ', no body' : ''}, as the contract says`;

/** The run's table for the terminal: check, expected, got, verdict, then each problem below. */
export function table(results: readonly ConformResult[]): string {
	const rows = [
		['Check', 'Expected', 'Got', 'Verdict'],
		...results.map((result) => [result.check.name, expectedOf(result), result.got, result.verdict]),
	];
	const widths = [0, 1, 2, 3].map((column) =>
		Math.max(...rows.map((row) => row[column]?.length ?? 0)),
	);
	const line = (row: readonly string[]): string =>
		row
			.map((cell, column) => cell.padEnd(widths[column] ?? 0))
			.join('  ')
			.trimEnd();
	const out = [line(rows[0] ?? []), widths.map((width) => '-'.repeat(width)).join('  ')];
	results.forEach((result, index) => {
		out.push(line(rows[index + 1] ?? []));
		for (const problem of result.problems) out.push(`    ${problem}`);
	});
	return out.join('\n');
}

/** The summary line: how many checks conform. */
export function summary(results: readonly ConformResult[], base: string): string {
	const failing = results.filter(({ verdict }) => verdict !== 'conforms').length;
	return failing === 0
		? `The console at ${base} conforms to the contract: ${results.length} of ${results.length} checks pass.`
		: `The console at ${base} does not conform to the contract: ${failing} of ${results.length} checks fail.`;
}

/** Text escaped for XML. */
function xml(text: string): string {
	return (
		text
			// eslint-disable-next-line no-control-regex -- the characters XML 1.0 cannot hold are exactly what this replaces
			.replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd]/gu, '?')
			.replaceAll('&', '&amp;')
			.replaceAll('<', '&lt;')
			.replaceAll('>', '&gt;')
			.replaceAll('"', '&quot;')
	);
}

/** The run as JUnit XML: one test case per check, a failure per check that breaks the contract. */
export function junit(results: readonly ConformResult[], base: string): string {
	const failures = results.filter(({ verdict }) => verdict === 'breaks').length;
	const errors = results.filter(({ verdict }) => verdict === 'no answer').length;
	const seconds = (ms: number): string => (ms / 1000).toFixed(3);
	const total = seconds(results.reduce((sum, { durationMs }) => sum + durationMs, 0));
	const cases = results.map((result) => {
		const open = `    <testcase classname="${xml(result.check.operation)}" name="${xml(result.check.name)}" time="${seconds(result.durationMs)}"`;
		if (result.verdict === 'conforms') return `${open}/>`;
		const tag = result.verdict === 'breaks' ? 'failure' : 'error';
		const message = `Expected ${expectedOf(result)}; got ${result.got}`;
		return `${open}>\n      <${tag} message="${xml(message)}" type="${tag === 'failure' ? 'ContractViolation' : 'NoAnswer'}">${xml(result.problems.join('\n'))}</${tag}>\n    </testcase>`;
	});
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<testsuites name="conform" tests="${results.length}" failures="${failures}" errors="${errors}" time="${total}">`,
		`  <testsuite name="${xml(`The console at ${base} against openapi.yaml`)}" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="0" time="${total}">`,
		...cases,
		'  </testsuite>',
		'</testsuites>',
		'',
	].join('\n');
}

/** A Markdown table cell: one line, pipes escaped. */
function cell(text: string): string {
	return text
		.replaceAll('\\', '\\\\')
		.replaceAll('|', '\\|')
		.replace(/\s*\n\s*/g, '<br>');
}

/** The run as Markdown, for a review: the summary, then a row per check with its problems. */
export function markdown(results: readonly ConformResult[], base: string, when: Date): string {
	return [
		`# Conformance of the console at ${base}`,
		'',
		`${summary(results, base)} Run ${when.toISOString()} against openapi.yaml.`,
		'',
		'| Check | Expected | Got | Verdict |',
		'| --- | --- | --- | --- |',
		...results.map((result) => {
			const verdict =
				result.verdict === 'conforms'
					? 'conforms'
					: `**${result.verdict}**: ${result.problems.join('; ')}`;
			return `| ${cell(result.check.name)} | ${cell(expectedOf(result))} | ${cell(result.got)} | ${cell(verdict)} |`;
		}),
		'',
	].join('\n');
}
