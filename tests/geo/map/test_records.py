"""geo.map.payload.records: rows of a frame as itertuples gives them."""

from __future__ import annotations

import pandas as pd
import pytest

from geo.map.payload import records

FRAMES = [
    pd.DataFrame({"id": ["a", "b"], "lat": [33.5, None], "n": [1, 2]}),
    pd.DataFrame({"id": pd.Series(["x"], dtype="string"), "when": pd.to_datetime(["2017-08-28"])}),
    pd.DataFrame({"id": [], "lat": []}),
    pd.DataFrame({"a b": [1], "class": [2]}),  # names itertuples renames
    pd.DataFrame(index=pd.Index([5, 6])),
]


@pytest.mark.parametrize("frame", FRAMES)
@pytest.mark.parametrize("index", [True, False])
def test_records_are_itertuples(frame, index):
    want = list(frame.itertuples(index=index))
    got = list(records(frame, index=index))
    assert [r._fields for r in got] == [r._fields for r in want]
    assert [tuple(r) for r in got] == [tuple(r) for r in want] or all(
        all(a == b or (pd.isna(a) and pd.isna(b)) for a, b in zip(g, w, strict=True))
        for g, w in zip(got, want, strict=True)
    )
