/**
 * A git repository scripted by tests and benchmarks: commits with a given author and date, tags,
 * file moves. Git runs without the user's or the system's configuration, so no signing, hook or
 * template of the machine changes what is made, and the same script gives the same history.
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';

/** Who made a commit and when (ISO 8601). */
export interface CommitBy {
	author: string;
	email?: string;
	date: string;
}

/** A repository made by `createRepo`. */
export interface ScriptedRepo {
	/** The repository's folder. */
	folder: string;
	/** Runs git in the repository and gives what it printed. */
	git: (args: readonly string[], env?: NodeJS.ProcessEnv) => string;
	/** Stages everything and commits it; gives the commit's full name. */
	commit: (subject: string, by: CommitBy) => string;
	/** Tags the last commit (a lightweight tag, or an annotated one with a message). */
	tag: (name: string, message?: string) => void;
}

/** The environment git runs in: no configuration of the machine, no GIT_DIR from a hook. */
export function gitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		GIT_CONFIG_NOSYSTEM: '1',
		GIT_CONFIG_GLOBAL: '/dev/null',
		GIT_TERMINAL_PROMPT: '0',
		...extra,
	};
	for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[name];
	return env;
}

/** Makes an empty repository on branch main in `folder`. */
export async function createRepo(folder: string): Promise<ScriptedRepo> {
	await mkdir(folder, { recursive: true });
	const git = (args: readonly string[], env: NodeJS.ProcessEnv = {}): string =>
		execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], {
			cwd: folder,
			env: gitEnv(env),
			encoding: 'utf8',
			maxBuffer: 256 * 1024 * 1024,
		});
	git(['init', '--quiet', '--initial-branch=main']);
	let last = '';
	return {
		folder,
		git,
		commit: (subject, { author, email, date }) => {
			const address = email ?? `${author.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`;
			git(['add', '--all']);
			git(['commit', '--quiet', '--allow-empty', '--no-verify', '-m', subject], {
				GIT_AUTHOR_NAME: author,
				GIT_AUTHOR_EMAIL: address,
				GIT_AUTHOR_DATE: date,
				GIT_COMMITTER_NAME: author,
				GIT_COMMITTER_EMAIL: address,
				GIT_COMMITTER_DATE: date,
			});
			last = git(['rev-parse', 'HEAD']).trim();
			return last;
		},
		tag: (name, message) => {
			const by = { GIT_COMMITTER_NAME: 'Tagger', GIT_COMMITTER_EMAIL: 'tagger@example.com' };
			if (message) git(['tag', '-a', name, '-m', message, last], by);
			else git(['tag', name, last], by);
		},
	};
}
