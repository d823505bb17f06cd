"""A story's events grouped by place: each event's place row, and the events of each place in
row order, so that a date window that is a run of rows is counted per place by binary search.

Built with a big story's cache entry (``geo.story.events_store``) and read back memory-mapped,
or built on first use for any other story.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

# The arrays on disk, one .npy each in this folder of a cache entry (mapped, not read, when
# the story opens).
FOLDER = "by-place"


def place_codes(events: pd.DataFrame, places: pd.DataFrame) -> np.ndarray:
    """Each event's row in ``places`` (-1 for an unknown place_id), as int32."""
    ids = events["place_id"]
    if isinstance(ids.dtype, pd.CategoricalDtype):
        # A big story's place ids are categorical: look up each distinct id once, not a
        # million strings (that made a million Python objects: seconds and ~100 MB).
        rows = pd.Index(places["id"]).get_indexer(ids.cat.categories).astype(np.int32)
        codes = ids.cat.codes.to_numpy()
        return np.where(codes >= 0, rows[codes], -1).astype(np.int32)
    return pd.Index(places["id"]).get_indexer(ids).astype(np.int32)


@dataclass(frozen=True)
class PlaceIndex:
    """A story's events grouped by place, built once per story: a window that is a run of the
    story's rows is then counted and summed up per place by binary search, not by a pass over
    its events (the slider's every move at a million events)."""

    codes: np.ndarray  # each event's place row (-1: unknown), as place_codes
    keys: np.ndarray  # place row * events + event row, sorted (int64): the events by place
    ends: np.ndarray  # each event's last day (end_date, else date) in key order, then one more
    # A categorical category column's codes and names, and its counts per block of BLOCK rows.
    categories: tuple[np.ndarray, pd.Index, np.ndarray] | None = None
    # Each place's first key at or after a row, for the last few rows asked (``groups``).
    _at: dict = field(default_factory=dict, compare=False, repr=False)

    BLOCK = 1 << 16

    @classmethod
    def of(cls, events: pd.DataFrame, places: pd.DataFrame) -> PlaceIndex:
        """The index of ``events`` (labelled by row) over ``places``."""
        codes = place_codes(events, places)
        if len(places) < np.iinfo(np.uint16).max:
            # A stable sort of 16-bit keys is a radix sort: 0.6 s at 10M events, not 2 s.
            rows = np.argsort((codes + 1).astype(np.uint16), kind="stable")
        else:
            rows = np.argsort(codes, kind="stable")
        keys = codes[rows].astype(np.int64) * len(codes) + rows
        dates = events["date"].to_numpy()
        ends = events["end_date"].to_numpy() if "end_date" in events else dates
        ends = np.where(pd.isna(ends), dates, ends).astype(dates.dtype)[rows]
        del rows
        # One past the end, so a group ending at the last row can open a reduceat slice.
        return cls(codes, keys, np.append(ends, ends[:1]), cls._blocks(events))

    @classmethod
    def _blocks(cls, events: pd.DataFrame) -> tuple[np.ndarray, pd.Index, np.ndarray] | None:
        column = events.get("category")
        if column is None or not isinstance(column.dtype, pd.CategoricalDtype):
            return None
        codes = column.cat.codes.to_numpy()
        names = column.cat.categories
        n_blocks = -(-len(codes) // cls.BLOCK)
        cell = (np.arange(len(codes)) // cls.BLOCK) * len(names) + codes
        counts = np.bincount(cell[codes >= 0], minlength=n_blocks * len(names))
        return codes, names, counts.reshape(n_blocks, len(names))

    def categories_in(self, span: tuple[int, int]) -> list[str] | None:
        """The categories of the events in ``span``, sorted; None without a categorical column.
        Whole blocks are read from their counts; only the rows of the two ends are looked at."""
        if self.categories is None:
            return None
        codes, names, blocks = self.categories
        first, stop = span
        whole_from, whole_to = -(-first // self.BLOCK), stop // self.BLOCK
        if whole_from >= whole_to:
            ends = codes[first:stop]
            seen = np.zeros(len(names), dtype=bool)
        else:
            ends = np.concatenate(
                [codes[first : whole_from * self.BLOCK], codes[whole_to * self.BLOCK : stop]]
            )
            seen = blocks[whole_from:whole_to].any(axis=0)
        seen[np.unique(ends[ends >= 0])] = True
        return sorted(str(c) for c in names[seen])

    def span(self, window: pd.DataFrame) -> tuple[int, int] | None:
        """(first row, row after the last) when ``window`` is a run of the story's rows (as
        ``in_window`` slices them), else None."""
        idx = window.index
        run = isinstance(idx, pd.RangeIndex) and len(idx) > 0 and idx.step == 1
        if run and idx.start >= 0 and idx.stop <= len(self.codes):
            return idx.start, idx.stop
        return None

    def groups(self, span: tuple[int, int], n_places: int) -> tuple[np.ndarray, np.ndarray]:
        """Per place row, where its events in ``span`` start and stop in ``keys``."""
        return self._first_at(span[0], n_places), self._first_at(span[1], n_places)

    def _first_at(self, row: int, n_places: int) -> np.ndarray:
        # A slider move changes one end of the window: the other end's searches are kept
        # (20,000 places in a million keys: a few ms a search).
        got = self._at.get((row, n_places))
        if got is None:
            base = np.arange(n_places, dtype=np.int64) * len(self.codes)
            got = np.searchsorted(self.keys, base + row)
            got.flags.writeable = False  # shared by every caller of these bounds
            if len(self._at) >= 8:
                self._at.clear()
            self._at[(row, n_places)] = got
        return got

    def summary(self, window: pd.DataFrame, span, groups, wanted: np.ndarray) -> pd.DataFrame:
        """``place_summary`` of a window that is ``span``, whose ``groups`` are given."""
        lo, hi = groups
        wanted = np.sort(np.asarray(wanted, dtype=np.int64))
        wanted = wanted[(wanted >= 0) & (wanted < len(lo))]
        wanted = wanted[hi[wanted] > lo[wanted]]
        lo, hi = lo[wanted], hi[wanted]
        base = wanted * len(self.codes)
        first, latest = self.keys[lo] - base, self.keys[hi - 1] - base
        dates = window["date"].to_numpy()
        cuts = np.column_stack([lo, hi]).ravel()
        # Every other slice is a place's events (places in order, so the slices between
        # them are in order too); a slice from hi to the next place's lo is thrown away.
        last = np.maximum.reduceat(self.ends.view(np.int64), cuts)[::2] if len(cuts) else cuts
        return pd.DataFrame(
            {
                "events": hi - lo,
                "first": dates[first - span[0]],
                "last": last.view(dates.dtype) if len(cuts) else dates[:0],
                "category": window["category"].iloc[latest - span[0]].to_numpy(),
                "order": first - span[0],
            },
            index=pd.Index(wanted),
        )

    def save(self, folder: Path) -> None:
        """Write the index into ``folder`` (a cache entry's, renamed into place once complete)."""
        folder.mkdir(parents=True, exist_ok=True)
        arrays = {"codes": self.codes, "keys": self.keys, "ends": self.ends.view(np.int64)}
        if self.categories is not None:
            codes, names, blocks = self.categories
            arrays |= {"cat_codes": codes, "cat_names": np.array(names, dtype=str)}
            arrays["blocks"] = blocks
        for name, array in arrays.items():
            np.save(folder / f"{name}.npy", np.ascontiguousarray(array), allow_pickle=False)
        meta = {"events": len(self.codes), "block": self.BLOCK, "unit": _unit(self.ends)}
        (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path, n_events: int) -> PlaceIndex | None:
        """The index saved in ``folder`` for ``n_events`` events, memory-mapped; None when it is
        missing or does not fit (the caller builds it instead)."""
        try:
            meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
            if meta["events"] != n_events or meta["block"] != cls.BLOCK:
                return None
            arrays = {
                f.stem: np.load(f, mmap_mode="r", allow_pickle=False) for f in folder.glob("*.npy")
            }
            codes, keys = arrays["codes"], arrays["keys"]
            ends = arrays["ends"].view(f"datetime64[{meta['unit']}]")
            categories = None
            if "blocks" in arrays:
                names = pd.Index(arrays["cat_names"].tolist())
                categories = (arrays["cat_codes"], names, arrays["blocks"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if len(codes) != n_events or len(keys) != n_events or len(ends) != n_events + 1:
            return None
        return cls(codes, keys, ends, categories)


def _unit(days: np.ndarray) -> str:
    return np.datetime_data(days.dtype)[0]
