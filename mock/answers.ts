/**
 * The mock's answers: where a request goes (its route; its key and controls are weighed in
 * `controls.ts`), Prism's body and headers for the users operation, the contract's
 * own 404 and 405 problems for other routes, and the problems of the controls themselves. Deterministic answers are computed once per state and
 * handed on to the next state unless what they depend on changed.
 */
import { z } from 'zod';
import { USERS_PATH } from '../src/shared/curl.ts';
import { problemBody, type ProblemName } from '../src/shared/problems.ts';
import type { ResponseModel } from '../src/sources/openapi.ts';
import type { MockControls } from './controls.ts';
import { plainOutput } from './plain-answers.ts';
import type { PrismOutput } from './prism.ts';
import { ROUTE_PROBLEMS, viewChanges, type MockState } from './state.ts';

/** One computed answer: status, headers and the body as sent. */
export interface Answer {
	status: number;
	headers: Record<string, string>;
	body: string;
}

/**
 * The methods Prism knows, and QUERY, which the mock answers itself (`query.ts`); any other method
 * is routed as TRACE, which the contract lacks (405).
 */
export const methodSchema = z
	.enum(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'])
	.catch('trace');

/** Headers our layer sets itself, whatever the contract declares for them. */
const OWN_HEADERS = /^(?:access-control-|vary$|content-length$)/i;

/**
 * A problem of the mock's own (not one the contract's examples give), as problem+json: its type,
 * title and status from the one table of problems (src/shared/problems.ts), its detail this
 * occurrence's.
 */
export function controlProblem(name: ProblemName, detail: string): Answer {
	const body = problemBody(name, detail);
	return {
		status: body.status,
		headers: { 'Content-Type': 'application/problem+json' },
		body: JSON.stringify(body),
	};
}

/** A list of names as a person reads it, cut after a few. */
export function someNames(names: readonly string[]): string {
	const shown = names.slice(0, 5).join(', ');
	return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

/** The headers an operation declares for each response, with their named examples. */
interface DeclaredHeaders {
	responses: readonly {
		code: string;
		headers?: readonly { name: string; examples?: readonly { key: string; value?: unknown }[] }[];
	}[];
}

/**
 * The headers of a Prism answer as strings, without the ones our layer sets, and with each
 * header that has an example of the body's example name set to that example, so that the
 * `invalid-key` body comes with the `invalid-key` challenge.
 */
function answerHeaders(
	output: Pick<PrismOutput, 'status' | 'headers'>,
	operation: DeclaredHeaders,
	exampleKey: string | undefined,
): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(output.headers)) {
		if (value === null || value === undefined || value === '' || OWN_HEADERS.test(name)) continue;
		// Prism spells it `Content-type`; write it the way the other headers are written.
		headers[name.toLowerCase() === 'content-type' ? 'Content-Type' : name] = String(value);
	}
	const response = operation.responses.find(({ code }) => code === String(output.status));
	for (const header of response?.headers ?? []) {
		const example = header.examples?.find((candidate) => candidate.key === exampleKey);
		if (example && typeof example.value === 'string') {
			headers[header.name] = example.value;
		}
	}
	return headers;
}

/**
 * One of the contract's named responses as an answer: the body example of the given name, and
 * each header's example of that name, else its first.
 */
export function answerFromModel(status: number, response: ResponseModel, example: string): Answer {
	const [body] = response.bodies;
	const value = body?.examples.find(({ name }) => name === example)?.value;
	const headers: Record<string, string> = {};
	for (const header of response.headers) {
		if (OWN_HEADERS.test(header.name)) continue;
		const chosen = header.examples.find(({ name }) => name === example) ?? header.examples[0];
		if (typeof chosen?.value === 'string') headers[header.name] = chosen.value;
	}
	if (body) headers['Content-Type'] = body.mediaType;
	return { status, headers, body: value === undefined ? '' : JSON.stringify(value) };
}

