import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // dashboard/ is a browser app with its own tsconfig: `npm run dashboard:check` type-checks it.
  { ignores: ['node_modules/', 'dist/', 'dashboard/', '.data/', '.tools/', 'coverage/', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Layout is prettier's: it breaks `request(app)\n[method](…)` chains that way on purpose.
      'no-unexpected-multiline': 'off',
    },
  },
  {
    // Workflow code is replayed: it must stay deterministic and free of I/O.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Node built-ins are not allowed in workflow code.' },
            {
              group: [
                'fs',
                'path',
                'crypto',
                'http',
                'https',
                'net',
                'os',
                'child_process',
                'timers',
                'events',
                'stream',
                'util',
                'worker_threads',
                'dns',
                'zlib',
              ],
              message: 'Node built-ins are not allowed in workflow code.',
            },
            {
              group: ['@temporalio/*', '!@temporalio/workflow', '!@temporalio/common'],
              message: 'Workflows may only import @temporalio/workflow.',
            },
            { group: ['undici', 'pg', '@mikro-orm/*', 'express', 'pino', 'pino-http'], message: 'No I/O libraries in workflow code.' },
            {
              group: [
                '**/activities',
                '**/activities/**',
                '**/src/db/**',
                '**/src/api/**',
                '**/src/contexts/*/services/**',
                '**/src/contexts/*/entities/**',
                '**/src/contexts/*/api/**',
              ],
              allowTypeImports: true,
              message: 'Workflows import activities (and anything that does I/O) type-only.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'No I/O in workflow code.' },
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'process', message: 'No process access in workflow code.' },
        { name: 'require', message: 'No dynamic requires in workflow code.' },
      ],
      'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date']", message: 'No clocks in workflow code: let an activity stamp times.' }],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'No clocks in workflow code: let an activity stamp times.' },
        { object: 'Math', property: 'random', message: 'Use uuid4() or the deterministic random from @temporalio/workflow.' },
        { object: 'crypto', property: 'randomUUID', message: 'Use uuid4() from @temporalio/workflow.' },
      ],
    },
  },
  {
    // The payment workflow reads as the process, each part in its file (docs/payments.md): no function long enough to hold two.
    files: ['workflows/payments/**/*.ts'],
    ignores: ['workflows/payments/incoming-payment.ts'], // another workflow, not split yet (one 67-line function)
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Replay's default debug mode leaves promise hooks in the jest process that crash later test files (stack guide T3).
    files: ['test/**/*.ts'],
    ignores: ['test/support/replay.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Worker', property: 'runReplayHistory', message: 'Replay through replayHistory (test/support/replay.ts): never in debug mode.' },
        { object: 'Worker', property: 'runReplayHistories', message: 'Replay through replayHistory (test/support/replay.ts): never in debug mode.' },
      ],
    },
  },
);
