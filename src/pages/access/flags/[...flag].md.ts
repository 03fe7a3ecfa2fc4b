/**
 * The Markdown twins of the review flags' pages, paged as the HTML pages are:
 * `/access/flags/several-names.md`, then `/access/flags/several-names/2.md` and so on.
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { pagedTwins } from '../../../site/markdown/lists.ts';
import { markdownResponse } from '../../../site/markdown/mdast.ts';
import { flagMarkdown } from '../../../site/markdown/review.ts';
import { allReviewFlags } from '../../../site/people-collection.ts';
import { FINDINGS_PER_PAGE } from '../../../site/review-flags.ts';
import { ACCESS_ROOT, reviewFlagHref } from '../../../shared/urls.ts';

export const getStaticPaths = (async () =>
	(await allReviewFlags()).flatMap(({ id, title, rule, findings }) =>
		pagedTwins(
			findings,
			FINDINGS_PER_PAGE,
			(number) => reviewFlagHref(id, number),
			`${ACCESS_ROOT}flags/`,
		).map(({ param, page }) => ({
			params: { flag: param },
			props: { ...page, id, title, rule, total: findings.length },
		})),
	)) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => markdownResponse(flagMarkdown(props));
