/**
 * What the MCP server answers from: the portal as its sources are now, projected without secrets.
 * `projectPortal` is pure: views become `PublicView`s (no key, no configuration value), people are
 * built from the directories (names, emails, roles), the contract is composed as the build
 * publishes it (its examples list users without keys). `createPortalReader` reads the sources
 * through `src/sources/` on each call, incrementally as the mock does, so the answers follow edits.
 * Only `call_mock` reaches the fixtures themselves, through `entries`, to send a person's key.
 */
import type { ApiReference } from '../../sources/openapi.ts';
import {
	composeContract,
	composedReference,
	readContract,
	shownPath,
} from '../../sources/contract.ts';
import { createFixtureReader, printable, type ViewEntry } from '../../sources/fixtures.ts';
import { readGuides, type GuideSource } from '../../sources/guides.ts';
import type { PortalSettings } from '../../sources/settings.ts';
import { readFixtureHistory } from '../../sources/fixture-history.ts';
import { historyStatusOf, type HistoryStatus } from '../../sources/git.ts';
import { compareViews } from '../../shared/views.ts';
import { localMockUrl, shownMockUrl } from '../../shared/urls.ts';
import { publicView, type PublicView } from '../public-view.ts';
import { buildPeople, type Person } from '../people.ts';
import { mockWords, type MockWords } from '../mock-place.ts';
import { buildHistory, isAccessChange, newestFirst, type HistoryEntry } from '../history.ts';

/** A tool input the server cannot answer for: its message is one line naming the input. */
export class ToolInputError extends Error {
	override name = 'ToolInputError';
}

/** The portal without secrets, as one reading of its sources gives it. */
export interface PortalSnapshot {
	/** Every view without keys and configuration, in the order the pages list them. */
	views: readonly PublicView[];
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
		people: buildPeople(sorted),
		guides: inputs.guides,
		contract: composeContract(inputs.contract, sorted, options),
		reference: await composedReference(inputs.contract, sorted, options),
		mock: inputs.mock,
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
	return { snapshot, entries, accessHistory };
}
