/** `access-changes.csv`: one row per change in the fixtures' history, for reviews in a spreadsheet. */
import type { APIRoute } from 'astro';
import { accessChangesCsvText } from '../site/history-collection.ts';

export const GET: APIRoute = async () =>
	new Response(await accessChangesCsvText(), {
		headers: { 'Content-Type': 'text/csv; charset=utf-8; header=present' },
	});
