/**
 * `/llms.txt` in the llmstxt.org format: the portal's name as the H1, a one-paragraph summary in a
 * block quote, a few paragraphs on how to read the portal, then H2 sections of links, each
 * `- [name](url): notes`, to the Markdown twins; the "Optional" section holds what an assistant
 * may skip. It links each environment's list, never each view, so it grows with environments and
 * guides only (the review pages, in "Optional", are a fixed few). Its links are root-relative: the portal has no one address (each installation
 * serves it under its own name and port).
 */
import {
	ACCESS_CHANGES_HREF,
	ACCESS_CSV_HREF,
	ACCESS_SINCE_HREF,
	accessHref,
	environmentHref,
	GUIDES_HREF,
	guideHref,
	HOME_HREF,
	markdownHref,
	OPENAPI_JSON_HREF,
	OPENAPI_YAML_HREF,
	REFERENCE_CHANGES_HREF,
	REFERENCE_HREF,
} from '../../shared/urls.ts';
import { USERS_PATH } from '../../shared/curl.ts';
import { viewCount } from '../overview.ts';
import type { ReviewPage } from '../review-pages.ts';
import {
	blockquote,
	bulletList,
	heading,
	inlineCode,
	link,
	markdownText,
	paragraph,
	type Inline,
} from './mdast.ts';

/** What llms.txt lists. */
export interface LlmsTxtInput {
	guides: readonly { id: string; title: string; description: string }[];
	/** The contract's title and version, e.g. "Console API" and "2.0.0", and its OpenAPI version. */
	reference: { title: string; version: string; openapi?: string | undefined };
	/** Each environment with its number of views and API labels, in the overview's order. */
	environments: readonly { environment: string; views: number; apiLabels: readonly string[] }[];
	/** The mock readers reach (e.g. `http://127.0.0.1:4010`), whether it is a reader's own local one, and where that one listens. */
	mock: { url: string; local: boolean; localUrl: string };
	/** The review pages: each review flag, the keys not rotated and the directories unchanged. */
	reviews: readonly ReviewPage[];
}

/** One entry of a file list: a link, then its notes. */
const entry = (href: string, name: string, ...notes: Inline[]): Inline[] => [
	link(href, name),
	...(notes.length > 0 ? [': ', ...notes] : []),
];

/** The text of `/llms.txt`. */
export function llmsTxt({ guides, reference, environments, mock, reviews }: LlmsTxtInput): string {
	return markdownText([
		heading(1, 'Console Portal'),
		blockquote(
			'Synthetic documentation and a local mock of an internal administration console: one page per console view (its labels, people and roles, status note and an example request to ',
			inlineCode(`GET ${USERS_PATH}`),
			'), guides, the API reference, and who holds which role where. All its data is made up.',
		),
		paragraph(
			'Every page has a Markdown twin beside it, at its address with ',
			inlineCode('.md'),
			' in place of the trailing slash: ',
			inlineCode('/views/production/'),
			' has ',
			inlineCode('/views/production.md'),
			', and the overview ',
			inlineCode('/index.md'),
			'. Neither the twins nor this file hold a key or a configuration value: a view page in HTML shows them, in its user directory and its Configuration block. Links here start at the root of the address the portal is served under.',
		),
		mock.local
			? paragraph(
					'While ',
					inlineCode('npm start'),
					' or ',
					inlineCode('npm run mock'),
					' runs, the mock of the console API answers on ',
					inlineCode(mock.url),
					': ',
					inlineCode(`GET ${USERS_PATH}`),
					' with a directory key as a bearer token gets the users of the view whose directory holds it.',
				)
			: paragraph(
					"The mock of the console API that this portal's readers share answers on ",
					inlineCode(mock.url),
					': ',
					inlineCode(`GET ${USERS_PATH}`),
					' with a directory key as a bearer token gets the users of the view whose directory holds it. ',
					inlineCode('npm run mock'),
					' runs the same mock on ',
					inlineCode(mock.localUrl),
					'.',
				),
		heading(2, 'Guides'),
		bulletList(
			guides.map((guide) =>
				entry(markdownHref(guideHref(guide.id)), guide.title, guide.description),
			),
		),
		heading(2, 'API reference'),
		bulletList([
			entry(
				markdownHref(REFERENCE_HREF),
				`${reference.title} ${reference.version}`,
				'every operation, its security, responses, examples and code samples',
			),
			entry(
				markdownHref(REFERENCE_CHANGES_HREF),
				'Contract changes',
				'each commit that changed the contract, newest first, its changes classified as breaking or not',
			),
			entry(
				OPENAPI_YAML_HREF,
				'openapi.yaml',
				`the complete OpenAPI ${reference.openapi ? `${reference.openapi} ` : ''}contract, with one example per view`,
			),
		]),
		heading(2, 'Views by environment'),
		bulletList(
			environments.map(({ environment, views, apiLabels }) =>
				entry(
					markdownHref(environmentHref(environment)),
					environment,
					`its ${viewCount(views)}`,
					apiLabels.length > 0 ? ` (API ${apiLabels.join(', ')})` : '',
					', each with a link to its page',
				),
			),
		),
		heading(2, 'Optional'),
		bulletList([
			entry(markdownHref(HOME_HREF), 'Overview', 'every environment with its first views'),
			entry(markdownHref(GUIDES_HREF), 'Guides', 'the list of guides'),
			entry(
				markdownHref(accessHref()),
				'Access',
				'who holds which role in which environment, with a page per person',
			),
			entry(
				markdownHref(ACCESS_CHANGES_HREF),
				'Access changes',
				"every change to who holds which role in which view, from the fixtures' git history, with a list per environment, role and kind",
			),
			entry(
				markdownHref(ACCESS_SINCE_HREF),
				'Access since a tag',
				'what changed in access between each git tag and today',
			),
			...reviews.map(({ href, title }) =>
				entry(markdownHref(href), title, 'a review flag, with what it found'),
			),
			entry(OPENAPI_JSON_HREF, 'openapi.json', 'the contract as JSON'),
			entry(ACCESS_CSV_HREF, 'access.csv', 'one row per person per view, for access reviews'),
		]),
	]);
}

/** The twin of the guides' index: each guide with its description. */
export function guidesMarkdown(guides: LlmsTxtInput['guides']): string {
	return markdownText([
		heading(1, 'Guides'),
		bulletList(
			guides.map((guide) =>
				entry(markdownHref(guideHref(guide.id)), guide.title, guide.description),
			),
		),
	]);
}
