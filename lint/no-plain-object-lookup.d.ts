import type { ESLint, Rule } from 'eslint';

export const noPlainObjectLookup: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
