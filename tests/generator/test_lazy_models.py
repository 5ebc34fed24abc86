"""The models only request bodies reach load on first use (issue 17's import target), and
every model name is reachable exactly as when all models lived in one module."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from modelarts_kit_generator import GeneratorOptions, build_ir, pipeline
from modelarts_kit_generator.lazymodels import split_models, split_models_into
from modelarts_kit_generator.modelgen import ModelGenerationError, render_models
from modelarts_kit_spec import load_spec
from pydantic import BaseModel

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "modelarts_training_client"
LAZY = f"{PACKAGE}._request_models"


def _run(code: str) -> dict[str, object]:
    """Run ``code`` in a fresh interpreter on the committed generated/ package; it prints
    one JSON object."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO / "generated"), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert result.returncode == 0, result.stderr
    loaded: dict[str, object] = json.loads(result.stdout)
    return loaded


def test_importing_the_client_does_not_load_the_request_models(
    show_job_example: dict[str, Any],
) -> None:
    seen = _run(
        "import json, sys\n"
        f"import {PACKAGE} as m\n"
        "m.TrainingJobsClient, m.AsyncTrainingJobsClient, m.JobResponse\n"
        "from modelarts_training_client.models import JobResponse\n"
        f"JobResponse.model_validate_json({json.dumps(show_job_example)!r})\n"
        f"after_import = {LAZY!r} in sys.modules\n"
        "m.Job\n"
        f"print(json.dumps({{'import': after_import, 'access': {LAZY!r} in sys.modules}}))\n"
    )
    assert seen == {"import": False, "access": True}


def test_importing_the_client_does_not_load_httpcore_until_a_client_is_made() -> None:
    """The sync deadline's network wrapper (``_deadline``, which imports httpcore, h11 and
    anyio: ~20 ms) loads with the first client, not with the package (before: at import)."""
    seen = _run(
        "import json, sys\n"
        f"import {PACKAGE} as m\n"
        "m.TrainingJobsClient, m.JobResponse\n"
        f"before = [n for n in ('httpcore', {PACKAGE + '._deadline'!r}) if n in sys.modules]\n"
        "m.TrainingJobsClient(project_id='p', auth=m.TokenAuth('t')).close()\n"
        f"after = [n for n in ('httpcore', {PACKAGE + '._deadline'!r}) if n in sys.modules]\n"
        "print(json.dumps({'import': before, 'client': after}))\n"
    )
    assert seen == {"import": [], "client": ["httpcore", f"{PACKAGE}._deadline"]}


@pytest.mark.parametrize(
    "access",
    [
        "from modelarts_training_client.models import Job as found",
        "from modelarts_training_client import Job as found",
        "found = __import__('modelarts_training_client').models.JobActionType",
    ],
)
def test_each_way_of_naming_a_request_model_loads_it(access: str) -> None:
    seen = _run(
        "import json, sys\n"
        f"{access}\n"
        f"print(json.dumps({{'loaded': {LAZY!r} in sys.modules, 'module': found.__module__}}))\n"
    )
    assert seen == {"loaded": True, "module": LAZY}


def test_a_request_call_loads_the_request_models_and_a_read_does_not(
    show_job_example: dict[str, Any], create_job_example: dict[str, Any]
) -> None:
    """The client names request-body models only in the calls that send one."""
    seen = _run(
        "import json, sys, httpx\n"
        f"import {PACKAGE} as m\n"
        f"answer = json.loads({json.dumps(show_job_example)!r})\n"
        "transport = httpx.MockTransport(lambda request: httpx.Response(200, json=answer))\n"
        "client = m.TrainingJobsClient(project_id='p', base_url='https://h', "
        "transport=transport)\n"
        "client.show_training_job_details(answer['metadata']['id'])\n"
        f"read = {LAZY!r} in sys.modules\n"
        f"client.create_training_job(json.loads({json.dumps(create_job_example)!r}))\n"
        f"print(json.dumps({{'read': read, 'create': {LAZY!r} in sys.modules}}))\n"
    )
    assert seen == {"read": False, "create": True}


def test_every_model_name_is_reachable_as_from_one_module() -> None:
    """Every class datamodel-code-generator wrote resolves from ``models`` by its name, and
    every model the IR exports from the package is the same object there."""
    import modelarts_training_client as package
    from modelarts_training_client import models

    ir = build_ir(load_spec(), GeneratorOptions())
    whole = render_models(ir.model_schemas, ir.model_texts, header=ir.models_header)
    classes = {
        node.name
        for node in ast.parse(whole).body
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_")
    }
    assert set(ir.models) <= classes
    assert set(models.__all__) == classes
    for name in sorted(classes):
        found = getattr(models, name)
        assert isinstance(found, type)
        assert issubclass(found, BaseModel)
        assert found.__name__ == name
    for name in ir.models:
        assert getattr(package, name) is getattr(models, name), name
    assert set(ir.models) <= set(package.__all__)
    assert sorted(package.__all__) == list(ir.exports)
    assert set(ir.models) <= set(dir(package))
    assert classes <= set(dir(models))
    with pytest.raises(AttributeError, match="no attribute 'NoSuchModel'"):
        _ = package.NoSuchModel
    with pytest.raises(AttributeError, match="no attribute 'NoSuchModel'"):
        _ = models.NoSuchModel


