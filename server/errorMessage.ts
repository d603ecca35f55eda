/** The message of anything thrown: an Error's own message, anything else as text. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
