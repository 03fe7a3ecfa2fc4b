/**
 * The mock's chaos for a soak test (MOCK_CHAOS, read in `src/schemas/mock-chaos.ts`): delays,
 * faults and statuses served to a share of the requests in scope, as if the request had asked
 * for them, so the client sees what `Prefer: delay=…, fault=…, code=…` would give it.
 *
 * In scope is a request of the users operation whose key opened a view and that got its 200:
 * never a probe, a preflight, a refused host, key or control, another path, or a request that
 * asks for its own `delay`, `fault` or `code` (its own controls win). With `view=` or `person=`,
 * only the requests of that view (the key's, or the example the request asks for) or of the keys
 * that person holds.
 *
 * The requests in scope are numbered as the mock decides them, 1, 2, 3…, and the nth one's
 * choices are drawn from the seed and n alone (`seededRandom('<seed>#<n>')`), so the same
 * sequence of requests in scope gets the same choices on every run, whatever else the mock
 * answers meanwhile. Each process counts its own: with MOCK_WORKERS, each worker's nth request.
 */
import { USERS_PATH } from '../src/shared/curl.ts';
import { ALL, shownShare, type ChaosRule } from '../src/schemas/mock-chaos.ts';
import type { FaultKind } from '../src/schemas/mock-delivery.ts';
import { pickDelay, readControls, seededRandom } from './controls.ts';
import type { MockAnswer } from './decide.ts';
import type { KeyHolder } from './directory.ts';
import type { MockRequest } from './sent-answers.ts';
import type { MockState } from './state.ts';

/** What the chaos chose for one request in scope. */
export interface ChaosPick {
	/** The request's number among those in scope, from 1. */
	number: number;
	/** The delay before the answer (or over its body, for `slow-body`), in milliseconds. */
	delay?: number | undefined;
	/** The fault served instead of the answer, or on it. */
	fault?: FaultKind | undefined;
	/** The status answered instead of 200. */
	code?: number | undefined;
}

/**
 * The choices for the nth request in scope: first whether it gets one of the faults or statuses
 * (one draw over their shares, in the order written), then whether it gets the delay, and which.
 */
export function pickChaos(rule: ChaosRule, number: number, random?: () => number): ChaosPick {
	const draw =
		random ?? (rule.seed === undefined ? Math.random : seededRandom(`${rule.seed}#${number}`));
	const pick: ChaosPick = { number };
	const outcomeDraw = Math.floor(draw() * ALL);
	let upTo = 0;
	for (const outcome of rule.outcomes) {
		upTo += outcome.share;
		if (outcomeDraw >= upTo) continue;
		if (outcome.kind === 'fault') pick.fault = outcome.fault;
		else pick.code = outcome.code;
		break;
	}
	if (rule.delay && Math.floor(draw() * ALL) < rule.delay.share) {
		pick.delay = pickDelay(rule.delay.range, draw);
	}
	return pick;
}

/** What the request log says the chaos served: `#42 delay=120ms code=503`. */
export function chaosServed(pick: ChaosPick): string {
	return [
		`#${pick.number}`,
		pick.delay === undefined ? '' : `delay=${pick.delay}ms`,
		pick.fault ? `fault=${pick.fault}` : '',
		pick.code === undefined ? '' : `code=${pick.code}`,
	]
		.filter(Boolean)
		.join(' ');
}

/**
 * The line the mock says at start. It never names the person's email: the request log names a
 * key's holder by name only, so the chaos says `person=<scoped>`.
 */
export function chaosSummary(rule: ChaosRule, workers: boolean): string {
	const served = [
		rule.delay &&
			`delay=${rule.delay.range.min === rule.delay.range.max ? rule.delay.range.min : `${rule.delay.range.min}-${rule.delay.range.max}`}ms to ${rule.delay.share === ALL ? 'every one' : shownShare(rule.delay.share)}`,
		...rule.outcomes.map((outcome) =>
			outcome.kind === 'fault'
				? `fault=${outcome.fault} to ${shownShare(outcome.share)}`
				: `code=${outcome.code} to ${shownShare(outcome.share)}`,
		),
	].filter(Boolean);
	const scope = [rule.view && `view=${rule.view}`, rule.person && 'person=<scoped>'].filter(
		Boolean,
	);
	const seeded =
		rule.seed === undefined
			? 'no seed, so the choices differ from run to run'
			: `seed=${rule.seed}: the nth request in scope gets the same each run${workers ? ' (each worker counts its own)' : ''}`;
	return `Mock chaos on (MOCK_CHAOS): ${served.join(', ')} of the GET ${USERS_PATH} requests a directory key opens${scope.length > 0 ? `, only for ${scope.join(' and ')}` : ''}, unless a request asks for its own delay, fault or code; ${seeded}.`;
}

/** The holders of the keys a person (an email, lower case) holds, by state and person. */
const holdersOf = (() => {
	const found = new WeakMap<MockState, Map<string, Set<KeyHolder>>>();
	return (state: MockState, person: string): Set<KeyHolder> => {
		let people = found.get(state);
		if (!people) found.set(state, (people = new Map<string, Set<KeyHolder>>()));
		let holders = people.get(person);
		if (!holders) {
			holders = new Set();
			for (const { view } of state.views) {
				for (const user of view.users) {
					if (user.email.toLowerCase() !== person) continue;
					const holder = state.directory.holders.get(user.apiKey);
					if (holder) holders.add(holder);
				}
			}
			people.set(person, holders);
		}
		return holders;
	};
})();

