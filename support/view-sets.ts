/**
 * Synthetic view fixtures for the build-scale, search and mock benchmarks: `count` valid, unique
 * views, the same for the same count and seed. Every set is checked with the real view schema and
 * the cross-fixture rules before it is written, so a benchmark never measures a build that fails.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatProblems, parseFixtureSources, type ViewEntry } from '../src/sources/fixtures.ts';
import { KEY_PREFIX } from '../src/schemas/key.ts';
import { DOCUMENTATION_RANGES } from '../src/schemas/address.ts';
import { createRepo } from './git-repo.ts';
import { CONFIG_MEMBERS, ROLES, viewSchema, type View } from '../src/schemas/view.ts';

/**
 * The environments a generated set spreads over, about as many as a real console has. Each view
 * of an environment gets its own configuration label, so environment/configuration pairs (and
 * the names made of them) are unique.
 */
const ENVIRONMENTS = [
	'production-us-east',
	'production-us-west',
	'production-eu-west',
	'production-eu-central',
	'production-ap-south',
	'production-ap-northeast',
	'staging-us-east',
	'staging-eu-west',
	'staging-ap-south',
	'dr-us-west',
	'dr-eu-central',
	'dr-ap-northeast',
	'qa-us-east',
	'qa-eu-west',
	'preview-us-east',
	'preview-eu-west',
	'sandbox-us-west',
	'sandbox-eu-central',
	'perf-us-east',
	'demo-eu-west',
] as const;
/** The configuration labels of an environment's first views; later ones are numbered. */
const BASE_CONFIGURATIONS = ['Production', 'Edge', 'Staging', 'DR', 'Canary'] as const;
/** The people of one environment's team, who fill most of its directories. */
const TEAM_SIZE = 20;
/** People on call across every environment, who turn up in directories everywhere. */
const ON_CALL = 6;
const API_LABELS = ['v2.5', 'v3.1', 'v4.2', 'v5.3', 'v5.8', undefined] as const;
const FIRST_NAMES = [
	'Amara',
	'Priya',
	'Hannah',
	'Fatima',
	'Lukas',
	'Mateo',
	'Kenji',
	'Owen',
	'Sofia',
	'Tariq',
	'Ingrid',
	'Diego',
	'Mei',
	'Kwame',
	'Elena',
	'Ravi',
] as const;
const LAST_NAMES = [
	'Okafor',
	'Raman',
	'Lindqvist',
	'Idrissi',
	'Brandt',
	'Alvarez',
	'Watanabe',
	'Gallagher',
	'Rossi',
	'Haddad',
	'Nilsen',
	'Moreno',
	'Chen',
	'Mensah',
	'Petrova',
	'Iyer',
] as const;
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HOSTS_PER_RANGE = 254;
const START = Date.UTC(2026, 0, 1);

