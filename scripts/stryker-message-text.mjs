// A StrykerJS ignorer for `npm run test:mutation` (stryker.config.json `ignorers`): no mutants in the
// text of messages meant for people, that is the value of a `reason`, `what` or `why` property and the
// exit-code meanings and JUnit hints of src/verdict/verdict.ts and the runners' records. An emptied or reworded
// message changes what a person reads, not which verdict, plan or figure the code reaches; the tests
// that do pin messages check them anyway. Stryker reports these mutants as "Ignored" with this reason.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const KEYS = new Set(['reason', 'what', 'why', 'exits', 'ambiguousExit', 'junitHint', 'looks']);
const TABLES = new Set(['DEFAULT_EXITS']);
const name = (node) => (node?.type === 'Identifier' ? node.name : node?.type === 'StringLiteral' ? node.value : undefined);

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'message-text', {
    shouldIgnore(path) {
      const parent = path.parent;
      if (parent?.type === 'ObjectProperty' && parent.value === path.node && !parent.computed && KEYS.has(name(parent.key)))
        return 'message text (a reason for people)';
      if (parent?.type === 'VariableDeclarator' && parent.init === path.node && TABLES.has(name(parent.id)))
        return 'message text (a table of explanations)';
      return undefined;
    },
  }),
];
