/**
 * The one table of problems (src/shared/problems.ts): every problem the code and the contract can
 * answer is in it, with the contract's own title; each setting and flag its advice names exists;
 * and the mock, the proxy, the conformance run, MCP and try-it say a problem in its words.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { problemOfAnswer } from '../../../mcp/answer.ts';
import { controlProblem } from '../../../mock/answers.ts';
import { failureLine } from '../../../mock/conform/decide.ts';
import { FAILURE_PROBLEMS } from '../../../mock/forwarder/decide.ts';
import { sendExampleRequest } from '../../../src/client/try-it/exchange.ts';
import {
	PROBLEM_TYPE_BASE,
	PROBLEM_TYPES,
	problemAdvice,
	problemAnswered,
	problemBody,
	problemHref,
	problemNamed,
	problemOf,
} from '../../../src/shared/problems.ts';
import { problemRows, problemText, problemsMarkdown } from '../../../src/site/problem-reference.ts';
import { SETTING_LIST } from '../../../src/sources/settings.ts';
import { ROOT } from '../../../support/processes.ts';

const NAMES = PROBLEM_TYPES.map(({ name }) => name);

/** Every TypeScript file under a folder of the project, but tests and packages. */
async function sources(folder: string): Promise<{ file: string; text: string }[]> {
	const entries = await readdir(path.join(ROOT, folder), { recursive: true, withFileTypes: true });
	return Promise.all(
		entries
			.filter((entry) => entry.isFile() && /\.(?:ts|astro)$/.test(entry.name))
			.map((entry) => path.join(entry.parentPath, entry.name))
			.filter((file) => !file.includes('node_modules'))
			.map(async (file) => ({
				file: path.relative(ROOT, file),
				text: await readFile(file, 'utf8'),
			})),
	);
}

/** Every problem example of a contract: its type, title and status. */
function contractProblems(
	node: unknown,
	found: { type: string; title: string; status: number }[] = [],
) {
	if (Array.isArray(node)) node.forEach((item) => contractProblems(item, found));
	else if (node !== null && typeof node === 'object') {
		const { type, title, status } = node as Record<string, unknown>;
		if (typeof type === 'string' && type.startsWith(PROBLEM_TYPE_BASE)) {
			found.push({ type, title: String(title), status: Number(status) });
		}
		Object.values(node).forEach((value) => contractProblems(value, found));
	}
	return found;
}

