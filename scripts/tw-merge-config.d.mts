/** The app's classes that tailwind-merge's default configuration recognises, each with its class group's id. */
export function appClassGroups(root?: string): Map<string, string>;
