// Loads the map's scripts (geo/map/js) the way a page without Leaflet would: each into one fresh
// vm context whose ``window`` is a bare object. What the scripts expose on window.Dateline is
// what the tests call.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const JS_DIR = path.resolve(__dirname, '..', '..', 'geo', 'map', 'js');

// The ``window`` after running the scripts ``names`` (without .js) in order.
function load(...names) {
    return loadInto({}, ...names);
}

// The same, into a ``window`` that already holds what the page set before the scripts ran.
function loadInto(window, ...names) {
    const context = vm.createContext({window});
    for (const name of names) {
        const file = path.join(JS_DIR, `${name}.js`);
        vm.runInContext(fs.readFileSync(file, 'utf8'), context, {filename: file});
    }
    return window;
}

// A value made in the vm as one made here: deepStrictEqual compares prototypes, and the vm's
// arrays and objects have their own.
function plain(value) {
    return structuredClone(value);
}

module.exports = {load, loadInto, plain};
