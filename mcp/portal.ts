/**
 * What the MCP server answers from: the portal as its sources are now, projected without secrets.
 * `projectPortal` is pure: views become `PublicView`s (no key, no configuration value), people are
 * built from the directories (names, emails, roles), the contract is composed as the build
 * publishes it (its examples list users without keys). `createPortalReader` reads the sources
 * through `src/sources/` on each call, incrementally as the mock does, so the answers follow edits.
 * Only `call_mock` reaches the fixtures themselves, through `entries`, to send a person's key.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { hash } from 'node:crypto';
import path from 'node:path';
import type { ApiReference } from '../src/sources/openapi.ts';
import type { GuideSource } from '../src/sources/guides.ts';
import { checkoutFixtureCache } from '../src/sources/fixture-cache.ts';
import { createFixtureReader, printable, type ViewEntry } from '../src/sources/fixtures.ts';
import type { PortalSettings } from '../src/sources/settings.ts';
import { git, historyStatusOf, type HistoryStatus } from '../src/sources/git.ts';
import { viewHosts, type ViewHosts } from '../src/shared/hosts.ts';
import { compareViews } from '../src/shared/views.ts';
import { localMockUrl, shownMockUrl } from '../src/shared/urls.ts';
import { publicView, type PublicView } from '../src/site/public-view.ts';
import { buildPeople, type Person } from '../src/site/people.ts';
import { mockWords, type MockWords } from '../src/site/mock-place.ts';
import {
	buildHistory,
	isAccessChange,
	newestFirst,
	type HistoryEntry,
} from '../src/site/history.ts';
import type { ContractChangesPage } from '../src/site/markdown/contract-changes.ts';
import { portalOrigins } from './places.ts';
import { ToolInputError } from './tool-names.ts';

export { ToolInputError };

/**
 * The views and the people of the portal without secrets: what `list_views` and `who_holds` answer
 * from, read from the fixtures alone (no contract, no guides).
 */
export interface PortalDirectory {
	/** Every view without keys and configuration, in the order the pages list them. */
	views: readonly PublicView[];
	/** Each view's hosts by slug, as its page shows them: no user name, no password. */
	hosts: Readonly<Record<string, ViewHosts>>;
	/** Every person of every directory, in name order. */
	people: readonly Person[];
}

/** The portal without secrets, as one reading of its sources gives it. */
export interface PortalSnapshot extends PortalDirectory {
	/** The guides, in the sidebar's order. */
	guides: readonly GuideSource[];
	/** The published contract (openapi.yaml with one example per view, keyless). */
	contract: Record<string, unknown>;
	/** Its model, as the reference page renders it. */
	reference: ApiReference;
	/** How the pages speak of the mock. */
	mock: MockWords;
	/** The origins the portal is read at (PORTAL_URL's, this machine's): `read_page` reads only these. */
	origins: readonly string[];
}

/** The inputs of a snapshot, as read from the sources. */
export interface PortalInputs {
	entries: readonly ViewEntry[];
	contract: Record<string, unknown>;
	contractFile: string;
	guides: readonly GuideSource[];
	mock: MockWords;
	mockOrigin: string;
	localMock: string;
	origins: readonly string[];
}

/** The secret-free views and people of the fixtures. */
export function projectDirectory(entries: readonly ViewEntry[]): PortalDirectory {
	const sorted = [...entries].sort(compareViews);
	return {
		views: sorted.map(publicView),
		hosts: Object.fromEntries(sorted.map((entry) => [entry.slug, viewHosts(entry.view)])),
		people: buildPeople(sorted),
	};
}

/**
 * The secret-free snapshot of the portal's inputs. The contract's code (the YAML parser, Redocly's
 * bundler) loads here, on the first call that needs the contract, not with this module.
 */
export async function projectPortal(
	inputs: PortalInputs,
	directory: PortalDirectory = projectDirectory(inputs.entries),
): Promise<PortalSnapshot> {
	const { composeContract, composedReference } = await import('../src/sources/contract.ts');
	const sorted = [...inputs.entries].sort(compareViews);
	const options = {
		mockOrigin: inputs.mockOrigin,
		localMock: inputs.localMock,
		file: inputs.contractFile,
	};
	return {
		...directory,
		guides: inputs.guides,
		contract: composeContract(inputs.contract, sorted, options),
		reference: await composedReference(inputs.contract, sorted, options),
		mock: inputs.mock,
		origins: inputs.origins,
	};
}

