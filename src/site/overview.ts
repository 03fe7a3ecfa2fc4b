/**
 * The overview, bounded by design. The home page lists each environment with its first few views
 * and a link to the environment's own pages; an environment's pages list all its views, a fixed
 * number per page. So no page grows with the number of views in all: the home page grows only
 * with the number of environments, every other page has a fixed ceiling.
 */
import { compareLabels } from './api-labels.ts';

/** How many of an environment's views the home page lists before linking to the rest. */
export const HOME_VIEWS_PER_ENVIRONMENT = 8;

/** How many views one page of an environment lists. */
export const ENVIRONMENT_PAGE_SIZE = 40;

/** A view as the overview needs it. */
export interface OverviewView {
	slug: string;
	view: { environment: string; apiVersion?: string | undefined };
}

/** One environment: its views in display order, and the API labels they carry. */
export interface EnvironmentGroup<V extends OverviewView> {
	environment: string;
	views: V[];
	/** Its API labels, newest first, each once; the views without one are counted apart. */
	apiLabels: string[];
	/** How many of its views carry no API label. */
	unlabelled: number;
}

/** Groups views (already in display order) by environment, keeping that order. */
export function environmentGroups<V extends OverviewView>(
	views: readonly V[],
): EnvironmentGroup<V>[] {
	const groups = new Map<string, V[]>();
	for (const entry of views) {
		const members = groups.get(entry.view.environment);
		if (members) members.push(entry);
		else groups.set(entry.view.environment, [entry]);
	}
	return [...groups].map(([environment, members]) => {
		const labels = new Set<string>();
		let unlabelled = 0;
		for (const { view } of members) {
			if (view.apiVersion) labels.add(view.apiVersion);
			else unlabelled++;
		}
		return {
			environment,
			views: members,
			apiLabels: [...labels].sort(compareLabels),
			unlabelled,
		};
	});
}

/** The page (from 1) of an environment's list that holds the view `slug`; page 1 if none does. */
export function environmentPageOf(members: readonly { slug: string }[], slug: string): number {
	const index = members.findIndex((member) => member.slug === slug);
	return Math.floor(Math.max(index, 0) / ENVIRONMENT_PAGE_SIZE) + 1;
}

/** "1 view" / "12 views". */
export function viewCount(count: number): string {
	return count === 1 ? '1 view' : `${count.toLocaleString('en')} views`;
}
