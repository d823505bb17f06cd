// ESLint's flat config: the map's scripts (geo/map/js) run in the browser as classic scripts,
// beside Leaflet's global ``L``; the Node tests (tests/js) and this file are CommonJS.
'use strict';

const js = require('@eslint/js');
const globals = require('globals');

const strict = {
    ...js.configs.recommended.rules,
    'no-unused-vars': ['error', {args: 'after-used', caughtErrors: 'none'}],
    eqeqeq: ['error', 'always'],
};

module.exports = [
    {
        // Vendored builds and what the app generates or installs are not ours to lint.
        ignores: ['geo/map/js/vendor/**', 'static/**', 'node_modules/**', '.venv/**',
                  'bench/data/**', 'test-results/**'],
    },
    {
        files: ['geo/map/js/**/*.js'],
        languageOptions: {
            // The scripts use ES5 syntax with ES2015 built-ins (Set, Map, Promise); 2017 is
            // what every browser the dashboard supports parses.
            ecmaVersion: 2017,
            sourceType: 'script',
            globals: {...globals.browser, L: 'readonly'},
        },
        rules: {
            ...strict,
            // Each script keeps its names inside a function: what it shares goes on ``window``.
            'no-implicit-globals': 'error',
        },
    },
    {
        // Short functions, the way Leaflet's own classes are written (story.js joins once its
        // draw is split).
        files: ['geo/map/js/{basemap,editor,png,publish}.js'],
        rules: {'max-lines-per-function': ['error', {max: 60, IIFEs: false}]},
    },
    {
        files: ['tests/js/**/*.js', 'eslint.config.js'],
        languageOptions: {
            ecmaVersion: 2022,
            sourceType: 'commonjs',
            globals: {...globals.node},
        },
        rules: strict,
    },
];
