/**
 * What the MCP server answers from: the portal as its sources are now, projected without secrets.
 * `projectPortal` is pure: views become `PublicView`s (no key, no configuration value), people are
 * built from the directories (names, emails, roles), the contract is composed as the build
 * publishes it (its examples list users without keys). `createPortalReader` reads the sources
 * through `src/sources/` on each call, incrementally as the mock does, so the answers follow edits.
 * Only `call_mock` reaches the fixtures themselves, through `entries`, to send a person's key.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ApiReference } from '../src/sources/openapi.ts';
import {
	composeContract,
	composedReference,
	readContract,
	shownPath,
} from '../src/sources/contract.ts';
import { createFixtureReader, printable, type ViewEntry } from '../src/sources/fixtures.ts';
import { readGuides, type GuideSource } from '../src/sources/guides.ts';
import type { PortalSettings } from '../src/sources/settings.ts';
import { readFixtureHistory } from '../src/sources/fixture-history.ts';
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
import { HISTORY_COMMITS_PER_PAGE } from '../src/site/access.ts';
import { pageSlices } from '../src/site/markdown/lists.ts';
import type { ContractChangesPage } from '../src/site/markdown/contract-changes.ts';
import { portalOrigins } from './places.ts';
import { ToolInputError } from './tool-names.ts';

export { ToolInputError };

/** The portal without secrets, as one reading of its sources gives it. */
export interface PortalSnapshot {
	/** Every view without keys and configuration, in the order the pages list them. */
	views: readonly PublicView[];
	/** Each view's hosts by slug, as its page shows them: no user name, no password. */
	hosts: Readonly<Record<string, ViewHosts>>;
	/** Every person of every directory, in name order. */
	people: readonly Person[];
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

/** The secret-free snapshot of the portal's inputs. */
export async function projectPortal(inputs: PortalInputs): Promise<PortalSnapshot> {
	const sorted = [...inputs.entries].sort(compareViews);
	const options = {
		mockOrigin: inputs.mockOrigin,
		localMock: inputs.localMock,
		file: inputs.contractFile,
	};
	return {
		views: sorted.map(publicView),
		hosts: Object.fromEntries(sorted.map((entry) => [entry.slug, viewHosts(entry.view)])),
		people: buildPeople(sorted),
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
	/** The portal as its sources are now, without secrets. */
	snapshot: () => Promise<PortalSnapshot>;
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
			() => 'no history',
		),
		stat(file).then(
			(stats) => String(stats.mtimeMs),
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
	const [{ readContractHistory }, { contractChangelog }] = await Promise.all([
		import('../src/sources/contract-history.ts'),
		import('../src/site/contract-changes.ts'),
	]);
	const reading = await readContractHistory(file);
	const status = historyStatusOf(reading);
	const entries = reading.available ? contractChangelog(reading.commits) : [];
	return pageSlices(entries, HISTORY_COMMITS_PER_PAGE).map((page) => ({
		status,
		entries: page.data,
		total: entries.length,
		currentPage: page.currentPage,
		lastPage: page.lastPage,
		start: page.start,
	}));
}

/** A reader over the settings' fixture folder, contract, guides and git history. */
export function createPortalReader(settings: PortalSettings): PortalReader {
	const fixtures = createFixtureReader(settings.viewsDir);
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
	let last: { stamp: string; contract: unknown; snapshot: PortalSnapshot } | undefined;
	const snapshot = async (): Promise<PortalSnapshot> => {
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
		const fresh = await projectPortal({
			entries: views,
			contract: contract.document,
			contractFile: contract.file,
			guides,
			mock: mockWords(place),
			mockOrigin: shownMockUrl(place),
			localMock: localMockUrl(place.mockPort),
			origins: portalOrigins(settings),
		});
		last = { stamp, contract: contract.document, snapshot: fresh };
		return fresh;
	};
	const accessHistory = async (): Promise<AccessHistory> => {
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
		const file = shownPath(settings.openApiFile);
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
	return { snapshot, entries, accessHistory, contractChanges };
}
