"""Reports to share: one self-contained HTML file per analysis (``check --html``,
``stats --html``, ``compare --html``, and the window's Analyze menu), with its styles,
script and pictures inline, so that it opens anywhere with no network."""
