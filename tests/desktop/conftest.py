"""The desktop tests run in a private home, as the packaging tests do."""

from tests.packaging.conftest import desktop_env  # noqa: F401 - a fixture
