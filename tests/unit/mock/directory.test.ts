/** The directory the mock knows: which view a key opens, and which 401 everything else gets. */
import { beforeAll, describe, expect, it } from 'vitest';
import { answerFor, buildDirectory, findView, type Directory } from '../../../mock/directory.ts';
import { loadViews, type ViewEntry } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';

let views: ViewEntry[];
let directory: Directory;

beforeAll(async () => {
	views = await loadViews(readSettings({}).viewsDir);
	directory = buildDirectory(views);
});

describe('buildDirectory', () => {
	it('finds the view of every user key of every view', () => {
		expect(views.length).toBeGreaterThan(1);
		for (const { slug, view } of views) {
			for (const user of view.users) {
				expect(findView(directory, user.apiKey)).toBe(slug);
				expect(directory.holders.get(user.apiKey)).toEqual({
					slug,
					name: user.name,
					role: user.role,
				});
			}
		}
		expect(directory.holders.size).toBe(
			views.reduce((sum, { view }) => sum + view.users.length, 0),
		);
	});

	it("does not let the console's own key (config api_key) open a view", () => {
		for (const { view } of views) expect(findView(directory, view.config.api_key)).toBeUndefined();
	});

	it('refuses a key listed in two views, naming both', () => {
		const [first, second] = views;
		if (!first || !second) throw new Error('expected at least two views');
		const shared = first.view.users[0]?.apiKey ?? '';
		const clash = {
			slug: second.slug,
			view: {
				...second.view,
				users: second.view.users.map((user, index) =>
					index === 0 ? { ...user, apiKey: shared } : user,
				),
			},
		};
		expect(() => buildDirectory([first, clash])).toThrow(
			new RegExp(`${shared}.*${first.slug}.*${second.slug}`),
		);
	});

	it('leaves a key repeated in one view to the view schema: it is no clash between views', () => {
		const [first] = views;
		if (!first) throw new Error('expected a view');
		const [one, two] = first.view.users;
		if (!one || !two) throw new Error('expected two users');
		const repeated = {
			slug: first.slug,
			view: { ...first.view, users: [one, { ...two, apiKey: one.apiKey }] },
		};
		const built = buildDirectory([repeated]);
		expect(built.holders.size).toBe(1);
		expect(built.holders.get(one.apiKey)).toEqual({
			slug: first.slug,
			name: two.name,
			role: two.role,
		});
	});
});

describe('answerFor', () => {
	it('answers a directory key, with the scheme word in any case, with its view and user', () => {
		for (const { slug, view } of views) {
			const user = view.users.at(-1);
			const key = user?.apiKey ?? '';
			const holder = { slug, name: user?.name, role: user?.role };
			expect(answerFor(`Bearer ${key}`, directory)).toEqual({ status: 200, holder });
			expect(answerFor(`bearer ${key}`, directory)).toEqual({ status: 200, holder });
		}
	});

	it.each<[string, string | undefined, RegExp]>([
		['no Authorization header', undefined, /^no Authorization header$/],
		['an empty header', '', /empty Authorization header/],
		['a blank header', '   ', /empty Authorization header/],
		['another scheme', 'Basic dXNlcjpwYXNz', /scheme is "Basic"/],
		['a key with no scheme word', 'ick-4f1c9a07-Qx7m', /does not start with "Bearer "/],
	])(
		'asks for bearer credentials, with no error code (401 missing-key), given %s',
		(_case, header, reason) => {
			const answer = answerFor(header, directory);
			expect(answer).toMatchObject({ status: 401, challenge: 'missing-key' });
			expect(answer.status === 401 && answer.reason).toMatch(reason);
		},
	);

	it('never repeats a key-shaped scheme word in its reason', () => {
		const key = views[0]?.view.users[0]?.apiKey ?? '';
		const answer = answerFor(key, directory);
		expect(JSON.stringify(answer)).not.toContain(key);
	});

	it.each<[string, string, RegExp]>([
		['Bearer with no token', 'Bearer', /no token after "Bearer"/],
		['a token with a space in it', 'Bearer ick-4f1c9a07-Qx7m more', /not "Bearer <token>"/],
		['a quoted token', 'Bearer "ick-4f1c9a07-Qx7m"', /not "Bearer <token>"/],
		['two headers joined', 'Bearer a, Bearer b', /not "Bearer <token>"/],
		['a first word that is no scheme', '(Bearer ick-4f1c9a07-Qx7m', /not "Bearer <token>"/],
	])('refuses malformed bearer credentials as 400 invalid-request: %s', (_case, header, reason) => {
		const answer = answerFor(header, directory);
		expect(answer).toMatchObject({ status: 400, challenge: 'invalid-request' });
		expect(answer.status === 400 && answer.reason).toMatch(reason);
	});

	it('refuses a well-formed token that opens no directory as 401, naming what it was', () => {
		const [first] = views;
		const configKey = first?.view.config.api_key ?? '';
		const cases: [string, string, RegExp][] = [
			[`Bearer ${configKey}`, 'console-key', new RegExp(`console's own key of ${first?.slug}`)],
			['Bearer ick-00000000-AAAA', 'invalid-key', /no view's directory/],
			['Bearer abc-4f1c9a07-Qx7m', 'wrong-shape', /prefix/],
			['Bearer not-a-key', 'wrong-shape', /expected a key shaped/],
			[`Bearer ${configKey}${'x'.repeat(300)}`, 'wrong-shape', /longer than a key/],
		];
		for (const [header, challenge, reason] of cases) {
			const answer = answerFor(header, directory);
			expect(answer, header).toMatchObject({ status: 401, challenge });
			expect(answer.status === 401 && answer.reason, header).toMatch(reason);
		}
	});

	it('knows every view’s own key as a console key, and a directory key wins over it', () => {
		for (const { slug, view } of views) {
			expect(directory.consoleKeys.get(view.config.api_key)).toBe(slug);
		}
		const [first, second] = views;
		if (!first || !second) throw new Error('expected two views');
		const shared = second.view.users[0]?.apiKey ?? '';
		const clash = {
			...first,
			view: { ...first.view, config: { ...first.view.config, api_key: shared } },
		};
		const answer = answerFor(`Bearer ${shared}`, buildDirectory([clash, second]));
		expect(answer).toMatchObject({ status: 200, holder: { slug: second.slug } });
	});
});