/** The access changes of the fixtures' history, newest first, and where that history stops. */
export interface AccessHistory {
	status: HistoryStatus;
	entries: readonly HistoryEntry[];
	/** Every tag, by name, with the full names of the fixture commits it reaches. */
	tags: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Reads the portal's sources on each call; fixtures are parsed again only when they changed. */
export interface PortalReader {
	/** The views and people as the fixtures are now, without secrets (no contract read). */
	directory: () => Promise<PortalDirectory>;
	/** The portal as its sources are now, without secrets. */
	snapshot: () => Promise<PortalSnapshot>;
	/**
	 * A name for everything the search's records are made of, cheap to make: the fixtures' and the
	 * contract's and guides' files, the commit checked out, and where the portal and mock are. The
	 * same name, the same records.
	 */
	searchKey: () => Promise<string>;
	/** The fixtures as they are now: only `call_mock` reads them, to send a person's key. */
	entries: () => Promise<readonly ViewEntry[]>;
	/** The access changes from git history, as `/access/changes/` lists them. */
	accessHistory: () => Promise<AccessHistory>;
	/** The contract's changelog from git history, a page at a time as `/reference/changes/`. */
	contractChanges: () => Promise<readonly ContractChangesPage[]>;
}

/**
 * What says whether the contract's changelog may have changed: the commit checked out and the
 * contract file's last change (a change not committed yet shows on the page). Without git, a
 * constant: the changelog then says history is unavailable, and stays so.
 */
async function contractStamp(file: string): Promise<string> {
	const [head, changed] = await Promise.all([
		git(path.dirname(file), ['rev-parse', 'HEAD']).then(
			(output) => output.toString('utf8').trim(),
			// No git or no commit: the changelog's own reading says history is unavailable, and why.
			() => 'no history',
		),
		stat(file).then(
			(stats) => String(stats.mtimeMs),
			// No contract file: the changelog's own reading says it cannot be read.
			() => 'no file',
		),
	]);
	return `${head} ${changed}`;
}

/**
 * The contract's changelog in pages, as the build cuts it: read from git and compared (with
 * api-smart-diff, loaded here on first use: it is slow to load and to run, so the pages are kept
 * until the commit or the file changes).
 */
async function readContractChanges(file: string): Promise<ContractChangesPage[]> {
	const [{ readContractHistory }, { contractChangelog }, { contractChangesPages }] =
		await Promise.all([
			import('../src/sources/contract-history.ts'),
			import('../src/site/contract-changes.ts'),
			import('../src/site/contract-changes-text.ts'),
		]);
	const reading = await readContractHistory(file);
	const entries = reading.available ? contractChangelog(reading.commits) : [];
	return contractChangesPages(historyStatusOf(reading), entries);
}

/** A reader over the settings' fixture folder, contract, guides and git history. */
export function createPortalReader(settings: PortalSettings): PortalReader {
	// Validated fixtures kept between starts, as the mock keeps them: an unchanged file skips the
	// view schema.
	const fixtures = createFixtureReader(settings.viewsDir, checkoutFixtureCache());
	/** The fixtures now, and their files' stamps, which say whether anything changed. */
	const reading = async (): Promise<{ views: readonly ViewEntry[]; stamp: string }> => {
		const { result, stamps } = await fixtures.read();
		const stamp = [...stamps].join('\n');
		if (!result.ok) {
			// Files and fields only: a problem's message may quote a value of the fixture.
			const where = result.problems.map(({ file, field }) =>
				printable(`${file}${field ? `: ${field}` : ''}`),
			);
			throw new ToolInputError(
				`fixtures: ${where.length} problem(s) at ${where.join('; ')}; the build (npm run build) says what each expects`,
			);
		}
		return { views: result.views, stamp };
	};
	const entries = async (): Promise<readonly ViewEntry[]> => (await reading()).views;
	let people: { stamp: string; directory: PortalDirectory } | undefined;
	const directory = async (): Promise<PortalDirectory> => {
		const { views, stamp } = await reading();
		if (people?.stamp !== stamp) people = { stamp, directory: projectDirectory(views) };
		return people.directory;
	};
	let last: { stamp: string; contract: unknown; snapshot: PortalSnapshot } | undefined;
	const snapshot = async (): Promise<PortalSnapshot> => {
		const [{ readContract, shownPath }, { readGuides }] = await Promise.all([
			import('../src/sources/contract.ts'),
			import('../src/sources/guides.ts'),
		]);
		const { views, stamp } = await reading();
		const file = shownPath(settings.openApiFile);
		const contract = await readContract(file);
		const guides = await readGuides(settings.docsDir);
		if (last?.stamp === stamp && last.contract === contract.document) {
			return { ...last.snapshot, guides };
		}
		const place = {
			mockUrl: settings.mockUrl,
			portalUrl: settings.portalUrl,
			mockPort: settings.mockPort,
		};
		const fresh = await projectPortal(
			{
				entries: views,
				contract: contract.document,
				contractFile: contract.file,
				guides,
				mock: mockWords(place),
				mockOrigin: shownMockUrl(place),
				localMock: localMockUrl(place.mockPort),
				origins: portalOrigins(settings),
			},
			await directory(),
		);
		last = { stamp, contract: contract.document, snapshot: fresh };
		return fresh;
	};
	const accessHistory = async (): Promise<AccessHistory> => {
		const { readFixtureHistory } = await import('../src/sources/fixture-history.ts');
		const reading = await readFixtureHistory(settings.viewsDir);
		const status = historyStatusOf(reading);
		if (!reading.available) return { status, entries: [], tags: new Map() };
		const history = buildHistory(reading.commits);
		return {
			status,
			entries: newestFirst(history.entries.filter(isAccessChange)),
			tags: new Map(reading.tags.map((tag) => [tag.name, new Set(tag.reaches)])),
		};
	};
	let changes: { stamp: string; pages: Promise<ContractChangesPage[]> } | undefined;
	const contractChanges = async (): Promise<readonly ContractChangesPage[]> => {
		const file = shownFile(settings.openApiFile);
		const stamp = await contractStamp(file);
		if (changes?.stamp !== stamp) {
			const pages = readContractChanges(file);
			changes = { stamp, pages };
			// A failed reading is tried again on the next call.
			pages.catch(() => {
				if (changes?.pages === pages) changes = undefined;
			});
		}
		return changes.pages;
	};
	const contractCommit = contractCommitReader();
	const searchKey = async (): Promise<string> => {
		// The fixtures' files are looked at, not read: fixtures that do not load fail the search
		// when its records are made, with their problems.
		const contract = shownFile(settings.openApiFile);
		const [stamp, contractStamp, guides, commit] = await Promise.all([
			folderStamp(settings.viewsDir),
			fileStamp(contract),
			folderStamp(settings.docsDir),
			contractCommit(contract),
		]);
		const place = [settings.mockUrl, settings.portalUrl, settings.mockPort].join(' ');
		const parts = [stamp, contractStamp, guides, commit, place, ...portalOrigins(settings)];
		return hash('sha256', parts.join('\0'), 'hex');
	};
	return { directory, snapshot, searchKey, entries, accessHistory, contractChanges };
}

/** A contract path as a person reads it, relative to the working folder when inside it. */
function shownFile(file: string): string {
	// The same as contract.ts's `shownPath`, without loading the contract's code for it.
	const relative = path.relative(process.cwd(), file);
	return relative && !relative.startsWith('..') ? relative : file;
}

/** A file's identity and version (inode, size, modification time), or that it is missing. */
async function fileStamp(file: string): Promise<string> {
	try {
		const { ino, size, mtimeMs } = await stat(file);
		return `${file} ${ino} ${size} ${mtimeMs}`;
	} catch (error) {
		// A missing file is a version of its own: the search then says what reading it said.
		return `${file} ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`;
	}
}

/** The stamps of a folder's files, in name order. */
async function folderStamp(folder: string): Promise<string> {
	let names: string[];
	try {
		names = (await readdir(folder)).sort();
	} catch (error) {
		// A missing folder is a version of its own, as a missing file is.
		return `${folder} ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`;
	}
	const stamps = await Promise.all(names.map((name) => fileStamp(path.join(folder, name))));
	return stamps.join('\n');
}

/**
 * The folder of the repository around a folder, found as git finds it without a GIT_DIR (which
 * `git.ts` never passes on): the nearest `.git` folder up the tree, or the folder a `.git` file
 * names (a worktree's). Undefined outside a repository.
 */
async function gitDirOf(folder: string): Promise<string | undefined> {
	for (let at = path.resolve(folder); ; at = path.dirname(at)) {
		const dotGit = path.join(at, '.git');
		try {
			if ((await stat(dotGit)).isDirectory()) return dotGit;
			const named = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8'))?.[1];
			return named === undefined ? undefined : path.resolve(at, named.trim());
		} catch (error) {
			// No `.git` here: the folder above is looked at, up to the root.
			if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
		}
		if (path.dirname(at) === at) return undefined;
	}
}

/**
 * What names the contract's history, cheaply: the last commit that changed the file. The
 * repository's folder is found once; then the HEAD file and HEAD's log (which every commit,
 * checkout and reset appends to) are looked at, and git is asked for the file's last commit again
 * only when they changed. So a commit of other files costs one question and leaves the name as it
 * was. Without HEAD's log, git is asked each time; outside a repository, a constant.
 */
function contractCommitReader(): (file: string) => Promise<string> {
	let gitDir: Promise<string | undefined> | undefined;
	let last: { head: string; commit: Promise<string> } | undefined;
	return async (file) => {
		const folder = path.dirname(file);
		gitDir ??= gitDirOf(folder);
		const dir = await gitDir;
		if (dir === undefined) return 'no history';
		const [head, log] = await Promise.all([
			// A HEAD file that cannot be read leaves the log's stamp alone to tell a change.
			readFile(path.join(dir, 'HEAD'), 'utf8').catch(() => ''),
			stat(path.join(dir, 'logs', 'HEAD')).then(
				({ size, mtimeMs }) => `${size} ${mtimeMs}`,
				// No log of HEAD (reflogs turned off): git is asked for the file's last commit each time.
				() => undefined,
			),
		]);
		const stamp = log === undefined ? undefined : `${head.trim()} ${log}`;
		if (stamp !== undefined && last?.head === stamp) return last.commit;
		const commit = git(folder, ['log', '-1', '--format=%H', '--', path.basename(file)]).then(
			(output) => output.toString('utf8').trim(),
			// A file git does not know (or no commit yet) has no history of its own to name.
			() => 'no commit',
		);
		if (stamp !== undefined) last = { head: stamp, commit };
		return commit;
	};
}
