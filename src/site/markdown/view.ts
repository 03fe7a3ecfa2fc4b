/**
 * A view page's Markdown twin: its labels, timestamps, status note, people and roles, and the
 * example request with `<API_KEY>` in place of the key. It is made from a `PublicView`, which holds
 * no key and no configuration value, and says where on the HTML page those are shown.
 */
import { CONFIG_MEMBERS } from '../../schemas/view.ts';
import { buildCurl, USERS_PATH } from '../../shared/curl.ts';
import { environmentHref, markdownHref, personHref, viewHref } from '../../shared/urls.ts';
import type { PublicView } from '../public-view.ts';
import { codeBlock, heading, inlineCode, link, markdownText, paragraph, table } from './mdast.ts';

/** What stands for the key in a twin's example request. */
export const KEY_PLACEHOLDER = '<API_KEY>';

/** The ids of the HTML view page's blocks a twin points to (set in the components of the page). */
export const VIEW_PAGE_IDS = {
	directory: 'directory-heading',
	configuration: 'config-heading',
	mockRequest: 'mock-request-heading',
} as const;

/** Where a view twin links: the page of its environment's list that holds it, and the mock. */
export interface ViewTwinContext {
	/** The page (from 1) of the environment's list of views that lists this view. */
	environmentPage: number;
	/** The mock readers reach, whether it is a reader's own local one, and the heading over its request. */
	mock: { url: string; local: boolean; heading: string };
}

/** The Markdown twin of a view page. */
export function viewMarkdown(view: PublicView, { environmentPage, mock }: ViewTwinContext): string {
	const page = viewHref(view.slug);
	const directory = `${page}#${VIEW_PAGE_IDS.directory}`;
	const none = 'none';
	return markdownText([
		heading(1, view.name),
		paragraph(
			'Console view ',
			inlineCode(view.slug),
			' in the environment ',
			link(markdownHref(environmentHref(view.environment, environmentPage)), view.environment),
			'. Its ',
			link(page, 'HTML page'),
			' also shows the keys and the configuration block, which this file never holds.',
		),
		table(
			['Label', 'Value'],
			[
				[['Environment'], [view.environment]],
				[['Configuration label'], [view.configuration ?? none]],
				[['API label'], [view.apiVersion ?? none]],
				[['Last updated'], [view.lastUpdated]],
				[['Generated at'], [view.generatedAt]],
				[['Console address'], [inlineCode(view.baseUrl)]],
			],
		),
		heading(2, 'Status note'),
		paragraph(view.statusNote),
		heading(2, 'User directory'),
		paragraph(
			`${view.users.length} users with their roles. Their API keys are shown only in the `,
			link(directory, 'user directory of the HTML page'),
			'.',
		),
		table(
			['Name', 'Email', 'Role'],
			view.users.map((user) => [
				[link(markdownHref(personHref(user.personSlug)), user.name)],
				[user.email],
				[user.role],
			]),
		),
		heading(2, 'Configuration'),
		paragraph(
			'The configuration block holds ',
			...CONFIG_MEMBERS.flatMap((member, index) => [
				index === 0 ? '' : index === CONFIG_MEMBERS.length - 1 ? ' and ' : ', ',
				inlineCode(member),
			]),
			'. Its values are shown only in the ',
			link(`${page}#${VIEW_PAGE_IDS.configuration}`, 'Configuration block of the HTML page'),
			'.',
		),
		heading(2, 'Example request'),
		paragraph(
			inlineCode(`GET ${USERS_PATH}`),
			' on ',
			inlineCode(view.baseUrl),
			`, with the key of ${view.exampleUser.name} (${view.exampleUser.role}) as a bearer token. No body. Replace `,
			inlineCode(KEY_PLACEHOLDER),
			' with that key, from the ',
			link(directory, 'user directory of the HTML page'),
			'.',
		),
		codeBlock(buildCurl({ baseUrl: view.baseUrl, key: KEY_PLACEHOLDER }), 'sh'),
		paragraph(
			...(mock.local
				? [
						"The console's address answers only inside its network. The same request to the local mock (",
						inlineCode('npm start'),
						' or ',
						inlineCode('npm run mock'),
						') at ',
						inlineCode(mock.url),
					]
				: [
						"The console's address answers only inside its network. The same request to the mock this portal's readers share, at ",
						inlineCode(mock.url),
					]),
			", which gets this view's users, is under ",
			link(`${page}#${VIEW_PAGE_IDS.mockRequest}`, mock.heading),
			' on the HTML page, with the key written out.',
		),
		paragraph(`Generated at ${view.generatedAt}. Internal use only.`),
	]);
}
