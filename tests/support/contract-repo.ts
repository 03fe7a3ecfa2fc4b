/**
 * The scripted history the contract changelog tests build from: a repository holding a copy of
 * openapi.yaml and of the view fixtures, then three commits to the contract by three authors: a
 * documentation change, a non-breaking change (a 429 answer added to GET) and a breaking one
 * (`email` no longer required of a listed user), each a day apart; on request, then two commits
 * of documentation only (examples, then a description).
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { createRepo, type ScriptedRepo } from '../../support/git-repo.ts';
import { ROOT } from '../../support/processes.ts';

/** One scripted commit: who, when, what it says, and its names once made. */
export interface ContractCommitMade {
	author: string;
	date: string;
	subject: string;
	hash: string;
	short: string;
}

/** An edit of the contract's YAML text, kept with its comments. */
export type ContractEdit = (text: string) => string;

/** Sets a value at a path of the YAML document, keeping the rest of the text as written. */
function setIn(text: string, where: readonly (string | number)[], value: unknown): string {
	const document = parseDocument(text);
	document.setIn(where, value);
	return document.toString();
}

/** A change only readers notice: GET's summary reworded. */
export const documentationEdit: ContractEdit = (text) =>
	setIn(text, ['paths', '/api/v2/users', 'get', 'summary'], "List the users of a view's directory");

/** A non-breaking change: GET may now answer 429. */
export const nonBreakingEdit: ContractEdit = (text) =>
	setIn(text, ['paths', '/api/v2/users', 'get', 'responses', '429'], {
		description: 'Too many requests from this key; try again later.',
	});

/** A breaking change: a listed user's email is no longer required, so clients may not get one. */
export const breakingEdit: ContractEdit = (text) =>
	setIn(text, ['components', 'schemas', 'User', 'required'], ['name', 'role']);

/** A change to examples only: the CORS header's example and the preflight's Origin example. */
export const exampleEdit: ContractEdit = (text) =>
	setIn(
		setIn(
			text,
			['components', 'headers', 'AccessControlAllowOrigin', 'example'],
			'http://localhost:4321',
		),
		['paths', '/api/v2/users', 'options', 'parameters', 0, 'example'],
		'http://localhost:4321',
	);

/** A change to a description only: GET described anew. */
export const descriptionEdit: ContractEdit = (text) =>
	setIn(
		text,
		['paths', '/api/v2/users', 'get', 'description'],
		'Returns the users of the directory that holds the bearer key, in directory order.',
	);

/** The repository and what was done in it. */
export interface ContractRepo {
	repo: ScriptedRepo;
	/** The contract file inside the repository. */
	contract: string;
	/** The views folder inside the repository. */
	views: string;
	/** The commits, oldest first: the first adds the copies, the others edit the contract. */
	commits: ContractCommitMade[];
}

/**
 * Makes the scripted repository in `folder`; with `documentation`, two commits of documentation
 * only follow the breaking one: examples changed (day 5), then a description (day 6). `views`
 * names the fixtures copied beside the contract (file names of content/views; all by default).
 */
export async function makeContractRepo(
	folder: string,
	{
		documentation = false,
		views: only,
	}: { documentation?: boolean; views?: readonly string[] } = {},
): Promise<ContractRepo> {
	const repo = await createRepo(folder);
	const contract = path.join(folder, 'openapi.yaml');
	const views = path.join(folder, 'content', 'views');
	const commits: ContractCommitMade[] = [];
	const commit = (author: string, day: number, subject: string): void => {
		const date = `2026-09-0${day}T10:00:00.000Z`;
		const hash = repo.commit(subject, { author, date });
		const short = repo.git(['rev-parse', '--short', hash]).trim();
		commits.push({ author, date, subject, hash, short });
	};
	const edit = async (change: ContractEdit): Promise<void> => {
		await writeFile(contract, change(await readFile(contract, 'utf8')));
	};
	await cp(path.join(ROOT, 'openapi.yaml'), contract);
	await cp(path.join(ROOT, 'content/views'), views, {
		recursive: true,
		filter: (source) =>
			!only || source === path.join(ROOT, 'content/views') || only.includes(path.basename(source)),
	});
	commit('Ada Lovelace', 1, 'Add the contract and the views');
	await edit(documentationEdit);
	commit('Grace Hopper', 2, "Reword GET's summary");
	await edit(nonBreakingEdit);
	commit('Alan Turing', 3, 'GET may answer 429');
	await edit(breakingEdit);
	commit('Barbara Liskov', 4, 'A listed user may come without an email');
	if (documentation) {
		await edit(exampleEdit);
		commit('Edsger Dijkstra', 5, 'Examples from a portal on port 4321');
		await edit(descriptionEdit);
		commit('Frances Allen', 6, 'Describe GET anew');
	}
	return { repo, contract, views, commits };
}
