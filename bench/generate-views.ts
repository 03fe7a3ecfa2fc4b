/**
 * `node bench/generate-views.ts <count> <folder>` writes `<folder>/<slug>.json`: `count` valid,
 * unique synthetic views (`support/view-sets.ts`), the same for the same count. The contract
 * needs no copy: the build and the mock compose each view's example from the fixtures.
 */
import path from 'node:path';
import { z } from 'zod';
import { writeViewSet } from '../support/view-sets.ts';

const argsSchema = z.tuple([
	z.coerce.number({ error: 'count: expected a whole number of views' }).int().min(1).max(100_000),
	z.string({ error: 'folder: expected the folder to write the fixtures into' }).min(1),
]);

const [count, folder] = argsSchema.parse(process.argv.slice(2));
const views = await writeViewSet(path.resolve(folder), count);
console.log(`Wrote ${views.length} views to ${folder}`);