describe('the table of problems', () => {
	it('names each problem once, as a URI segment the guide can anchor', () => {
		expect(new Set(NAMES).size).toBe(NAMES.length);
		for (const name of NAMES) expect(name).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
	});

	it('holds the console’s, the mock’s and the proxy’s problems, in this order', () => {
		expect(NAMES).toEqual([
			'missing-key',
			'invalid-key',
			'wrong-shape',
			'console-key',
			'invalid-request',
			'not-found',
			'method-not-allowed',
			'invalid-control',
			'unknown-code',
			'unknown-example',
			'invalid-body',
			'host-not-allowed',
			'sources-not-loaded',
			'mock-failure',
			'request-body',
			'query-in-proxy-mode',
			'control-in-proxy-mode',
			'contract-violation',
			'upstream-unreachable',
			'upstream-timeout',
			'upstream-broken',
			'upstream-not-http',
			'upstream-too-large',
			'upstream-not-ready',
		]);
	});

	it.each(['openapi.yaml', 'tests/fixtures/openapi-3-1/openapi.yaml'])(
		'holds every problem the contract’s examples give (%s), with the same title and status',
		async (file) => {
			const contract: unknown = parse(await readFile(path.join(ROOT, file), 'utf8'));
			const examples = contractProblems(contract);
			expect(examples.length).toBeGreaterThan(10);
			for (const example of examples) {
				const problem = problemNamed(example);
				expect(problem, example.type).toBeDefined();
				expect({ title: problem?.title, status: problem?.status }).toEqual({
					title: example.title,
					status: example.status,
				});
			}
		},
	);

	it('is where every problem the mock, the proxy, conform and MCP answer is named, and nowhere else', async () => {
		const files = [
			...(await sources('mock')),
			...(await sources('mcp')),
			...(await sources('src')),
			...(await sources('scripts')),
		];
		const emitted = new Set<string>();
		for (const { file, text } of files) {
			if (file === path.join('src', 'shared', 'problems.ts')) continue;
			// No address of a problem is written outside the table.
			expect(text, file).not.toContain('portal.example/problems/');
			for (const [, name] of text.matchAll(
				/\b(?:controlProblem|problemBody|problemOf)\(\s*'([^']+)'/g,
			)) {
				expect(NAMES, `${file}: ${name}`).toContain(name);
				emitted.add(name ?? '');
			}
		}
		for (const name of Object.values(FAILURE_PROBLEMS)) emitted.add(name);
		const contract = contractProblems(
			parse(await readFile(path.join(ROOT, 'openapi.yaml'), 'utf8')),
		);
		for (const { type } of contract) emitted.add(type.slice(PROBLEM_TYPE_BASE.length));
		// Each problem of the table is one the code or the contract answers.
		expect([...emitted].sort()).toEqual([...NAMES].sort());
	});

	it('names only settings and flags the settings table holds', () => {
		const variables = new Set(SETTING_LIST.map(({ name }) => name));
		const flags = new Set(
			SETTING_LIST.flatMap((setting) => [
				...(setting.flag ? [`--${setting.flag}`] : []),
				...Object.values(setting.flagOn ?? {}).map((flag) => `--${flag}`),
			]),
		);
		for (const problem of PROBLEM_TYPES) {
			const text = `${problem.what} ${problem.change} ${problem.changeInRun ?? ''}`;
			for (const [name] of text.matchAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g))
				expect(variables, `${problem.name}: ${name}`).toContain(name);
			for (const [flag] of text.matchAll(/--[a-z][a-z-]*/g))
				expect(flags, `${problem.name}: ${flag}`).toContain(flag);
		}
	});

	it('says the upstream problems with the proxy’s setting and, in a run, with conform’s flag', () => {
		expect(problemOf('upstream-unreachable').change).toContain('MOCK_UPSTREAM (--upstream)');
		expect(problemOf('upstream-unreachable').changeInRun).toContain(
			'--base-url (CONFORM_BASE_URL)',
		);
		expect(problemOf('upstream-timeout').change).toContain('MOCK_UPSTREAM_TIMEOUT_MS');
		expect(problemOf('upstream-timeout').changeInRun).toContain(
			'--timeout-ms (CONFORM_TIMEOUT_MS)',
		);
	});
});

