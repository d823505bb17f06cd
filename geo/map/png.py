"""The map's "Download PNG" button (``js/png.js``): the current view as a picture, for slides.

The picture is drawn in the browser by the vendored ``html-to-image`` (npm, MIT; refreshed by
``data/scripts/vendor_js.py``), with the story's title, the date window and the attribution in a
strip across its top. The dashboard serves both scripts as static files; the published page
inlines them. In the dashboard the map lives in streamlit_folium's component iframe, whose
sandbox (Streamlit 1.67) includes ``allow-downloads``, so the button's download works from
inside it (tests/e2e/test_png.py checks the attribute and the download). The published page's
policy needs nothing new: html-to-image draws through a ``data:`` SVG image (``img-src data:``)
and the file is saved from a ``blob:`` link, which the policy does not govern.
"""

from __future__ import annotations

from datetime import date

from branca.element import MacroElement
from folium.elements import JSCSSMixin
from jinja2 import Template

from geo.map.assets import PNG_SCRIPTS, load_js, script_urls

ATTRIBUTION = (
    "Basemap: Natural Earth (public domain), GSHHG (LGPL), GeoNames (CC BY 4.0) · "
    "outlines of fronts are approximate · Leaflet · made with Dateline"
)


def png_config(story_id: str, title: str, start: date, end: date) -> dict:
    """What the button needs: the file name's story id, the caption's title and attribution,
    and the story's span (the window until the page sets one)."""
    return {
        "id": story_id,
        "title": title,
        "start": start.isoformat(),
        "end": end.isoformat(),
        "attribution": ATTRIBUTION,
    }


class PngButton(JSCSSMixin, MacroElement):
    """The "Download PNG" control on a folium map; ``inline`` writes its scripts into the page.

    Decided per export (issue 28): the picture follows the filters as the map does, since it
    is drawn from the map as it is on screen (js/png.js), not from the story.
    """

    # Jinja's tojson escapes <, >, & and ': a title cannot end the script tag.
    _template = Template(
        """
        {% macro script(this, kwargs) %}
        {%- if this.inline %}{{ this.inline_js }}{% endif %}
        window.Dateline.pngControl({{ this._parent.get_name() }}, {{ this.cfg|tojson }});
        {% endmacro %}
        """
    )

    def __init__(self, cfg: dict, inline: bool = False):
        super().__init__()
        self._name = "DatelinePng"
        self.cfg, self.inline = cfg, inline
        self.inline_js = "\n".join(load_js(n) for n in PNG_SCRIPTS) if inline else ""
        self.default_js = [] if inline else list(script_urls(PNG_SCRIPTS))