/** Whether the contract declares a status for the users operation. */
function declares(state: MockState, code: number): boolean {
	return state.users.responses.some((response) => response.code === String(code));
}

/** Whether a request and its answer are in the chaos's scope (see the module's comment). */
export function inScope(
	rule: ChaosRule,
	state: MockState,
	request: MockRequest,
	answer: MockAnswer,
): boolean {
	const { holder, refused, failed } = answer.logged;
	if (!holder || refused !== undefined || failed !== undefined || answer.status !== 200) {
		return false;
	}
	const query = URL.parse(request.target, 'http://mock.invalid')?.searchParams;
	const own = readControls(request.prefer, query ?? new URLSearchParams());
	if (!own.ok) return false;
	const { code, delay, fault, example } = own.controls;
	if (code !== undefined || delay !== undefined || fault !== undefined) return false;
	if (rule.view !== undefined && rule.view !== holder.slug && rule.view !== example) return false;
	return rule.person === undefined || holdersOf(state, rule.person).has(holder);
}

/**
 * What in a rule the state it is checked against does not have: a status the contract does not
 * declare for the users operation, a view the mock does not serve, a person who holds no key.
 */
export function chaosProblem(rule: ChaosRule, state: MockState): string | undefined {
	for (const outcome of rule.outcomes) {
		if (outcome.kind === 'code' && !declares(state, outcome.code)) {
			const codes = state.users.responses.map(({ code }) => code).join(', ');
			return `MOCK_CHAOS: code=${outcome.code} is not a status the contract declares for GET ${USERS_PATH}; it declares ${codes}`;
		}
	}
	if (rule.view !== undefined && !state.views.some(({ slug }) => slug === rule.view)) {
		return `MOCK_CHAOS: view=${rule.view} is no view the mock serves`;
	}
	if (rule.person !== undefined && holdersOf(state, rule.person).size === 0) {
		return "MOCK_CHAOS: the person= given holds no key in any view's directory";
	}
	return undefined;
}

/** An answer as the chaos serves it: a copy, with what it chose in its log line and its delivery. */
function served(
	answer: MockAnswer,
	logged: MockAnswer['logged'],
	pick: ChaosPick,
	seed: string | undefined,
): MockAnswer {
	const { line: _line, delivery: _delivery, ...rest } = answer;
	const changed: MockAnswer = { ...rest, logged: { ...logged, chaos: chaosServed(pick) } };
	if (pick.delay !== undefined || pick.fault) {
		changed.delivery = {
			delay: pick.delay === undefined ? undefined : { min: pick.delay, max: pick.delay },
			fault: pick.fault,
			// The bytes of `garbage` from the same seed too.
			seed: seed === undefined ? undefined : `${seed}#${pick.number}`,
		};
	}
	return changed;
}

/** The chaos of one mock process: its count of the requests in scope, and what it reported. */
export function createChaos(rule: ChaosRule) {
	let count = 0;
	let reported: string | undefined;

	/** The answer a request in scope gets, or the answer unchanged. */
	const serve = (
		request: MockRequest,
		answer: MockAnswer,
		state: MockState | undefined,
		redecide: (request: MockRequest) => MockAnswer | Promise<MockAnswer>,
	): MockAnswer | Promise<MockAnswer> => {
		if (!state || !inScope(rule, state, request, answer)) return answer;
		count += 1;
		const pick = pickChaos(rule, count);
		// A status the contract no longer declares (an edit since the start) is left out.
		if (pick.code !== undefined && !declares(state, pick.code)) pick.code = undefined;
		if (pick.delay === undefined && !pick.fault && pick.code === undefined) return answer;
		if (pick.code === undefined)
			return Promise.resolve(served(answer, answer.logged, pick, rule.seed));
		// The contract's answer for that status, as `Prefer: code=<status>` gets it.
		const other = redecide({ ...request, prefer: `code=${pick.code}` });
		return Promise.resolve(other).then((found) => served(found, answer.logged, pick, rule.seed));
	};

	return {
		/**
		 * The answer a request gets with the chaos: unchanged out of scope (a kept answer stays a
		 * lookup); a changed one is always a promise, so the server delivers it as it delivers a
		 * request's own delay or fault.
		 */
		apply: (
			request: MockRequest,
			decided: MockAnswer | Promise<MockAnswer>,
			state: () => MockState | undefined,
			redecide: (request: MockRequest) => MockAnswer | Promise<MockAnswer>,
		): MockAnswer | Promise<MockAnswer> =>
			decided instanceof Promise
				? decided.then((answer) => serve(request, answer, state(), redecide))
				: serve(request, decided, state(), redecide),
		/** What the state lacks that the rule names, when that is news since the last check. */
		check: (state: MockState): string | undefined => {
			const problem = chaosProblem(rule, state);
			const news = problem !== reported ? problem : undefined;
			reported = problem;
			return news;
		},
	};
}
