// @ts-check
/**
 * The project's own lint rules, which eslint.config.js turns on: what the style guide asks that
 * no installed rule checks.
 *
 * - `explained-catch`: a `catch` that names no error says in a comment why nothing is lost.
 * - `no-import-cycle`: imports never run in a circle, type-only and dynamic imports included.
 *   import-x/no-cycle leaves type-only imports out, with no option to count them.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** @typedef {import('eslint').Rule.RuleModule} RuleModule */
/** @typedef {import('estree').Node} Node */

/** @type {RuleModule} */
const explainedCatch = {
	meta: {
		type: 'suggestion',
		docs: { description: 'A catch that names no error says in a comment why nothing is lost.' },
		messages: {
			unexplained:
				'This catch names no error and says nothing: handle a named error (catch (error) { … }), or say in a comment inside it why nothing is lost.',
		},
		schema: [],
	},
	create(context) {
		return {
			CatchClause(node) {
				if (node.param) return;
				if (context.sourceCode.getCommentsInside(node.body).length > 0) return;
				context.report({ node, messageId: 'unexplained' });
			},
		};
	},
};

/** The extensions a module of ours is written in, tried in this order for a bare specifier. */
const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs', '.cjs', '.astro'];

/**
 * Each file's imports as read, with the time of the version read: one reading per lint run.
 * @type {Map<string, { mtime: number; imports: string[] }>}
 */
const importsRead = new Map();

/**
 * The file a relative specifier names from `from`, or undefined (a package, or nothing there).
 * @param {string} specifier
 * @param {string} from
 * @returns {string | undefined}
 */
function resolved(specifier, from) {
	if (!specifier.startsWith('.') && !specifier.startsWith('/')) return undefined;
	const base = path.resolve(path.dirname(from), specifier.split(/[?#]/, 1)[0] ?? '');
	for (const candidate of [base, ...EXTENSIONS.map((extension) => `${base}${extension}`)]) {
		try {
			if (statSync(candidate).isFile()) return candidate;
		} catch (error) {
			// No such file: the next form is tried; anything else is a failure of its own.
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOENT') throw error;
		}
	}
	return undefined;
}

/**
 * The files of ours a file imports, type-only and dynamic imports among them.
 * @param {string} file
 * @returns {string[]}
 */
function importsOf(file) {
	if (file.split(path.sep).includes('node_modules')) return [];
	let mtime;
	try {
		mtime = statSync(file).mtimeMs;
	} catch (error) {
		// A file removed while lint runs imports nothing any more.
		if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return [];
		throw error;
	}
	const known = importsRead.get(file);
	if (known?.mtime === mtime) return known.imports;
	const text = readFileSync(file, 'utf8');
	// TypeScript's scanner: every import, export … from and import() of the file, types included.
	const imports = ts
		.preProcessFile(text, true, true)
		.importedFiles.map(({ fileName }) => resolved(fileName, file))
		.filter(/** @returns {each is string} */ (each) => each !== undefined);
	importsRead.set(file, { mtime, imports });
	return imports;
}

/**
 * The way from `start` back to `file` through the imports, or undefined when there is none.
 * @param {string} start
 * @param {string} file
 * @returns {string[] | undefined}
 */
function wayBack(start, file) {
	const cameFrom = new Map([[start, '']]);
	const queue = [start];
	while (queue.length > 0) {
		const at = /** @type {string} */ (queue.shift());
		for (const next of importsOf(at)) {
			if (cameFrom.has(next)) continue;
			cameFrom.set(next, at);
			if (next === file) {
				const way = [file];
				for (let step = at; step !== ''; step = cameFrom.get(step) ?? '') way.unshift(step);
				return way;
			}
			queue.push(next);
		}
	}
	return undefined;
}

/** @type {RuleModule} */
const noImportCycle = {
	meta: {
		type: 'problem',
		docs: { description: 'Imports never run in a circle, type-only and dynamic ones included.' },
		messages: {
			cycle:
				'Imports run in a circle: {{way}}. Move what both need to a module below them, which both import.',
		},
		schema: [],
	},
	create(context) {
		const file = context.physicalFilename;
		const root = context.cwd;
		/** @param {Node & { source?: Node | null | undefined }} node */
		const check = (node) => {
			const source = node.source;
			if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
			const target = resolved(source.value, file);
			if (!target || target === file) return;
			const way = wayBack(target, file);
			if (!way) return;
			const shown = [file, ...way].map((each) => path.relative(root, each)).join(' → ');
			context.report({ node, messageId: 'cycle', data: { way: shown } });
		};
		return {
			ImportDeclaration: check,
			ExportNamedDeclaration: check,
			ExportAllDeclaration: check,
			ImportExpression: check,
		};
	},
};

/** The plugin eslint.config.js registers as `local`. */
export const localRules = {
	meta: { name: 'console-portal-local' },
	rules: { 'explained-catch': explainedCatch, 'no-import-cycle': noImportCycle },
};
