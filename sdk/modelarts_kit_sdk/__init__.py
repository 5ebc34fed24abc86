"""The vendor's Python SDK (``huaweicloudsdkmodelarts``) as a second source for the spec.

``diff_sdk`` compares the spec with one SDK release's models of the spec's operations;
``compare_sdks`` lists what changed in those models between two releases. Releases come from
the installed package, a wheel, or PyPI (``pip download`` into a cache); their model modules
are read as source text, never imported.
"""

from modelarts_kit_sdk.compare import CompareReport, FieldChange, OperationChanges, compare_sdks
from modelarts_kit_sdk.diff import Occurrence, SchemaDrift, SdkDiffReport, SdkFinding, diff_sdk
from modelarts_kit_sdk.errors import SdkError
from modelarts_kit_sdk.evidence import SdkEvidence, load_sdk_evidence
from modelarts_kit_sdk.models import SdkAttribute, SdkModel, SdkModels, SdkType
from modelarts_kit_sdk.sources import SdkSource, from_version, from_wheel, installed, resolve_source

__all__ = [
    "CompareReport",
    "FieldChange",
    "Occurrence",
    "OperationChanges",
    "SchemaDrift",
    "SdkAttribute",
    "SdkDiffReport",
    "SdkError",
    "SdkEvidence",
    "SdkFinding",
    "SdkModel",
    "SdkModels",
    "SdkSource",
    "SdkType",
    "compare_sdks",
    "diff_sdk",
    "from_version",
    "from_wheel",
    "installed",
    "load_sdk_evidence",
    "resolve_source",
]
