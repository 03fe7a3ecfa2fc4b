/**
 * `exports.json`: for each export, the commit and the digest of the fixtures it was built from,
 * and the export's own digest, so an auditor can show which data a review used.
 */
import type { APIRoute } from 'astro';
import {
	accessChangesCsvText,
	accessCsvText,
	fixtureDigest,
	historyStatus,
	sinceJson,
} from '../site/history-collection.ts';
import { exportsManifest } from '../site/exports.ts';
import {
	ACCESS_CHANGES_CSV_HREF,
	ACCESS_CSV_HREF,
	ACCESS_SINCE_JSON_HREF,
} from '../shared/urls.ts';

export const GET: APIRoute = async () => {
	const manifest = exportsManifest({
		status: await historyStatus(),
		fixtures: await fixtureDigest(),
		exports: [
			{ file: ACCESS_CSV_HREF, text: await accessCsvText() },
			{ file: ACCESS_CHANGES_CSV_HREF, text: await accessChangesCsvText() },
			{ file: ACCESS_SINCE_JSON_HREF, text: JSON.stringify(await sinceJson()) },
		],
	});
	return new Response(`${JSON.stringify(manifest, null, '\t')}\n`, {
		headers: { 'Content-Type': 'application/json' },
	});
};