describe('a problem body', () => {
	it('takes its type, title and status from the table, its detail from the occurrence', () => {
		expect(problemBody('upstream-not-ready', 'Its log says why.')).toEqual({
			type: 'https://portal.example/problems/upstream-not-ready',
			title: 'The console the mock forwards to does not answer',
			status: 503,
			detail: 'Its log says why.',
		});
	});

	it('is what the mock answers as problem+json', () => {
		const answer = controlProblem(
			'invalid-control',
			'Prefer: code=abc: expected a three-digit status code',
		);
		expect(answer.status).toBe(422);
		expect(answer.headers).toEqual({ 'Content-Type': 'application/problem+json' });
		expect(JSON.parse(answer.body)).toEqual({
			type: 'https://portal.example/problems/invalid-control',
			title: 'The mock cannot read a control',
			status: 422,
			detail: 'Prefer: code=abc: expected a three-digit status code',
		});
	});

	it('is found by its type only under the table’s base and names', () => {
		expect(problemNamed({ type: 'https://portal.example/problems/missing-key' })?.title).toBe(
			'A directory key is required',
		);
		expect(
			problemNamed({ type: 'https://elsewhere.example/problems/missing-key' }),
		).toBeUndefined();
		expect(
			problemNamed({ type: 'https://portal.example/problems/no-such-problem' }),
		).toBeUndefined();
		expect(problemNamed({ type: 42 })).toBeUndefined();
		expect(problemNamed({ title: 'A directory key is required' })).toBeUndefined();
		expect(problemNamed(null)).toBeUndefined();
		expect(problemNamed('https://portal.example/problems/missing-key')).toBeUndefined();
	});

	it('is a problem of the table only when the answer is problem+json', () => {
		const body = { type: 'https://portal.example/problems/not-found' };
		expect(problemAnswered('application/problem+json', body)?.name).toBe('not-found');
		expect(problemAnswered('application/json', body)).toBeUndefined();
		expect(problemAnswered(undefined, body)).toBeUndefined();
	});

	it('is said in one line: title, what to change, and its anchor on the problems guide', () => {
		expect(problemHref('upstream-timeout')).toBe('/docs/problems/#upstream-timeout');
		expect(problemAdvice(problemOf('host-not-allowed'))).toBe(
			'The mock is not served under this host. To serve the mock under another name, add it to MOCK_ALLOWED_HOSTS (comma-separated names); else call it as 127.0.0.1, localhost or [::1]. (/docs/problems/#host-not-allowed)',
		);
	});
});

describe('the conformance run, when the console gives no answer', () => {
	it('says the proxy’s title and what to change in a run', () => {
		expect(failureLine({ kind: 'timeout' }, 2000)).toBe(
			'The console did not answer in time (within 2000 ms). Raise --timeout-ms (CONFORM_TIMEOUT_MS), or find out why the console is slow.',
		);
		expect(failureLine({ kind: 'too-large', limit: 1024 }, 2000)).toBe(
			"The console's answer is too large: it answered a body over 1024 bytes. Make the console's answer smaller; the proxy checks answers up to its limit only.",
		);
		expect(failureLine({ kind: 'not-http', cause: 'HPE_INVALID_CONSTANT' }, 2000)).toBe(
			"The console did not answer in HTTP: it answered something that is not HTTP (HPE_INVALID_CONSTANT). Check the console's address given to --base-url (CONFORM_BASE_URL), its scheme (http: or https:) among it, and that the console is up.",
		);
	});
});

describe('MCP’s call_mock', () => {
	it('names a problem answer’s title, what to change and its section of the guide', () => {
		const sent = {
			headers: { 'content-type': 'application/problem+json; charset=utf-8' },
			body: JSON.stringify(problemBody('unknown-code', 'Prefer: code=418: no 418 response.')),
		};
		expect(problemOfAnswer(sent)).toEqual({
			type: 'https://portal.example/problems/unknown-code',
			title: 'The contract has no such response',
			change: 'Ask for a status the detail lists, with Prefer: code=<status> or __code=<status>.',
			guide: '/docs/problems/#unknown-code',
		});
	});

	it('names none for a body that is not a problem of the table', () => {
		const problem = JSON.stringify(problemBody('not-found', 'x'));
		expect(
			problemOfAnswer({ headers: { 'content-type': 'application/json' }, body: problem }),
		).toBeUndefined();
		expect(
			problemOfAnswer({
				headers: { 'content-type': 'application/problem+json' },
				body: 'not json',
			}),
		).toBeUndefined();
		expect(problemOfAnswer({ headers: {}, body: problem })).toBeUndefined();
	});
});

