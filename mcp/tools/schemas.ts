/** The zod shapes more than one tool's input or output shares. */
import { z } from 'zod';
import { ROLES } from '../../src/schemas/view.ts';

/** A role, refused in one line naming the roles there are. */
export const roleSchema = z.enum(ROLES, { error: `role: expected one of ${ROLES.join(', ')}` });

/** A check of an answer against the contract, as `call_mock` and `check_answer` give it. */
export const checkSchema = z.object({
	conforms: z.boolean(),
	verdict: z.enum(['matches', 'breaks', 'unchecked']),
	headline: z.string(),
	violations: z.array(z.string()).describe('One line each, starting with its JSON path'),
});

/** A problem answer in the words of the table of problems (src/shared/problems.ts). */
export const problemSchema = z.object({
	type: z.string(),
	title: z.string(),
	change: z.string().describe('What to change: the setting, flag, header or parameter'),
	guide: z
		.string()
		.describe("The problems guide's section on it, e.g. /docs/problems/#missing-key"),
});