/** A small seeded random source (mulberry32), so a set is the same on every run. */
function randomSource(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The `n`-th key of a set: the hex part is a bijection of `n`, so no key repeats. */
function keyAt(n: number, random: () => number): string {
	const hex = (Math.imul(n + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0');
	return `${KEY_PREFIX}-${hex}-${text(4, random)}`;
}

/** `length` random letters and digits. */
function text(length: number, random: () => number): string {
	let out = '';
	for (let i = 0; i < length; i++) out += ALPHANUMERIC[Math.floor(random() * ALPHANUMERIC.length)];
	return out;
}

/** Picks one item of a non-empty list (an item may itself be `undefined`: no label). */
function pick<T>(items: readonly [T, ...T[]], random: () => number): T {
	return items[Math.floor(random() * items.length)] ?? items[0];
}

/** The configuration label of the `ordinal`-th view of an environment: none for the first. */
function configurationAt(ordinal: number): string | undefined {
	if (ordinal === 0) return undefined;
	const base = BASE_CONFIGURATIONS[(ordinal - 1) % BASE_CONFIGURATIONS.length] ?? 'Edge';
	const round = Math.floor((ordinal - 1) / BASE_CONFIGURATIONS.length);
	return round === 0 ? base : `${base} ${round + 1}`;
}

/** A person by number: the same number is the same name and email in every view. */
function person(id: number): { name: string; email: string } {
	const first = FIRST_NAMES[id % FIRST_NAMES.length] ?? 'Amara';
	const last = LAST_NAMES[Math.floor(id / FIRST_NAMES.length) % LAST_NAMES.length] ?? 'Okafor';
	return { name: `${first} ${last}`, email: `${first}.${last}.${id}@example.com`.toLowerCase() };
}

/**
 * The eight people of a view's directory, by number: mostly its environment's team, sometimes
 * someone on call, drawn without repeats. Directories overlap as in a real console: the same
 * person is in several views, with a key of their own in each, and their role follows the
 * position they are drawn in, so it sometimes differs from one view to the next.
 */
function directoryPeople(environment: number, random: () => number): number[] {
	const pool = [
		...Array.from({ length: TEAM_SIZE }, (_, member) => ON_CALL + environment * TEAM_SIZE + member),
		...Array.from({ length: ON_CALL }, (_, member) => member),
	];
	const drawn: number[] = [];
	while (drawn.length < 8) {
		const [id] = pool.splice(Math.floor(random() * pool.length), 1);
		if (id !== undefined) drawn.push(id);
	}
	return drawn;
}

/**
 * Who fills a generated set's directories: `teams`, each environment's team and a few people on
 * call, met in many views; `distinct`, eight people of their own in every view, as in a large
 * organisation (2,000 views, 16,000 people, each with a page); or `distinct-with-on-call`, six
 * people of their own in every view and two of the six people on call, who are in hundreds.
 */
export type PeopleMix = 'teams' | 'distinct' | 'distinct-with-on-call';

/** The eight people of the `index`-th view when views have people of their own. */
function distinctPeople(index: number, onCall: boolean, random: () => number): number[] {
	const first = ON_CALL + ENVIRONMENTS.length * TEAM_SIZE;
	const own = Array.from({ length: onCall ? 6 : 8 }, (_, position) => first + index * 8 + position);
	if (!onCall) return own;
	const pool = Array.from({ length: ON_CALL }, (_, member) => member);
	const [one = 0] = pool.splice(Math.floor(random() * pool.length), 1);
	const [two = 1] = pool.splice(Math.floor(random() * pool.length), 1);
	return [...own, one, two];
}

/**
 * The `index`-th view of a set: a slug and a fixture that the view schema accepts. Views spread
 * over the first `environments` environments (all 20 by default), in turn.
 */
export function syntheticView(
	index: number,
	random: () => number,
	people: PeopleMix = 'teams',
	environments: number = ENVIRONMENTS.length,
): { slug: string; view: View } {
	const environmentIndex = index % environments;
	const environment = ENVIRONMENTS[environmentIndex] ?? 'production-us-east';
	const configuration = configurationAt(Math.floor(index / environments));
	const slug = configuration
		? `${environment}-${configuration.toLowerCase().replace(/ /g, '-')}`
		: environment;
	const apiVersion = pick(API_LABELS, random);
	const range = DOCUMENTATION_RANGES[index % DOCUMENTATION_RANGES.length];
	const host = 1 + (Math.floor(index / DOCUMENTATION_RANGES.length) % HOSTS_PER_RANGE);
	const port = 1000 + (Math.floor(index / (DOCUMENTATION_RANGES.length * HOSTS_PER_RANGE)) % 9000);
	const lastUpdated = START + index * 60_000 + Math.floor(random() * 59_000);
	const generatedAt = lastUpdated + 1000 + Math.floor(random() * 3_600_000);
	const config: Record<(typeof CONFIG_MEMBERS)[number], string> = {
		database_url: `postgresql://console_app@db.${environment}.example:5432/console_${index}`,
		redis_url: `redis://:${text(20, random)}@cache.${environment}.example:6379/0`,
		api_key: keyAt(index * 9 + 8, random),
		secret_key: `fake-session-${text(32, random)}`,
		jwt_secret: `fake-jwt-${text(40, random)}`,
		smtp_password: `fake-smtp-${text(12, random)}`,
		payment_secret: `fake-pay-${text(24, random)}`,
		cloud_access_key: `FAKECLOUD${text(11, random).toUpperCase()}`,
		cloud_secret_key: `fake-cloud-secret-${text(32, random)}`,
	};
	const drawn =
		people === 'teams'
			? directoryPeople(environmentIndex, random)
			: distinctPeople(index, people === 'distinct-with-on-call', random);
	const users = drawn.map((id, position) => ({
		...person(id),
		role: ROLES[position % ROLES.length] ?? 'viewer',
		apiKey: keyAt(index * 9 + position, random),
	}));
	const revenue = (0.5 + random() * 9).toFixed(2);
	const growth = (random() * 30 - 5).toFixed(1);
	const view: View = {
		environment,
		...(configuration ? { configuration } : {}),
		...(apiVersion ? { apiVersion } : {}),
		lastUpdated: new Date(lastUpdated).toISOString(),
		generatedAt: new Date(generatedAt).toISOString(),
		baseUrl: `http://${range}${host}:${port}`,
		config,
		users,
		statusNote: `Synthetic view ${index}: revenue for the month closed at $${revenue}M, ${growth}% year over year.`,
	};
	return { slug, view };
}

/**
 * `count` synthetic views over the first `environments` environments (at most 20), validated as
 * one fixture set; throws with every problem otherwise.
 */
export function generateViews(
	count: number,
	seed = 6,
	people: PeopleMix = 'teams',
	environments: number = ENVIRONMENTS.length,
): ViewEntry[] {
	if (!Number.isInteger(environments) || environments < 1 || environments > ENVIRONMENTS.length)
		throw new Error(`environments: expected a whole number from 1 to ${ENVIRONMENTS.length}`);
	const random = randomSource(seed);
	const sources = Array.from({ length: count }, (_, index) => {
		const { slug, view } = syntheticView(index, random, people, environments);
		return { file: `${slug}.json`, text: `${JSON.stringify(view, null, '\t')}\n` };
	});
	const result = parseFixtureSources(sources);
	if (!result.ok) throw new Error(formatProblems(result.problems));
	return result.views;
}

/** Writes a generated set into `folder` (emptied first), over the first `environments`. */
export async function writeViewSet(
	folder: string,
	count: number,
	people: PeopleMix = 'teams',
	environments: number = ENVIRONMENTS.length,
): Promise<ViewEntry[]> {
	const views = generateViews(count, 6, people, environments);
	await rm(folder, { recursive: true, force: true });
	await mkdir(folder, { recursive: true });
	for (const { slug, view } of views) {
		await writeFile(path.join(folder, `${slug}.json`), `${JSON.stringify(view, null, '\t')}\n`);
	}
	return views;
}

/** What `writeViewHistory` made. */
export interface ViewHistory {
	/** The repository's folder. */
	repo: string;
	/** The views folder inside it. */
	views: string;
	/** How many commits were made, the first (every view added) included. */
	commits: number;
	/** The tags made, oldest first. */
	tags: string[];
	/** How many changes of each kind the commits after the first made. */
	made: Record<string, number>;
}

/** The people who commit to a generated history. */
const COMMITTERS = ['Ada Lovelace', 'Bo Brennan', 'Cy Castillo', 'Di Dimitrova', 'Ed Ekwueme'];

/** A new value for a configuration member, of its member's shape. */
function rotatedValue(
	member: (typeof CONFIG_MEMBERS)[number],
	view: View,
	nextKey: () => string,
	random: () => number,
): string {
	switch (member) {
		case 'database_url':
			return `postgresql://console_app@db.${view.environment}.example:5432/console_${text(6, random).toLowerCase()}`;
		case 'redis_url':
			return `redis://:${text(20, random)}@cache.${view.environment}.example:6379/0`;
		case 'api_key':
			return nextKey();
		case 'cloud_access_key':
			return `FAKECLOUD${text(11, random).toUpperCase()}`;
		default:
			return `fake-${member.replace(/_/g, '-')}-${text(24, random)}`;
	}
}

/**
 * A generated view set with a git history: `count` views added in a first commit, then
 * `commits - 1` commits of the changes a console sees, two to five each: two people of a view
 * trading roles (a promotion), keys rotated, a configuration member rotated, a person moving to
 * another view of the same environment, a person leaving for a new hire, a name corrected in every
 * view, a status note rewritten, now and then a fixture renamed; a tag every 100 commits. Every
 * view is checked with the view schema after each change, and keys stay unique in the set, so
 * every commit is a set the portal builds. The same count, commits and seed give the same history.
 */
export async function writeViewHistory(
	folder: string,
	count: number,
	commits: number,
	seed = 6,
): Promise<ViewHistory> {
	await rm(folder, { recursive: true, force: true });
	const repo = await createRepo(folder);
	const views = path.join(folder, 'content', 'views');
	await writeViewSet(views, count);
	const state = new Map<string, View>(generateViews(count).map(({ slug, view }) => [slug, view]));
	const random = randomSource(seed + 1);
	let keys = count * 9 + 100;
	const nextKey = (): string => keyAt(keys++, random);
	let hires = 100_000;
	let moment = START + count * 60_000 + 86_400_000;
	const author = (n: number): string => COMMITTERS[n % COMMITTERS.length] ?? 'Ada Lovelace';
	const date = (): string => new Date(moment).toISOString();
	repo.commit(`Add ${count} views`, { author: author(0), date: date() });
	const made: Record<string, number> = {};
	const tags: string[] = [];
	const slugs = (): string[] => [...state.keys()];
	const anyView = (): [string, View] => {
		const slug = pick(slugs() as [string, ...string[]], random);
		const view = state.get(slug);
		if (!view) throw new Error(`No view ${slug}`);
		return [slug, view];
	};
	const changed = new Map<string, string | undefined>();
	const save = (slug: string, view: View): void => {
		const checked = viewSchema.safeParse(view);
		if (!checked.success) throw new Error(`${slug}: ${checked.error.message}`);
		state.set(slug, view);
		changed.set(slug, undefined);
	};
	const count1 = (kind: string): void => {
		made[kind] = (made[kind] ?? 0) + 1;
	};
	// Each change with its weight: rotations, promotions and moves are common, renamings rare.
	const changes: [number, () => void][] = [
		// Two people of a view trade roles: one promoted, one stepping down.
		[
			3,
			() => {
				const [slug, view] = anyView();
				const a = Math.floor(random() * 8);
				const b = view.users.findIndex(
					(user, index) => index !== a && user.role !== view.users[a]?.role,
				);
				const first = view.users[a];
				const second = view.users[b];
				if (!first || !second) return;
				[first.role, second.role] = [second.role, first.role];
				save(slug, view);
				count1('role changed');
			},
		],
		// One to three keys rotated.
		[
			4,
			() => {
				const [slug, view] = anyView();
				for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
					const user = view.users[Math.floor(random() * 8)];
					if (user) user.apiKey = nextKey();
				}
				save(slug, view);
				count1('key rotated');
			},
		],
		// A configuration member rotated.
		[
			2,
			() => {
				const [slug, view] = anyView();
				const member = pick(CONFIG_MEMBERS, random);
				view.config[member] = rotatedValue(member, view, nextKey, random);
				save(slug, view);
				count1('configuration rotated');
			},
		],
		// A person moves to another view of the same environment, in the place of someone of their role.
		[
			3,
			() => {
				const [fromSlug, from] = anyView();
				const same = slugs().filter(
					(slug) => slug !== fromSlug && state.get(slug)?.environment === from.environment,
				);
				const toSlug = same[Math.floor(random() * same.length)];
				const to = toSlug === undefined ? undefined : state.get(toSlug);
				const index = Math.floor(random() * 8);
				const mover = from.users[index];
				if (!to || toSlug === undefined || !mover) return;
				if (to.users.some((user) => user.email === mover.email)) return;
				const place = to.users.findIndex((user) => user.role === mover.role);
				const hire = person(hires++);
				from.users[index] = { ...hire, role: mover.role, apiKey: nextKey() };
				to.users[place] = { ...mover, apiKey: nextKey() };
				save(fromSlug, from);
				save(toSlug, to);
				count1('person moved');
			},
		],
		// A person leaves a view; a new hire takes their role.
		[
			2,
			() => {
				const [slug, view] = anyView();
				const index = Math.floor(random() * 8);
				const leaving = view.users[index];
				if (!leaving) return;
				view.users[index] = { ...person(hires++), role: leaving.role, apiKey: nextKey() };
				save(slug, view);
				count1('person replaced');
			},
		],
		// A name corrected in every view the person is in.
		[
			1,
			() => {
				const [, view] = anyView();
				const target = view.users[Math.floor(random() * 8)];
				if (!target) return;
				const email = target.email;
				const name = `${target.name.split(' ')[0] ?? 'A.'} ${pick(LAST_NAMES, random)}-${pick(LAST_NAMES, random)}`;
				for (const [slug, each] of state) {
					const user = each.users.find((candidate) => candidate.email === email);
					if (!user) continue;
					user.name = name;
					save(slug, each);
				}
				count1('name changed');
			},
		],
		// A status note rewritten.
		[
			1,
			() => {
				const [slug, view] = anyView();
				view.statusNote = `Revenue for the month closed at $${(0.5 + random() * 9).toFixed(2)}M.`;
				save(slug, view);
				count1('status note changed');
			},
		],
	];
	for (let number = 1; number < commits; number++) {
		moment += 3_600_000 + Math.floor(random() * 40 * 3_600_000);
		changed.clear();
		const total = changes.reduce((sum, [weight]) => sum + weight, 0);
		for (let n = 2 + Math.floor(random() * 4); n > 0; n--) {
			let draw = random() * total;
			const change = changes.find(([weight]) => (draw -= weight) < 0) ?? changes[0];
			change?.[1]();
		}
		// Now and then a fixture is renamed, its history going with it.
		if (random() < 0.02) {
			const [slug, view] = anyView();
			const renamed = `${slug.slice(0, 55).replace(/-+$/, '')}-r${number}`;
			if (!state.has(renamed)) {
				state.delete(slug);
				state.set(renamed, view);
				changed.delete(slug);
				await rename(path.join(views, `${slug}.json`), path.join(views, `${renamed}.json`));
				changed.set(renamed, undefined);
				count1('view renamed');
			}
		}
		for (const slug of changed.keys()) {
			const view = state.get(slug);
			if (!view) continue;
			view.lastUpdated = date();
			view.generatedAt = new Date(moment + 60_000).toISOString();
			await writeFile(path.join(views, `${slug}.json`), `${JSON.stringify(view, null, '\t')}\n`);
		}
		repo.commit(`Access review ${number}: ${changed.size} views changed`, {
			author: author(number),
			date: date(),
		});
		if (number % 100 === 0) {
			const tag = `review-${number / 100}`;
			repo.tag(tag, `Access review ${number / 100}`);
			tags.push(tag);
		}
	}
	const final = parseFixtureSources(
		[...state].map(([slug, view]) => ({ file: `${slug}.json`, text: JSON.stringify(view) })),
	);
	if (!final.ok) throw new Error(formatProblems(final.problems));
	return { repo: folder, views, commits, tags, made };
}