describe('try-it, when the mock answers a problem', () => {
	/** An answer of the mock as try-it reads it, its body read up to `capBytes`. */
	const answerOf = async (body: string, contentType: string, capBytes?: number) => {
		const fetchImpl: typeof fetch = () =>
			Promise.resolve(
				new Response(body, { status: 422, headers: { 'content-type': contentType } }),
			);
		const outcome = await sendExampleRequest(
			{ server: 'http://127.0.0.1:4010', key: 'ick-4f1c9a07-Qx7m' },
			{ fetch: fetchImpl, now: () => 0, ...(capBytes ? { capBytes } : {}) },
		);
		if (outcome.kind !== 'answer') throw new Error(`expected an answer, got ${outcome.kind}`);
		return outcome;
	};
	const INVALID_CONTROL =
		'The mock cannot read a control. Mend the control the detail names, in the Prefer header or its __ query parameter, e.g. Prefer: code=401 or __code=401. (/docs/problems/#invalid-control)';

	it('shows its title and what to change first among the notes', async () => {
		const problem = JSON.stringify(problemBody('invalid-control', 'Prefer: code=abc'));
		const answer = await answerOf(problem, 'application/problem+json');
		expect(answer.notes).toEqual([INVALID_CONTROL]);
	});

	it('keeps the notes on the body after the problem’s', async () => {
		const problem = JSON.stringify(problemBody('invalid-control', 'Prefer: code=abc'));
		// Read whole, but longer than the cap once formatted.
		const answer = await answerOf(problem, 'application/problem+json', problem.length);
		expect(answer.notes).toEqual([
			INVALID_CONTROL,
			`The formatted body is longer than ${problem.length} bytes; only its start is shown.`,
		]);
	});

	it('adds nothing for JSON that is not problem+json, nor for a type the table lacks', async () => {
		const problem = JSON.stringify(problemBody('invalid-control', 'Prefer: code=abc'));
		expect((await answerOf(problem, 'application/json')).notes).toEqual([]);
		const other = JSON.stringify({ type: 'https://portal.example/problems/other', title: 'x' });
		expect((await answerOf(other, 'application/problem+json')).notes).toEqual([]);
	});

	it('adds nothing for a problem+json body that is not JSON, whose own note stays', async () => {
		const answer = await answerOf('{"type": 1', 'application/problem+json');
		expect(answer.notes).toEqual([
			'The body is not JSON (Content-Type: application/problem+json); it is shown as text.',
		]);
	});

	it('keeps the media type it read for the contract’s check', async () => {
		const problem = JSON.stringify(problemBody('invalid-control', 'Prefer: code=abc'));
		const answer = await answerOf(problem, 'Application/Problem+JSON; charset=utf-8');
		expect(answer.checked.mediaType).toBe('application/problem+json');
		expect(answer.notes).toEqual([INVALID_CONTROL]);
	});
});

describe('the problems guide', () => {
	it('shows settings as code linked to the settings reference, flags and headers as code', () => {
		expect(problemText('Raise MOCK_UPSTREAM_TIMEOUT_MS, or --upstream in Authorization.')).toEqual([
			{ kind: 'text', text: 'Raise ' },
			{
				kind: 'setting',
				text: 'MOCK_UPSTREAM_TIMEOUT_MS',
				href: '/docs/settings/#MOCK_UPSTREAM_TIMEOUT_MS',
			},
			{ kind: 'text', text: ', or ' },
			{ kind: 'code', text: '--upstream' },
			{ kind: 'text', text: ' in ' },
			{ kind: 'code', text: 'Authorization' },
			{ kind: 'text', text: '.' },
		]);
	});

	it('has a row for every problem, in three groups, and a Markdown table of each for MCP', () => {
		const rows = (['console', 'mock', 'proxy'] as const).flatMap((sender) => problemRows(sender));
		expect(rows.map(({ name }) => name)).toEqual(NAMES);
		const proxy = problemsMarkdown('proxy');
		expect(proxy).toContain(
			"| `upstream-timeout` | 504 | The console did not answer in time | The console's whole answer did not come within the time allowed. | Raise `MOCK_UPSTREAM_TIMEOUT_MS`, or find out why the console is slow. In a conformance run: Raise `--timeout-ms` (`CONFORM_TIMEOUT_MS`), or find out why the console is slow. |",
		);
		expect(() => problemsMarkdown('nobody')).toThrow(/no group of problems "nobody"/);
	});
});