/** The body Prism produced, as sent. */
function bodyText(body: unknown): string {
	if (body === undefined || body === null) return '';
	return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * The users answer to a plain request (no control) for a status and example, made as Prism makes
 * it without loading Prism (`plain-answers.ts`); undefined where only Prism can make it.
 */
function plainAnswer(state: MockState, code: number, example: string): Answer | undefined {
	const response = state.plain.get(String(code));
	const examples = state.users.responses.find((candidate) => candidate.code === String(code))
		?.contents?.[0]?.examples;
	if (!response || !examples) return undefined;
	// The views' 200 examples are the mock's own; any other is the document's, as Prism reads it.
	const output = plainOutput(
		response,
		example,
		code === 200 && response.content?.mediaType === 'application/json'
			? examples
			: (response.content?.examples ?? []),
	);
	if (!output) return undefined;
	const declared = { responses: [{ code: String(code), headers: response.headers }] };
	return {
		status: code,
		headers: answerHeaders({ status: code, headers: output.headers }, declared, example),
		body: bodyText(output.body),
	};
}

/** Whether a request named no control: its answer is the plain one. */
function plainControls(controls: MockControls | undefined): boolean {
	return (
		controls === undefined ||
		(controls.code === undefined &&
			controls.example === undefined &&
			controls.dynamic === undefined &&
			controls.seed === undefined &&
			controls.delay === undefined &&
			controls.fault === undefined)
	);
}

/**
 * Computes answers from a state, keeping each deterministic one: a plain request's from the
 * contract as Prism would, any other through Prism, loaded on the first such request.
 */
export function createAnswerer() {
	const kept = new WeakMap<MockState, Map<string, Promise<Answer>>>();
	/** The answers computed without failing: only these are handed on to a new state. */
	const settled = new WeakSet<Promise<Answer>>();

	/** The answers kept for a state. */
	const answersOf = (state: MockState): Map<string, Promise<Answer>> => {
		let answers = kept.get(state);
		if (!answers) kept.set(state, (answers = new Map<string, Promise<Answer>>()));
		return answers;
	};

	/**
	 * Hands the answers of a state on to the next one, but those that changed: every answer
	 * when the contract changed, else those of the views whose files changed or went away.
	 */
	const carry = (before: MockState, after: MockState): void => {
		if (before.contractStamp !== after.contractStamp) return;
		const { changed, removed } = viewChanges(before, after);
		const stale = new Set([...changed, ...removed].map((slug) => `users 200 ${slug}`));
		const answers = answersOf(after);
		for (const [id, answer] of answersOf(before)) {
			if (!stale.has(id) && settled.has(answer)) answers.set(id, answer);
		}
	};

	/** Asks Prism (loaded on the first call) for one of the users operation's responses. */
	const ask = async (
		state: MockState,
		code: number,
		example: string | undefined,
		controls: MockControls | undefined,
	): Promise<Answer> => {
		const [{ askPrism }, { operations, users }] = await Promise.all([
			import('./prism.ts'),
			state.prism(),
		]);
		const output = await askPrism(USERS_PATH, operations, users, { code, example, controls });
		return {
			status: output.status,
			headers: answerHeaders(output, users, example),
			body: bodyText(output.body),
		};
	};

	/** Keeps an answer per state and name; dynamic answers are never kept. */
	const keep = (state: MockState, id: string, compute: () => Promise<Answer>): Promise<Answer> => {
		const answers = answersOf(state);
		let answer = answers.get(id);
		if (!answer) {
			const computing = compute();
			answer = computing;
			answers.set(id, computing);
			// A failure is not kept: the next request asks again.
			computing.then(
				() => settled.add(computing),
				() => answers.delete(id),
			);
		}
		return answer;
	};

	/** The contract's 404 or 405 problem, from its named responses. */
	const routeProblem = (state: MockState, status: 404 | 405): Promise<Answer> =>
		keep(state, `route ${status}`, () =>
			Promise.resolve(
				answerFromModel(status, state.routeProblems[status], ROUTE_PROBLEMS[status].example),
			),
		);

	/** The users answer for a status and example (checked to exist), or a controls problem. */
	const users = (
		state: MockState,
		code: number,
		example: string | undefined,
		controls?: MockControls,
	) => {
		const id = `users ${code} ${example ?? ''}`;
		// The common case, a key's own view or a control asked before, is one lookup.
		const known = controls?.dynamic ? undefined : answersOf(state).get(id);
		if (known) return known;
		const response = state.users.responses.find((candidate) => candidate.code === String(code));
		if (!response) {
			const codes = state.users.responses.map((candidate) => candidate.code).join(', ');
			return Promise.resolve(
				controlProblem(
					'unknown-code',
					`${controls?.spelled ?? `code=${code}`}: GET ${USERS_PATH} has no ${code} response; it answers ${codes}.`,
				),
			);
		}
		const content = response.contents?.[0];
		const names = (content?.examples ?? []).flatMap((candidate) =>
			'key' in candidate ? [candidate.key] : [],
		);
		if (example !== undefined && !names.includes(example)) {
			const hint =
				code === 200
					? `the ${code} examples are named by view slug, e.g. ${someNames(names)}`
					: `its examples are ${someNames(names) || 'none'}`;
			return Promise.resolve(
				controlProblem(
					'unknown-example',
					`${controls?.spelled ?? `example=${example}`}: the ${code} answer of GET ${USERS_PATH} has no example named "${example}"; ${hint}.`,
				),
			);
		}
		const plain =
			example !== undefined && plainControls(controls)
				? plainAnswer(state, code, example)
				: undefined;
		if (plain) return keep(state, id, () => Promise.resolve(plain));
		const compute = () => ask(state, code, example, controls);
		return controls?.dynamic ? compute() : keep(state, id, compute);
	};

	return { routeProblem, users, carry };
}

/** A path template of the contract as a pattern: `{name}` stands for one path segment. */
function pathPattern(template: string): RegExp {
	const parts = template
		.split(/\{[^}]*\}/)
		.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
	return new RegExp(`^${parts.join('[^/]+')}$`);
}

/** The contract's paths as patterns, with the methods each answers, compiled once per state. */
const routesOf = (() => {
	const compiled = new WeakMap<MockState, { pattern: RegExp; path: string; methods: string[] }[]>();
	return (state: MockState) => {
		let routes = compiled.get(state);
		if (!routes) {
			const byPath = new Map<string, string[]>();
			for (const { path, method } of state.reference.operations) {
				byPath.set(path, [...(byPath.get(path) ?? []), method.toLowerCase()]);
			}
			routes = [...byPath].map(([path, methods]) => ({
				pattern: pathPattern(path),
				path,
				methods,
			}));
			compiled.set(state, routes);
		}
		return routes;
	};
})();

/**
 * Where a request goes: the users operation, 404 for a path the contract does not list, 405
 * for a listed path and another method. The contract has one operation; a request for another
 * one it may grow would be refused as 405 until the mock learns to answer it.
 */
export function routeOf(
	state: MockState,
	path: string,
	method: string,
): 'users' | 'query' | 404 | 405 {
	const listed = routesOf(state).filter(({ pattern }) => pattern.test(path));
	if (listed.length === 0) return 404;
	if (method === 'query') {
		return listed.some((route) => route.path === USERS_PATH && route.methods.includes('query'))
			? 'query'
			: 405;
	}
	return method === 'get' &&
		listed.some((route) => route.path === USERS_PATH && route.methods.includes('get'))
		? 'users'
		: 405;
}
