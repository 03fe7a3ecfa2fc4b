/**
 * `node bench/generate-views.ts <count> <folder> [people]` writes `<folder>/<slug>.json`: `count`
 * valid, unique synthetic views (`support/view-sets.ts`), the same for the same count. By
 * default every view's eight users are people of their own (`distinct`: 2,000 views, 16,000
 * people), as in a large organisation; `teams` draws them from each environment's team and a few
 * people on call instead, and `distinct-with-on-call` gives each view six of its own and two of
 * six people on call. The contract needs no copy: the build and the mock compose each view's
 * example from the fixtures.
 */
import path from 'node:path';
import { z } from 'zod';
import { writeViewSet } from '../support/view-sets.ts';

const argsSchema = z.tuple([
	z.coerce.number({ error: 'count: expected a whole number of views' }).int().min(1).max(100_000),
	z.string({ error: 'folder: expected the folder to write the fixtures into' }).min(1),
	z
		.enum(['distinct', 'teams', 'distinct-with-on-call'], {
			error: 'people: expected distinct, teams or distinct-with-on-call',
		})
		.default('distinct'),
]);

const USAGE =
	'Usage: node bench/generate-views.ts <count> <folder> [distinct|teams|distinct-with-on-call]';

const args = argsSchema.safeParse(process.argv.slice(2));
if (!args.success) {
	// One line per wrong argument, named by its place, then the usage: no stack trace to read.
	for (const issue of args.error.issues) console.error(`generate-views: ${issue.message}`);
	console.error(USAGE);
	process.exit(1);
}
const [count, folder, people] = args.data;
const views = await writeViewSet(path.resolve(folder), count, people);
console.log(`Wrote ${views.length} views of ${people} people to ${folder}`);
