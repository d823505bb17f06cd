// Dateline.labels (geo/map/js/basemap.js): names for every event marker (placeGrouped), a
// country's name in its visible part (anchorCells) and tooltips kept on the map (tipSpot).
'use strict';

const assert = require('node:assert/strict');
const {describe, test} = require('node:test');
const {load, plain} = require('./load');

const {place, placeGrouped, tipSpot, anchorCells, overlaps} = load('basemap').Dateline.labels;

const VIEW = {x: 0, y: 0, w: 400, h: 300};
// An event place's name, 6 px a letter and 10 px high, at its marker (radius 3).
function ev(n, x, y) {
    return {t: 'story', n, key: `place:${n}`, x, y, w: 6 * n.length, h: 10, r: 3, must: true};
}
const measure = (text) => [6 * text.length, 10];
// Markers around (200, 150) that take all four spots of a short name there.
const WALLS = [{x: 206, y: 140, w: 60, h: 20}, {x: 140, y: 140, w: 54, h: 20},
               {x: 190, y: 120, w: 20, h: 24}, {x: 190, y: 156, w: 20, h: 24}]
    .map((b) => ({...b, soft: true}));

function names(placed) {
    return plain(placed.map((p) => [p.item.n, p.item.keys || [p.item.key]]));
}

describe('placeGrouped: every event place is named, alone or in a group', () => {
    test('names that fit are placed as place() places them', () => {
        const items = [ev('Arsal', 100, 100), ev('Qara', 300, 200)];
        assert.deepEqual(plain(placeGrouped(items, [], VIEW, measure).map((p) => [p.x, p.y])),
                         plain(place(items, [], VIEW).map((p) => [p.x, p.y])));
    });
    test('a name with no room joins its nearest named neighbour: "Arsal +1"', () => {
        const items = [ev('Arsal', 130, 110), ev('Flita', 200, 150)];
        const got = names(placeGrouped(items, WALLS, VIEW, measure));
        assert.deepEqual(got, [['Arsal +1', ['place:Arsal', 'place:Flita']]]);
    });
    test('the group label takes the longer name\'s width', () => {
        const items = [ev('Arsal', 130, 110), ev('Flita', 200, 150)];
        const [spot] = placeGrouped(items, WALLS, VIEW, measure);
        assert.equal(spot.item.w, 6 * 'Arsal +1'.length);
    });
    test('a neighbour too far away is not a group: the name covers a marker instead', () => {
        const items = [ev('Arsal', 20, 20), ev('Flita', 200, 150)];
        const got = names(placeGrouped(items, WALLS, VIEW, measure));
        assert.deepEqual(got, [['Arsal', ['place:Arsal']], ['Flita', ['place:Flita']]]);
    });
    test('a basemap label never hosts a group', () => {
        const city = {t: 'city', n: 'Hermel', x: 130, y: 110, w: 36, h: 10, r: 3};
        const got = names(placeGrouped([city, ev('Flita', 200, 150)], WALLS, VIEW, measure));
        assert.deepEqual(got.map((g) => g[0]), ['Hermel', 'Flita']);
    });
    test('a left-over name never covers another label', () => {
        const items = [ev('Arsal', 200, 150), ev('Flita', 200, 150), ev('Qara', 200, 150),
                       ev('Yabrud', 200, 150), ev('Jusiyah', 200, 150)];
        const placed = placeGrouped(items, [], VIEW, measure);
        const boxes = placed.map((p) => ({x: p.x, y: p.y, w: p.item.w, h: p.item.h}));
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => assert.ok(!overlaps(a, b))));
        const keys = placed.flatMap((p) => p.item.keys || [p.item.key]);
        assert.deepEqual(plain(keys.sort()), items.map((i) => i.key).sort());
    });
    test('in a crowd every event place is named or in a named group', () => {
        const items = [];
        for (let i = 0; i < 30; i++) {
            items.push(ev(`P${i}`, 120 + (i % 6) * 30, 100 + Math.floor(i / 6) * 22));
        }
        const placed = placeGrouped(items, [], VIEW, measure);
        const keys = new Set(placed.flatMap((p) => p.item.keys || [p.item.key]));
        items.forEach((it) => assert.ok(keys.has(it.key), it.key));
        const boxes = placed.map((p) => ({x: p.x, y: p.y, w: p.item.w, h: p.item.h}));
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => assert.ok(!overlaps(a, b))));
    });
    test('a left-over name covers a marker, never a control', () => {
        const marker = {x: 210, y: 140, w: 60, h: 30, soft: true};
        const control = {x: 120, y: 130, w: 74, h: 40};
        const top = {x: 180, y: 110, w: 40, h: 34}, bottom = {x: 180, y: 156, w: 40, h: 30};
        const got = placeGrouped([ev('Flita', 200, 150)], [marker, control, top, bottom], VIEW,
                                 measure);
        assert.deepEqual(plain(got.map((p) => [p.x, p.y])), [[206, 145]]);
        assert.deepEqual(plain(placeGrouped([ev('Flita', 200, 150)],
                                            [{...marker, soft: false}, control, top, bottom],
                                            VIEW, measure)), []);
    });
    test('its inputs are left as they were', () => {
        const items = [ev('Arsal', 130, 110), ev('Flita', 200, 150)];
        const before = JSON.stringify(items);
        placeGrouped(items, WALLS, VIEW, measure);
        assert.equal(JSON.stringify(items), before);
    });
});

