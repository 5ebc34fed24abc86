"""What the pages say a request must be, as two ends: ``lenient`` refuses only what a page
states, ``strict`` also refuses what no page documents and enforces the prose rules.

Each rule names the page and the words it comes from. The request tables are read from the
pages (``pages.py``); the table each object's fields come from is mapped by hand below,
because the create page's pipe tables carry no titles.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .pages import CREATE_PAGE, Row, pipe_tables

Mode = Literal["lenient", "strict"]
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)


class Invalid(Exception):
    """A request a page (or, at the strict end, the pages' silence) refuses."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why


# The create page (seeds/004) prints its request tables in this order, untitled; the type cell
# of each row names the object ("JobMetadata object", "Array of Input objects"), and the tables
# follow the rows that refer to them. Objects whose type has no table (log_export_path,
# auto_stop, annotations) state no fields.
CREATE_TABLES: dict[str, int] = {
    "": 1,
    "metadata": 2,
    "algorithm": 3,
    "algorithm.parameters[]": 4,
    "algorithm.parameters[].constraint": 5,
    "algorithm.parameters[].i18n_description": 6,
    "algorithm.policies": 7,
    "algorithm.policies.auto_search": 8,
    "algorithm.policies.auto_search.reward_attrs[]": 9,
    "algorithm.policies.auto_search.search_params[]": 10,
    "algorithm.policies.auto_search.algo_configs[]": 11,
    "algorithm.policies.auto_search.algo_configs[].params[]": 12,
    "algorithm.engine": 13,
    "algorithm.inputs[]": 20,  # "Array of Input objects": the Input table (20)
    "algorithm.inputs[].remote": 21,
    "algorithm.inputs[].remote.dataset": 22,
    "algorithm.inputs[].remote.obs": 23,
    "algorithm.inputs[].remote_constraint[]": 24,
    "algorithm.outputs[]": 25,  # "Array of Output objects": the Output table (25)
    "algorithm.outputs[].remote": 26,
    "algorithm.outputs[].remote.obs": 27,
    "tasks[]": 14,
    "tasks[].algorithm": 15,
    "tasks[].algorithm.job_config": 16,
    "tasks[].algorithm.job_config.parameters[]": 17,
    "tasks[].algorithm.job_config.parameters[].constraint": 18,
    "tasks[].algorithm.job_config.parameters[].i18n_description": 19,
    "tasks[].algorithm.job_config.inputs[]": 20,
    "tasks[].algorithm.job_config.inputs[].remote": 21,
    "tasks[].algorithm.job_config.inputs[].remote.dataset": 22,
    "tasks[].algorithm.job_config.inputs[].remote.obs": 23,
    "tasks[].algorithm.job_config.inputs[].remote_constraint[]": 24,
    "tasks[].algorithm.job_config.outputs[]": 25,
    "tasks[].algorithm.job_config.outputs[].remote": 26,
    "tasks[].algorithm.job_config.outputs[].remote.obs": 27,
    "tasks[].algorithm.job_config.engine": 28,
    "tasks[].algorithm.engine": 29,
    "tasks[].algorithm.inputs[]": 30,
    "tasks[].algorithm.inputs[].remote": 31,
    "tasks[].algorithm.inputs[].remote.obs": 32,
    "tasks[].algorithm.outputs[]": 33,
    "tasks[].algorithm.outputs[].remote": 34,
    "tasks[].algorithm.outputs[].remote.obs": 35,
    "tasks[].task_resource": 36,
    "spec": 37,
    "spec.resource": 38,
    "spec.volumes[]": 39,
    "spec.volumes[].nfs": 40,
}
# Fields the page's own request examples (004, "Example Requests") send in an object whose
# table leaves them out: the strict end accepts what a page shows.
EXAMPLE_FIELDS: dict[str, frozenset[str]] = {
    # '"log_export_path" : { "obs_url" : "" }' (004's example request), and the list page's
    # Table 57 log_export_path, the same object: "obs_url String", "host_path String".
    "spec.log_export_path": frozenset({"obs_url", "host_path"}),
}
# Value lists the pages print for the same object in another table. search_params: the list
# page (Table 16) "- If continuous is specified ...", "- discrete: ..." and the show page
# (Table 14) alike (seeds/002 spells it "discreate": two pages to one). reward_attrs: the list
# page (Table 15) "- max: A larger metric value ...", "- min: A smaller metric value ...".
VALUE_LISTS: dict[str, tuple[str, ...]] = {
    "algorithm.policies.auto_search.search_params[].param_type": ("continuous", "discrete"),
    "algorithm.policies.auto_search.reward_attrs[].mode": ("max", "min"),
}
# null where a page's request example sends it: '"policies" : { "auto_search" : null }'
EXAMPLE_NULLS = frozenset({"algorithm.policies.auto_search"})
# kind: the create table says only "The default value is job"; the list of kinds is the
# job's response table (seeds/002 Table 3 "Options: job, hetero_job, autosearch_job, mrs_job,
# edge_job"). The strict end accepts only those.
KINDS = ("job", "hetero_job", "autosearch_job", "mrs_job", "edge_job")
# metadata.name: "The value must contain 1 to 64 characters consisting of only digits,
# letters, underscores (_), and hyphens (-)." (004, JobMetadata)
NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
# metadata.description: "The value must contain 0 to 256 characters." (004, JobMetadata);
# the describe page: "Training job description, which consists of 0 to 256 characters."
DESCRIPTION_MAX = 256
# "Integer" on these pages is a 32-bit count, "Long" a 64-bit time (create_time "in
# milliseconds"): an integer beyond the range is refused at both ends.
RANGES = {"Integer": INT32, "Long": INT64}


def table_of(path: str) -> tuple[Row, ...] | None:
    index = CREATE_TABLES.get(path)
    return None if index is None else pipe_tables(CREATE_PAGE)[index]


@dataclass(frozen=True)
class Checker:
    mode: Mode

    @property
    def strict(self) -> bool:
        return self.mode == "strict"

    def create(self, body: Any) -> dict[str, Any]:
        """The create body as this end keeps it (fields no page documents dropped)."""
        kept = self.object(body, "")
        self.create_prose(kept)
        return kept

    def object(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise Invalid(path or "body", "must be an object (the page's type)")
        rows = table_of(path) or ()
        known = {row.name: row for row in rows}
        kept: dict[str, Any] = {}
        for mandatory in rows:
            if mandatory.mandatory and mandatory.name not in value:
                raise Invalid(_join(path, mandatory.name), "is mandatory (Mandatory: Yes)")
        for name, item in value.items():
            where = _join(path, name)
            row = known.get(name)
            if row is None:
                if name in EXAMPLE_FIELDS.get(path, ()):
                    kept[name] = self.scalar(item, "String", where)
                elif self.strict:
                    raise Invalid(where, "no page documents this field")
                continue  # lenient: ignored, neither stored nor echoed
            kept[name] = self.field(item, row, where)
        return kept

    def field(self, value: Any, row: Row, where: str) -> Any:
        kind = row.type
        if value is None:
            if where_pattern(where) in EXAMPLE_NULLS:
                return None
            raise Invalid(where, f"null is not a {kind}")
        if kind.startswith("Array of "):
            if not isinstance(value, list):
                raise Invalid(where, f"must be an array ({kind})")
            inner = kind[len("Array of ") :]
            if inner == "strings":
                return [
                    self.scalar(item, "String", f"{where}[{i}]") for i, item in enumerate(value)
                ]
            return [self.object(item, where_pattern(where) + "[]") for i, item in enumerate(value)]
        if kind.endswith(" object"):
            pattern = where_pattern(where)
            if table_of(pattern) is None:
                if not isinstance(value, dict):
                    raise Invalid(where, f"must be an object ({kind})")
                shown = EXAMPLE_FIELDS.get(pattern, frozenset())
                if self.strict and set(value) - shown:
                    raise Invalid(where, "no page documents a field of this object")
                return {
                    name: self.scalar(item, "String", f"{where}.{name}")
                    for name, item in value.items()
                    if name in shown
                }
            return self.object(value, pattern)
        if kind.startswith("Map<String,String>"):
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                raise Invalid(where, "must be a map of strings (Map<String,String>)")
            return dict(value)
        checked = self.scalar(value, kind, where)
        listed = VALUE_LISTS.get(where_pattern(where))
        if listed is not None and checked not in listed:
            raise Invalid(where, f"one of {', '.join(listed)}")
        return checked

    def scalar(self, value: Any, kind: str, where: str) -> Any:
        if kind == "String":
            if not isinstance(value, str):
                raise Invalid(where, "must be a string (String)")
        elif kind == "Boolean":
            if not isinstance(value, bool):
                raise Invalid(where, "must be a boolean (Boolean)")
        elif kind in RANGES:
            if isinstance(value, bool) or not isinstance(value, int):
                raise Invalid(where, f"must be an integer ({kind})")
            low, high = RANGES[kind]
            if not low <= value <= high:
                raise Invalid(where, f"out of the {kind} range")
        return value

    def create_prose(self, body: Mapping[str, Any]) -> None:
        metadata = body.get("metadata", {})
        name = metadata.get("name")
        if isinstance(name, str) and not NAME.fullmatch(name):
            raise Invalid("metadata.name", "1 to 64 digits, letters, underscores, hyphens")
        description = metadata.get("description")
        if isinstance(description, str) and len(description) > DESCRIPTION_MAX:
            raise Invalid("metadata.description", "0 to 256 characters")
        if not self.strict:
            return
        if body.get("kind") not in KINDS:
            raise Invalid("kind", f"one of {', '.join(KINDS)} (seeds/002 Table 3)")
        self.strict_choices(body)

    def strict_choices(self, body: Mapping[str, Any]) -> None:
        # spec.resource: "Resource flavors of a training job. Select either ..." (004, spec)
        resource = body.get("spec", {}).get("resource")
        if isinstance(resource, dict) and not ({"flavor_id", "pool_id"} & set(resource)):
            raise Invalid("spec.resource", "select either flavor_id or pool_id")
        if isinstance(resource, dict) and resource.get("node_count", 1) < 1:
            raise Invalid("spec.resource.node_count", "a number of nodes is at least 1")
        for at, task in enumerate(body.get("tasks", [])):
            count = task.get("task_resource", {}).get("node_count", 1)
            if count < 1:
                raise Invalid(f"tasks[{at}].task_resource.node_count", "at least 1")
        # "spec: If this parameter is specified, leave the tasks parameter blank." (004)
        if body.get("spec") and body.get("tasks"):
            raise Invalid("tasks", "leave tasks blank when spec is specified")
        algorithm = body.get("algorithm", {})
        # code_dir "must be used together with boot_file" and back (004, JobAlgorithm)
        if ("code_dir" in algorithm) != ("boot_file" in algorithm):
            raise Invalid("algorithm.code_dir", "must be used together with boot_file")
        # subscription_id "must be used with item_version_id" and back (004, JobAlgorithm)
        if ("subscription_id" in algorithm) != ("item_version_id" in algorithm):
            raise Invalid("algorithm.subscription_id", "must be used with item_version_id")
        for at, item in enumerate(algorithm.get("inputs", [])):
            remote = item.get("remote", {})
            if len({"dataset", "obs"} & set(remote)) != 1:
                raise Invalid(f"algorithm.inputs[{at}].remote", "one of dataset, obs")

    def terminate(self, body: Any) -> None:
        # seeds/000 Table 2: action_type, Mandatory Yes, String: "If this parameter is set to
        # terminate, the training job is terminated."
        if not isinstance(body, dict):
            raise Invalid("body", "must be an object")
        if "action_type" not in body:
            raise Invalid("action_type", "is mandatory (Mandatory: Yes)")
        if not isinstance(body["action_type"], str):
            raise Invalid("action_type", "must be a string (String)")
        if body["action_type"] != "terminate":
            raise Invalid("action_type", "the page names one action, terminate")
        if self.strict and set(body) != {"action_type"}:
            raise Invalid("body", "no page documents another field")

    def description(self, body: Any) -> str | None:
        # family/modifying...: description, No, String, "0 to 256 characters"
        if body is None:
            return None
        if not isinstance(body, dict):
            raise Invalid("body", "must be an object")
        if self.strict and set(body) - {"description"}:
            raise Invalid("body", "no page documents another field")
        value = body.get("description")
        if value is None and "description" in body:
            # "description | No | String": null is not a String ("The default value is NULL"
            # is what an absent description stores).
            raise Invalid("description", "null is not a String")
        if value is not None and not isinstance(value, str):
            raise Invalid("description", "must be a string (String)")
        if isinstance(value, str) and len(value) > DESCRIPTION_MAX:
            raise Invalid("description", "0 to 256 characters")
        return value

    def search(self, body: Any) -> dict[str, Any]:
        """The list page's request body (family/querying_a_training_job_list, Request
        Parameters): every parameter is ``Mandatory: No``, so no body is no parameter."""
        if body is None:
            return {}
        if not isinstance(body, dict):
            raise Invalid("body", "must be an object")
        known = {"offset", "limit", "sort_by", "order", "group_by", "filters"}
        if self.strict and set(body) - known:
            raise Invalid("body", "no page documents another field")
        kept = {k: v for k, v in body.items() if k in known}
        for name in ("offset", "limit"):
            if name in kept:
                self.scalar(kept[name], "Integer", name)
        # offset: "The minimum value is 0."; limit: "The value ranges from 1 to 50."
        if kept.get("offset", 0) < 0:
            raise Invalid("offset", "the minimum value is 0")
        if not 1 <= kept.get("limit", 1) <= 50:
            raise Invalid("limit", "ranges from 1 to 50")
        for name in ("sort_by", "order", "group_by"):
            if name in kept:
                self.scalar(kept[name], "String", name)
        # order: "The default value is desc ... You can also set this parameter to asc": the
        # page names the two values.
        if kept.get("order", "desc") not in ("desc", "asc"):
            raise Invalid("order", "desc or asc")
        filters = kept.get("filters", [])
        if not isinstance(filters, list):
            raise Invalid("filters", "must be an array (Array of filters objects)")
        kept["filters"] = [self.filter(item, f"filters[{i}]") for i, item in enumerate(filters)]
        return kept

    def filter(self, item: Any, where: str) -> dict[str, Any]:
        if not isinstance(item, dict):
            raise Invalid(where, "must be an object")
        if self.strict and set(item) - {"key", "operator", "value"}:
            raise Invalid(where, "no page documents another field")
        for name in ("key", "operator"):
            if name in item:
                self.scalar(item[name], "String", f"{where}.{name}")
        # operator: "The options are between (range), like (similar), in (included), and not"
        if "operator" in item and item["operator"] not in ("between", "like", "in", "not"):
            raise Invalid(f"{where}.operator", "between, like, in or not")
        value = item.get("value", [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise Invalid(f"{where}.value", "must be an array of strings")
        return {k: item[k] for k in ("key", "operator", "value") if k in item}


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def where_pattern(where: str) -> str:
    """``tasks[0].algorithm`` -> ``tasks[].algorithm``: the table key of a concrete path."""
    return re.sub(r"\[\d+\]", "[]", where)
