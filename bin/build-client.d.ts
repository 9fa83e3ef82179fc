/** Types of bin/build-client.js, for the TypeScript that runs it (the vitest global setups, tests). */
export declare const CLIENT_DIR: string
export declare const CLIENT_BUNDLES_FILE: string
export declare function clientEntries(root?: string): Array<{ page: string; file: string }>
/** Bundles src/dashboard/client/<page>.ts into the generated module; resolves to whether it wrote it. */
export declare function buildClient(root?: string): Promise<boolean>
