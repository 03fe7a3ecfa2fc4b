/**
 * The scripted history the history tests build from: a repository whose views folder goes
 * through seven commits by seven authors (a view added, a person put in another's place, two
 * roles changed, a tag, a key and a configuration member rotated, the fixture moved, a person
 * removed for another, a second tag, a second view added), with every value any version held, so
 * a test can look for each of them in the built site.
 */
import { cp, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRepo, type ScriptedRepo } from '../../support/git-repo.ts';
import { ROOT } from '../../support/processes.ts';
import { CONFIG_MEMBERS, type View } from '../../src/schemas/view.ts';

/** One scripted commit: who, when, what it says, and its full name once made. */
export interface ScriptedCommit {
	author: string;
	date: string;
	subject: string;
	hash: string;
	short: string;
}

/** The repository and what was done in it. */
export interface HistoryRepo {
	repo: ScriptedRepo;
	/** The views folder inside the repository. */
	views: string;
	/** The commits, oldest first. */
	commits: ScriptedCommit[];
	/** The production fixture as first committed, and the staging one. */
	production: View;
	staging: View;
	/** Every key and configuration value any version of any fixture held. */
	secrets: Set<string>;
	/** Those the fixtures hold at the last commit, by slug. */
	current: Map<string, Set<string>>;
}

/** Every key and configuration value of a view, the redis password apart too. */
export function secretValues(view: View): string[] {
	return [
		...CONFIG_MEMBERS.map((member) => view.config[member]),
		new URL(view.config.redis_url).password,
		...view.users.map(({ apiKey }) => apiKey),
	];
}

/** A user of a view, which must be there. */
function userAt(view: View, index: number): View['users'][number] {
	const user = view.users[index];
	if (!user) throw new Error(`No user ${index}`);
	return user;
}

/** Makes the scripted repository in `folder`. */
export async function makeHistoryRepo(folder: string): Promise<HistoryRepo> {
	const repo = await createRepo(folder);
	const views = path.join(folder, 'content', 'views');
	const read = async (file: string): Promise<View> =>
		JSON.parse(await readFile(path.join(ROOT, 'content/views', file), 'utf8')) as View;
	const production = await read('production.json');
	const staging = await read('staging-us-east.json');
	const secrets = new Set<string>();
	const commits: ScriptedCommit[] = [];
	let slug = 'production';
	const save = async (view: View): Promise<void> => {
		for (const secret of secretValues(view)) secrets.add(secret);
		await writeFile(path.join(views, `${slug}.json`), `${JSON.stringify(view, null, 2)}\n`);
	};
	const commit = (author: string, day: number, subject: string): void => {
		const date = `2026-10-0${day}T09:00:00.000Z`;
		const hash = repo.commit(subject, { author, date });
		const short = repo.git(['rev-parse', '--short', hash]).trim();
		commits.push({ author, date, subject, hash, short });
	};

	await cp(path.join(ROOT, 'content/views/production.json'), path.join(views, 'production.json'));
	for (const secret of secretValues(production)) secrets.add(secret);
	commit('Ada Lovelace', 1, 'Add the production view');

	const current = structuredClone(production);
	current.users[7] = {
		name: 'Rosa Jiménez',
		email: 'rosa.jimenez@example.com',
		role: 'viewer',
		apiKey: 'ick-a1a1a1a1-Rosa',
	};
	await save(current);
	commit('Bo Brennan', 2, "Give Rosa Jiménez Owen's place");

	userAt(current, 1).role = 'admin';
	userAt(current, 4).role = 'deployer';
	await save(current);
	commit('Cy Castillo', 3, 'Promote Priya, step Lukas down');
	repo.tag('v1.0', 'First access review');

	userAt(current, 2).apiKey = 'ick-b2b2b2b2-Hann';
	current.config.jwt_secret = 'fake-jwt-rotated-c4a7f9e2b1d04e6a8c3f';
	await save(current);
	commit('Di Dimitrova', 4, "Rotate Hannah's key and the JWT secret");

	await rename(path.join(views, 'production.json'), path.join(views, 'production-main.json'));
	slug = 'production-main';
	commit('Ed Ekwueme', 5, 'Move production to production-main');

	current.users[7] = {
		name: 'Sam Okoye',
		email: 'sam.okoye@example.com',
		role: 'viewer',
		apiKey: 'ick-c3c3c3c3-SamO',
	};
	await save(current);
	commit('Fay Fontaine', 6, 'Remove Rosa Jiménez, add Sam Okoye');
	repo.tag('v2.0');

	await cp(
		path.join(ROOT, 'content/views/staging-us-east.json'),
		path.join(views, 'staging-us-east.json'),
	);
	for (const secret of secretValues(staging)) secrets.add(secret);
	commit('Gus Gallo', 7, 'Add the staging view');

	return {
		repo,
		views,
		commits,
		production,
		staging,
		secrets,
		current: new Map([
			['production-main', new Set(secretValues(current))],
			['staging-us-east', new Set(secretValues(staging))],
		]),
	};
}
