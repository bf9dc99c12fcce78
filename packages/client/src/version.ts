/** The package's version, sent in the User-Agent. Kept equal to package.json's (a test checks). */
export const VERSION = '0.1.0';