def test_the_partition_follows_the_reference_graph() -> None:
    """Lazy: what only request bodies reach (``_request_models``), and what only one
    operation's parameters and answer reach (that operation's module). What several
    operations share (the job every answer returns) stays eager; groups never overlap."""
    ir = build_ir(load_spec(), GeneratorOptions())
    groups = {group.module: set(group.models) for group in ir.lazy_groups}
    request_only = groups.pop("_request_models")
    assert request_only <= set(ir.request_models)
    assert not request_only & set(ir.response_models)
    bodies = {op.body.model for op in ir.operations if op.body is not None}
    assert bodies <= request_only
    shown = next(op for op in ir.operations if op.python_name == "show_training_job_details")
    returned = {op.return_model for op in ir.operations} - {None}
    assert shown.return_model in set(ir.eager_models), "the job all three answer is shared"
    for op in ir.operations:
        own = groups.get(f"_{op.python_name}_models", set())
        assert op.params_model in own
        assert not own & (returned - {op.return_model})
        assert f"_models.{op.params_model}" == op.params_expression
    lazy = set(ir.lazy_models)
    assert lazy == request_only.union(*groups.values())
    assert sum(len(group.models) for group in ir.lazy_groups) == len(lazy), "groups overlap"
    assert set(ir.eager_models) | lazy == set(ir.models)
    assert not set(ir.eager_models) & lazy


def test_a_show_loads_only_its_own_module(show_job_example: dict[str, Any]) -> None:
    """Importing the client loads no operation's models; a show call loads show's alone."""
    seen = _run(
        "import json, sys, httpx\n"
        f"import {PACKAGE} as m\n"
        f"answer = json.loads({json.dumps(show_job_example)!r})\n"
        "transport = httpx.MockTransport(lambda request: httpx.Response(200, json=answer))\n"
        "client = m.TrainingJobsClient(project_id='p', base_url='https://h', "
        "transport=transport)\n"
        "lazy = lambda: sorted(n.rsplit('.', 1)[1] for n in sys.modules "
        f"if n.startswith('{PACKAGE}._') and n.endswith('_models'))\n"
        "before = lazy()\n"
        "client.show_training_job_details(answer['metadata']['id'])\n"
        "print(json.dumps({'import': before, 'show': lazy()}))\n"
    )
    assert seen == {"import": [], "show": ["_show_training_job_details_models"]}


SOURCE = '''"""Header."""

from pydantic import BaseModel


class Shared(BaseModel):
    size: int


class Body(BaseModel):
    shared: Shared
    part: Body1


class Body1(BaseModel):
    x: int


class Answer(BaseModel):
    shared: Shared
'''


def test_split_moves_what_only_the_lazy_roots_reach() -> None:
    """A class both sides use stays eager; a helper class only a lazy one uses moves along;
    the lazy module imports what it uses from ``models``."""
    eager, lazy = split_models(SOURCE, {"Body"}, lazy_module="_lazy", lazy_header='"""Lazy."""')
    assert lazy is not None
    eager_classes = {n.name for n in ast.parse(eager).body if isinstance(n, ast.ClassDef)}
    lazy_module = ast.parse(lazy)
    lazy_classes = {n.name for n in lazy_module.body if isinstance(n, ast.ClassDef)}
    assert eager_classes == {"Shared", "Answer"}
    assert lazy_classes == {"Body", "Body1"}
    imported = {
        alias.name
        for node in lazy_module.body
        if isinstance(node, ast.ImportFrom) and node.module == "models" and node.level == 1
        for alias in node.names
    }
    assert imported == {"Shared"}
    assert "_LAZY_MODELS" in eager
    assert '"Body1"' in eager
    # A planned lazy class an eager one refers to is refused, not imported eagerly.
    source = SOURCE + "\n\nclass Both(BaseModel):\n    body: Body\n"
    with pytest.raises(ModelGenerationError, match="'Body' was planned to load lazily"):
        split_models(source, {"Body"}, lazy_module="_lazy", lazy_header='"""L."""')
    assert split_models(SOURCE, set(), lazy_module="_lazy", lazy_header="") == (SOURCE, None)


def test_generation_builds_the_lazy_models_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Verification loads the request-body module as well, so a request model pydantic
    cannot build is refused at generation, not found in a user's first create call."""
    built: list[str] = []
    original = pipeline._build_validators

    def recording(models: Iterable[type[BaseModel]]) -> None:
        taken = list(models)
        built.extend(f"{model.__module__.rsplit('.', 1)[-1]}.{model.__name__}" for model in taken)
        original(taken)

    monkeypatch.setattr(pipeline, "_build_validators", recording)
    pipeline.render_to(tmp_path / "out", use_cache=False)
    ir = build_ir(load_spec(), GeneratorOptions())
    planned = {f"{group.module}.{name}" for group in ir.lazy_groups for name in group.models}
    assert planned <= set(built)
    assert {f"models.{name}" for name in ir.eager_models} <= set(built)


def test_split_into_groups_keeps_each_group_apart() -> None:
    """Two lazy groups: each module holds its own classes and imports only eager ones; a
    class of one group that another group's class refers to is refused."""
    source = SOURCE + "\n\nclass Other(BaseModel):\n    shared: Shared\n"
    eager, modules = split_models_into(
        source, {"_a": ({"Body"}, '"""A."""'), "_b": ({"Other"}, '"""B."""'), "_c": ((), "")}
    )
    assert sorted(modules) == ["_a", "_b"]
    held = {
        name: {n.name for n in ast.parse(text).body if isinstance(n, ast.ClassDef)}
        for name, text in modules.items()
    }
    assert held == {"_a": {"Body", "Body1"}, "_b": {"Other"}}
    assert '"Body1": "_a"' in eager
    assert '"Other": "_b"' in eager
    crossing = SOURCE + "\n\nclass Other(BaseModel):\n    body: Body1\n"
    with pytest.raises(ModelGenerationError, match="'Body1' was planned to load lazily"):
        split_models_into(
            crossing, {"_a": ({"Body"}, '"""A."""'), "_b": ({"Other", "Body1"}, '"""B."""')}
        )
