"""The Qt layer: thin adapters and viewers over the core. The only place that imports Qt."""
