"""The dashboard's parts, laid out by app.py: one module per part of the page.

``state`` (the view kept in the session), ``stories`` (the story on screen and its caches),
``sidebar``, ``chapters``, ``dates``, ``map_panel``, ``details``, ``table``, ``charts`` and
``reruns``. Streamlit lives here and in app.py; ``geo/`` never imports this package.
"""