describe('place: a country tries its other visible points', () => {
    test('its own point off screen: the first alternative on screen', () => {
        const item = {t: 'country', n: 'Syria', x: 900, y: 150, w: 40, h: 12,
                      alt: [[1000, 10], [300, 100]]};
        assert.deepEqual(plain(place([item], [], VIEW).map((p) => [p.x, p.y])), [[280, 94]]);
    });
    test('an alternative under a label is passed over', () => {
        const item = {t: 'country', n: 'Lebanon', x: 900, y: 150, w: 40, h: 12,
                      alt: [[100, 100], [100, 200]]};
        const got = place([item], [{x: 70, y: 90, w: 60, h: 20}], VIEW);
        assert.deepEqual(plain(got.map((p) => [p.x, p.y])), [[80, 194]]);
    });
});

describe('anchorCells: the deepest cell of a country\'s visible part', () => {
    const grid = (rows) => rows.map((r) => [...r].map((c) => c === '#'));
    test('nothing visible: no point', () => {
        assert.deepEqual(plain(anchorCells(grid(['...', '...']), 3)), []);
    });
    test('a block: its middle first', () => {
        const cells = grid(['.....', '.###.', '.###.', '.###.', '.....']);
        assert.deepEqual(plain(anchorCells(cells, 1)), [[2, 2]]);
    });
    test('a part cut by the screen\'s edge: away from the edge', () => {
        const cells = grid(['###..', '###..', '###..', '###..']);
        assert.deepEqual(plain(anchorCells(cells, 2)), [[1, 1], [1, 2]]);
    });
    test('at most ``most`` points, all in the country', () => {
        const cells = grid(['#.#.#', '.#.#.', '#.#.#']);
        const got = plain(anchorCells(cells, 4));
        assert.equal(got.length, 4);
        got.forEach(([c, r]) => assert.ok(cells[r][c]));
    });
});

describe('tipSpot: a tooltip inside the map', () => {
    const inside = (s, w, h) => s.x >= 0 && s.y >= 0 && s.x + w <= 400 && s.y + h <= 300;
    const cases = [
        {name: 'above when there is room', at: [200, 150], size: [100, 40], dir: 'top',
         want: {x: 150, y: 102}},
        {name: 'below near the top edge', at: [200, 20], size: [100, 40], dir: 'bottom',
         want: {x: 150, y: 28}},
        {name: 'right near the left edge and top', at: [10, 100], size: [100, 120], dir: 'right',
         want: {x: 18, y: 40}},
        {name: 'left near the right edge and top', at: [390, 100], size: [100, 120],
         dir: 'left', want: {x: 282, y: 40}},
    ];
    for (const c of cases) {
        test(c.name, () => {
            const got = tipSpot(c.at[0], c.at[1], c.size[0], c.size[1], VIEW, 8);
            assert.deepEqual(plain(got), {dir: c.dir, ...c.want, moved: false});
        });
    }
    test('nothing fits: moved inside the map', () => {
        const got = tipSpot(380, 10, 380, 200, VIEW, 8);
        assert.ok(got.moved);
        assert.ok(inside(got, 380, 200), JSON.stringify(got));
    });
    test('every point of the map: the tooltip stays inside', () => {
        for (let x = 0; x <= 400; x += 25) {
            for (let y = 0; y <= 300; y += 25) {
                const got = tipSpot(x, y, 220, 90, VIEW, 8);
                assert.ok(inside(got, 220, 90), JSON.stringify([x, y, got]));
            }
        }
    });
});
