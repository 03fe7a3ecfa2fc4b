/** Modules made at build time by the portal's own Vite plugins. */
declare module 'virtual:try-it-validators' {
	/** The contract's answers of GET /api/v2/users: status, media type, compiled validator. */
	export const responses: import('./client/try-it/check.ts').ContractAnswers;
}
declare module 'virtual:try-it-choices' {
	/** What the panel offers a reader who builds a request, read from the contract at build time. */
	export const choices: import('./integrations/try-it-validators.ts').TryItChoices;
}
