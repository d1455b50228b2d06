"""The program as a desktop application of a pip-installed environment: its desktop
entry and MIME type (the same files the bundle's installer ships) and the commands that
register them (:mod:`.linux`)."""
