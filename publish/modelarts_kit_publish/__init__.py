"""``modelarts-kit publish``: the bundled spec, a static HTML reference and the changelog."""

from modelarts_kit_publish.errors import PreviousSpecError, PublishError, VersionReusedError
from modelarts_kit_publish.publish import PublishResult, publish_spec

__all__ = [
    "PreviousSpecError",
    "PublishError",
    "PublishResult",
    "VersionReusedError",
    "publish_spec",
]
