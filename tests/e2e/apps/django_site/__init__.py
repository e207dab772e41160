"""A tiny Django project for the real-apps corpus (run by ../corpus.py with .venv-apps): settings
in code, sqlite in a temp dir, the admin with a shop app (a changelist with filters and search, a
change form with ``filter_horizontal``)."""
