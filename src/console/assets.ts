import { readFileSync } from 'node:fs';

/**
 * The console's only style sheet and script, served by the service itself (`/console/assets/…`):
 * the Content-Security-Policy allows nothing else, no inline code and nothing from elsewhere.
 * They are real files beside this module (src/console/assets/, which ESLint and Prettier check);
 * `npm run build` copies them to dist/console/assets/, so the same path serves both from src and
 * from dist. Read once, when the console is first imported.
 */
function readAsset(name: string): string {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
}

export const CONSOLE_CSS = readAsset('console.css');

export const CONSOLE_JS = readAsset('console.js');
