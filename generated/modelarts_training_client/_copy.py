"""A job the service answered, as the body of a new create: ``JobResponse.to_create_training_job_body()``.

Which fields go where was decided from the spec when this client was generated
(``PLAN``): only fields the create request documents are copied; fields the service sets
(``readOnly`` in the request), answer-only fields and fields the spec does not know are left
out; ``null`` is never copied; a list of maps the answer holds where the request wants one
map is merged in order; and at every object the spec's field rules are followed by leaving
fields out (of fields that exclude each other the first stays; a field whose companions are
missing goes). Loaded on the first copy only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import models as _models
from ._field_rules import Excludes, Requires
from ._http import validate_body
from .client import _CREATE_TRAINING_JOB

if TYPE_CHECKING:
    from .models import Job, JobResponse

__all__ = ["PLAN", "copy_value", "create_training_job_body"]


class _AsIs:
    """A value copied as it is (a scalar, or a value the spec does not describe further)."""

    def __repr__(self) -> str:
        return "AS_IS"


AS_IS = _AsIs()


@dataclass(frozen=True)
class Fields:
    """An object: the fields the request documents, each with its plan, and its field rules."""

    fields: Mapping[str, Plan]
    rules: tuple[Excludes | Requires, ...]


@dataclass(frozen=True)
class Items:
    """An array: every item by one plan."""

    item: Plan


@dataclass(frozen=True)
class Values:
    """A map: every value by one plan; ``merge_list``: the answer holds a list of maps here."""

    value: Plan
    merge_list: bool


Plan = _AsIs | Fields | Items | Values
_LEFT_OUT = object()

PLAN: Plan = Fields(
    {
        "kind": AS_IS,
        "metadata": Fields(
            {
                "name": AS_IS,
                "workspace_id": AS_IS,
                "description": AS_IS,
                "annotations": Values(AS_IS, merge_list=False),
            },
            (),
        ),
        "algorithm": Fields(
            {
                "id": AS_IS,
                "name": AS_IS,
                "subscription_id": AS_IS,
                "item_version_id": AS_IS,
                "code_dir": AS_IS,
                "boot_file": AS_IS,
                "autosearch_config_path": AS_IS,
                "autosearch_framework_path": AS_IS,
                "command": AS_IS,
                "parameters": Items(
                    Fields(
                        {
                            "name": AS_IS,
                            "value": AS_IS,
                            "description": AS_IS,
                            "constraint": Fields(
                                {
                                    "type": AS_IS,
                                    "editable": AS_IS,
                                    "required": AS_IS,
                                    "sensitive": AS_IS,
                                    "valid_type": AS_IS,
                                    "valid_range": Items(AS_IS),
                                },
                                (),
                            ),
                            "i18n_description": Fields(
                                {"language": AS_IS, "description": AS_IS}, ()
                            ),
                        },
                        (),
                    )
                ),
                "policies": Fields(
                    {
                        "auto_search": Fields(
                            {
                                "skip_search_params": AS_IS,
                                "reward_attrs": Items(
                                    Fields({"name": AS_IS, "mode": AS_IS, "regex": AS_IS}, ())
                                ),
                                "search_params": Items(
                                    Fields(
                                        {
                                            "name": AS_IS,
                                            "param_type": AS_IS,
                                            "lower_bound": AS_IS,
                                            "upper_bound": AS_IS,
                                            "discrete_points_num": AS_IS,
                                            "discrete_values": Items(AS_IS),
                                        },
                                        (),
                                    )
                                ),
                                "algo_configs": Items(
                                    Fields(
                                        {
                                            "name": AS_IS,
                                            "params": Items(
                                                Fields(
                                                    {"key": AS_IS, "value": AS_IS, "type": AS_IS},
                                                    (),
                                                )
                                            ),
                                        },
                                        (),
                                    )
                                ),
                            },
                            (),
                        )
                    },
                    (),
                ),
                "inputs": Items(
                    Fields(
                        {
                            "name": AS_IS,
                            "description": AS_IS,
                            "local_dir": AS_IS,
                            "remote": Fields(
                                {
                                    "dataset": Fields(
                                        {"id": AS_IS, "version_id": AS_IS, "obs_url": AS_IS}, ()
                                    ),
                                    "obs": Fields({"obs_url": AS_IS}, ()),
                                },
                                (
                                    Excludes(
                                        ("dataset", "obs"),
                                        "guidance at /components/schemas/InputDataInfo/not; ledger entry guidance-input-dataset-or-obs",
                                    ),
                                ),
                            ),
                            "remote_constraint": Items(
                                Fields({"data_type": AS_IS, "attributes": AS_IS}, ())
                            ),
                        },
                        (),
                    )
                ),
                "outputs": Items(
                    Fields(
                        {
                            "name": AS_IS,
                            "description": AS_IS,
                            "local_dir": AS_IS,
                            "remote": Fields({"obs": Fields({"obs_url": AS_IS}, ())}, ()),
                        },
                        (),
                    )
                ),
                "engine": Fields(
                    {
                        "engine_id": AS_IS,
                        "engine_name": AS_IS,
                        "engine_version": AS_IS,
                        "image_url": AS_IS,
                    },
                    (
                        Requires(
                            ("engine_name", "engine_version"),
                            "guidance at /components/schemas/JobEngine/dependentRequired/engine_name; ledger entry guidance-engine-choose-one",
                        ),
                        Requires(
                            ("engine_version", "engine_name"),
                            "guidance at /components/schemas/JobEngine/dependentRequired/engine_version; ledger entry guidance-engine-choose-one",
                        ),
                        Requires(
                            ("install_sys_packages", "engine_name", "engine_version", "image_url"),
                            "guidance at /components/schemas/JobEngine/dependentRequired/install_sys_packages; ledger entry guidance-engine-choose-one",
                        ),
                        Excludes(
                            ("engine_id", "engine_name"),
                            "guidance at /components/schemas/JobEngine/allOf/0/not; ledger entry guidance-engine-choose-one",
                        ),
                        Excludes(
                            ("engine_id", "image_url"),
                            "guidance at /components/schemas/JobEngine/allOf/1/not; ledger entry guidance-engine-choose-one",
                        ),
                    ),
                ),
                "local_code_dir": AS_IS,
                "working_dir": AS_IS,
                "environments": Values(AS_IS, merge_list=True),
            },
            (
                Requires(
                    ("subscription_id", "item_version_id"),
                    "guidance at /components/schemas/JobAlgorithm/dependentRequired/subscription_id; ledger entry guidance-algorithm-choose-one",
                ),
                Requires(
                    ("item_version_id", "subscription_id"),
                    "guidance at /components/schemas/JobAlgorithm/dependentRequired/item_version_id; ledger entry guidance-algorithm-choose-one",
                ),
                Requires(
                    ("code_dir", "boot_file"),
                    "guidance at /components/schemas/JobAlgorithm/dependentRequired/code_dir; ledger entry guidance-algorithm-choose-one",
                ),
                Requires(
                    ("boot_file", "code_dir"),
                    "guidance at /components/schemas/JobAlgorithm/dependentRequired/boot_file; ledger entry guidance-algorithm-choose-one",
                ),
                Excludes(
                    ("id", "subscription_id"),
                    "guidance at /components/schemas/JobAlgorithm/allOf/0/not; ledger entry guidance-algorithm-choose-one",
                ),
                Excludes(
                    ("id", "code_dir"),
                    "guidance at /components/schemas/JobAlgorithm/allOf/1/not; ledger entry guidance-algorithm-choose-one",
                ),
                Excludes(
                    ("subscription_id", "code_dir"),
                    "guidance at /components/schemas/JobAlgorithm/allOf/2/not; ledger entry guidance-algorithm-choose-one",
                ),
            ),
        ),
        "tasks": Items(
            Fields(
                {
                    "role": AS_IS,
                    "algorithm": Fields(
                        {
                            "job_config": Fields(
                                {
                                    "parameters": Items(
                                        Fields(
                                            {
                                                "name": AS_IS,
                                                "value": AS_IS,
                                                "description": AS_IS,
                                                "constraint": Fields(
                                                    {
                                                        "type": AS_IS,
                                                        "editable": AS_IS,
                                                        "required": AS_IS,
                                                        "sensitive": AS_IS,
                                                        "valid_type": AS_IS,
                                                        "valid_range": Items(AS_IS),
                                                    },
                                                    (),
                                                ),
                                                "i18n_description": Fields(
                                                    {"language": AS_IS, "description": AS_IS}, ()
                                                ),
                                            },
                                            (),
                                        )
                                    ),
                                    "inputs": Items(
                                        Fields(
                                            {
                                                "name": AS_IS,
                                                "description": AS_IS,
                                                "local_dir": AS_IS,
                                                "remote": Fields(
                                                    {
                                                        "dataset": Fields(
                                                            {
                                                                "id": AS_IS,
                                                                "version_id": AS_IS,
                                                                "obs_url": AS_IS,
                                                            },
                                                            (),
                                                        ),
                                                        "obs": Fields({"obs_url": AS_IS}, ()),
                                                    },
                                                    (
                                                        Excludes(
                                                            ("dataset", "obs"),
                                                            "guidance at /components/schemas/InputDataInfo/not; ledger entry guidance-input-dataset-or-obs",
                                                        ),
                                                    ),
                                                ),
                                                "remote_constraint": Items(
                                                    Fields(
                                                        {"data_type": AS_IS, "attributes": AS_IS},
                                                        (),
                                                    )
                                                ),
                                            },
                                            (),
                                        )
                                    ),
                                    "outputs": Items(
                                        Fields(
                                            {
                                                "name": AS_IS,
                                                "description": AS_IS,
                                                "local_dir": AS_IS,
                                                "remote": Fields(
                                                    {"obs": Fields({"obs_url": AS_IS}, ())}, ()
                                                ),
                                            },
                                            (),
                                        )
                                    ),
                                    "engine": Fields(
                                        {
                                            "engine_id": AS_IS,
                                            "engine_name": AS_IS,
                                            "engine_version": AS_IS,
                                            "image_url": AS_IS,
                                        },
                                        (
                                            Requires(
                                                ("engine_name", "engine_version"),
                                                "guidance at /components/schemas/JobEngine/dependentRequired/engine_name; ledger entry guidance-engine-choose-one",
                                            ),
                                            Requires(
                                                ("engine_version", "engine_name"),
                                                "guidance at /components/schemas/JobEngine/dependentRequired/engine_version; ledger entry guidance-engine-choose-one",
                                            ),
                                            Requires(
                                                (
                                                    "install_sys_packages",
                                                    "engine_name",
                                                    "engine_version",
                                                    "image_url",
                                                ),
                                                "guidance at /components/schemas/JobEngine/dependentRequired/install_sys_packages; ledger entry guidance-engine-choose-one",
                                            ),
                                            Excludes(
                                                ("engine_id", "engine_name"),
                                                "guidance at /components/schemas/JobEngine/allOf/0/not; ledger entry guidance-engine-choose-one",
                                            ),
                                            Excludes(
                                                ("engine_id", "image_url"),
                                                "guidance at /components/schemas/JobEngine/allOf/1/not; ledger entry guidance-engine-choose-one",
                                            ),
                                        ),
                                    ),
                                },
                                (),
                            ),
                            "code_dir": AS_IS,
                            "boot_file": AS_IS,
                            "engine": Fields(
                                {
                                    "engine_id": AS_IS,
                                    "engine_name": AS_IS,
                                    "engine_version": AS_IS,
                                    "image_url": AS_IS,
                                },
                                (
                                    Requires(
                                        ("engine_name", "engine_version"),
                                        "guidance at /components/schemas/TaskAlgorithmEngine/dependentRequired/engine_name; ledger entry guidance-task-engine-choose-one",
                                    ),
                                    Requires(
                                        ("engine_version", "engine_name"),
                                        "guidance at /components/schemas/TaskAlgorithmEngine/dependentRequired/engine_version; ledger entry guidance-task-engine-choose-one",
                                    ),
                                    Excludes(
                                        ("engine_id", "engine_name"),
                                        "guidance at /components/schemas/TaskAlgorithmEngine/allOf/0/not; ledger entry guidance-task-engine-choose-one",
                                    ),
                                    Excludes(
                                        ("engine_id", "image_url"),
                                        "guidance at /components/schemas/TaskAlgorithmEngine/allOf/1/not; ledger entry guidance-task-engine-choose-one",
                                    ),
                                ),
                            ),
                            "inputs": Items(
                                Fields(
                                    {
                                        "name": AS_IS,
                                        "description": AS_IS,
                                        "local_dir": AS_IS,
                                        "remote": Fields(
                                            {"obs": Fields({"obs_url": AS_IS}, ())}, ()
                                        ),
                                    },
                                    (),
                                )
                            ),
                            "outputs": Items(
                                Fields(
                                    {
                                        "name": AS_IS,
                                        "description": AS_IS,
                                        "local_dir": AS_IS,
                                        "remote": Fields(
                                            {"obs": Fields({"obs_url": AS_IS}, ())}, ()
                                        ),
                                    },
                                    (),
                                )
                            ),
                            "local_code_dir": AS_IS,
                            "working_dir": AS_IS,
                        },
                        (
                            Requires(
                                ("code_dir", "boot_file"),
                                "guidance at /components/schemas/TaskAlgorithm/dependentRequired/code_dir; ledger entry guidance-task-algorithm-code-pair",
                            ),
                            Requires(
                                ("boot_file", "code_dir"),
                                "guidance at /components/schemas/TaskAlgorithm/dependentRequired/boot_file; ledger entry guidance-task-algorithm-code-pair",
                            ),
                        ),
                    ),
                    "task_resource": Fields({"flavor_id": AS_IS, "node_count": AS_IS}, ()),
                },
                (),
            )
        ),
        "spec": Fields(
            {
                "resource": Fields({"flavor_id": AS_IS, "node_count": AS_IS, "pool_id": AS_IS}, ()),
                "volumes": Items(
                    Fields(
                        {
                            "nfs": Fields(
                                {"nfs_server_path": AS_IS, "local_path": AS_IS, "read_only": AS_IS},
                                (),
                            )
                        },
                        (),
                    )
                ),
                "log_export_path": Fields({"obs_url": AS_IS, "host_path": AS_IS}, ()),
                "auto_stop": Fields({}, ()),
            },
            (),
        ),
    },
    (
        Excludes(
            ("spec", "tasks"),
            "guidance at /components/schemas/Job/not; ledger entry guidance-job-spec-or-tasks",
        ),
    ),
)


def copy_value(value: Any, plan: Plan) -> Any:
    """``value`` (plain JSON values) copied by ``plan``; ``_LEFT_OUT`` when nothing of it is."""
    if value is None:
        return _LEFT_OUT
    if isinstance(plan, _AsIs):
        return value
    if isinstance(plan, Fields):
        return _copy_fields(value, plan) if isinstance(value, dict) else _LEFT_OUT
    if isinstance(plan, Items):
        if not isinstance(value, list):
            return _LEFT_OUT
        items = (copy_value(item, plan.item) for item in value)
        return [item for item in items if item is not _LEFT_OUT]
    if plan.merge_list and isinstance(value, list):
        merged: dict[str, Any] = {}
        for item in value:
            if isinstance(item, dict):
                merged.update(item)
        value = merged
    if not isinstance(value, dict):
        return _LEFT_OUT
    values = ((key, copy_value(item, plan.value)) for key, item in value.items())
    return {key: item for key, item in values if item is not _LEFT_OUT}


def _copy_fields(value: dict[str, Any], plan: Fields) -> dict[str, Any]:
    copied = {}
    for name, inner in plan.fields.items():
        if name in value:
            item = copy_value(value[name], inner)
            if item is not _LEFT_OUT:
                copied[name] = item
    # Each round leaves one field out: at most one round per field, and one to see it holds.
    for _ in range(len(copied) + 1):
        drop = _field_to_drop(plan.rules, frozenset(copied))
        if drop is None:
            break
        del copied[drop]
    return copied


def _field_to_drop(rules: tuple[Excludes | Requires, ...], given: frozenset[str]) -> str | None:
    """The field to leave out for the first rule ``given`` breaks; None when it breaks none."""
    for rule in rules:
        drop = rule.to_drop(given)
        if drop is not None:
            return drop
    return None


def create_training_job_body(job: JobResponse) -> Job:
    """``job`` as the body of ``create_training_job`` (see the module's docstring).

    Raises ``RequestValidationError`` when the copy still breaks a rule of the spec (a job
    whose name the request's pattern refuses, a required field the answer lacks), naming the
    field with secret values masked."""
    document = job.model_dump(mode="json", by_alias=True, exclude_unset=True)
    body = copy_value(document, PLAN)
    return validate_body(_CREATE_TRAINING_JOB, _models.Job, body)
