/** The Markdown twin of the page of access since a tag or a date: every tag, with what changed since. */
import type { APIRoute } from 'astro';
import { historyStatus, tagComparisons } from '../../site/history-collection.ts';
import { markdownResponse } from '../../site/markdown/mdast.ts';
import { sinceMarkdown } from '../../site/markdown/since.ts';

export const GET: APIRoute = async () =>
	markdownResponse(sinceMarkdown(await tagComparisons(), await historyStatus()));
