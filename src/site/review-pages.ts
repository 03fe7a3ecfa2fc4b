/**
 * The review pages, as the access overview and llms.txt link them: each review flag read from the
 * directories, then the keys not rotated for longer than the limit and the directories unchanged
 * while the others changed, each with its title and how much it found.
 */
import { REVIEW_KEYS_HREF, REVIEW_VIEWS_HREF } from '../shared/urls.ts';
import { historyFlags } from './history-collection.ts';
import { STILL_VIEWS_TITLE, staleKeysTitle } from './markdown/review.ts';
import { allReviewFlags } from './people-collection.ts';

/** One review page: its HTML address, its title, and how many findings, keys or views it lists. */
export interface ReviewPage {
	href: string;
	title: string;
	found: number;
}

/** Every review page, in the order the access overview shows them. */
export async function reviewPages(): Promise<ReviewPage[]> {
	const { limit, keys, views } = await historyFlags();
	return [
		...(await allReviewFlags()).map(({ href, title, findings }) => ({
			href,
			title,
			found: findings.length,
		})),
		{ href: REVIEW_KEYS_HREF, title: staleKeysTitle(limit), found: keys.length },
		{ href: REVIEW_VIEWS_HREF, title: STILL_VIEWS_TITLE, found: views.length },
	];
}
